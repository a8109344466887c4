import { memoryRoutes } from '@stoa/contract';
import { showMemoryVersion } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

/** GET /projects/{project}/memory/version: one version of a memory file. */
export default projectHandler(memoryRoutes.show, (ctx, i) => showMemoryVersion(ctx, i, i.version));
