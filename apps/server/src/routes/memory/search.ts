import { memoryRoutes } from '@stoa/contract';
import { searchMemory } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

/** GET /projects/{project}/memory/search: ranked search over the memory files the caller may read. */
export default projectHandler(memoryRoutes.search, (ctx, i) => searchMemory(ctx, { query: i.q, limit: i.limit }));
