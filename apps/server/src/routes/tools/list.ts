import { toolRoutes } from '@stoa/contract';
import { allToolsIn } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

/** The tool schemas (files, memory, wiki); for an agent token the file tools also say what applies to that agent. */
export default projectHandler(toolRoutes.list, async (ctx, i) => allToolsIn(ctx, i.format ?? 'mcp'));
