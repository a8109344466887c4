import { projectRoutes } from '@stoa/contract';
import { addMember } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(projectRoutes.addMember, (ctx, i) => addMember(ctx, { user: i.user, role: i.role }));
