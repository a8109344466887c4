import { memoryRoutes } from '@stoa/contract';
import { memoryBundle } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

/** GET /projects/{project}/memory/bundle: what `memory pull` writes under .stoa/memory/. */
export default projectHandler(memoryRoutes.bundle, (ctx, i) => memoryBundle(ctx, i));
