import { agentRoutes } from '@stoa/contract';
import { showAgent } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(agentRoutes.show, (ctx, i) => showAgent(ctx, i.id));
