import { projectRoutes } from '@stoa/contract';
import { createToken } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(projectRoutes.createToken, (ctx, i) => createToken(ctx, { user: i.user, agent: i.agent, name: i.name, published: i.published }));
