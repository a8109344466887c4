import { agentRoutes } from '@stoa/contract';
import { publishAgent } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(agentRoutes.publish, (ctx, i) => publishAgent(ctx, i.id));
