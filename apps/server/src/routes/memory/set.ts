import { memoryRoutes } from '@stoa/contract';
import { setMemory } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

/** PUT /projects/{project}/memory/file: save a new version; `base` makes it fail with memory_version_conflict (409) when stale. */
export default projectHandler(memoryRoutes.set, (ctx, i) => setMemory(ctx, i, i.content, { base: i.base }));
