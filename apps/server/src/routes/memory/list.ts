import { memoryRoutes } from '@stoa/contract';
import { listMemoryFiles } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

/** GET /projects/{project}/memory: the memory files the caller may read (Settings → Memory, M2). */
export default projectHandler(memoryRoutes.list, (ctx) => listMemoryFiles(ctx));
