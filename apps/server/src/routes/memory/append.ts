import { memoryRoutes } from '@stoa/contract';
import { appendMemory } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

/** POST /projects/{project}/memory/append: append on the server (never conflicts). */
export default projectHandler(memoryRoutes.append, (ctx, i) => appendMemory(ctx, i, i.text));
