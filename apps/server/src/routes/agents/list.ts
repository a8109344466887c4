import { agentRoutes } from '@stoa/contract';
import { listAgents } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(agentRoutes.list, (ctx) => listAgents(ctx));
