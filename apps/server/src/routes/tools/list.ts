import { exportTools, toolRoutes } from '@stoa/contract';
import { toolAudience } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

/** The tool schemas; for an agent token the descriptions also say what applies to that agent. */
export default projectHandler(toolRoutes.list, async (ctx, i) => exportTools(i.format ?? 'mcp', ctx.platform.config.limits, toolAudience(ctx)));
