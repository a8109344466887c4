import { memoryRoutes } from '@stoa/contract';
import { getMemory } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

/** GET /projects/{project}/memory/file: the newest version of one memory file. */
export default projectHandler(memoryRoutes.get, (ctx, i) => getMemory(ctx, i));
