import { projectRoutes } from '@stoa/contract';
import { createInvitation } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(projectRoutes.createInvitation, (ctx, i) => createInvitation(ctx, { role: i.role, user: i.user, ttlHours: i.ttlHours }));
