import { memoryRoutes } from '@stoa/contract';
import { memoryHistory } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

/** GET /projects/{project}/memory/history: saved versions, newest first. */
export default projectHandler(memoryRoutes.history, (ctx, i) => memoryHistory(ctx, i));
