import { agentRoutes } from '@stoa/contract';
import { copyAgent } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(agentRoutes.copy, (ctx, i) => copyAgent(ctx, i.id));
