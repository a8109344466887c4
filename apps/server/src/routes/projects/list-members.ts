import { projectRoutes } from '@stoa/contract';
import { listMembers } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(projectRoutes.listMembers, (ctx) => listMembers(ctx));
