import { projectRoutes } from '@stoa/contract';
import { listAudit } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(projectRoutes.audit, (ctx, i) => listAudit(ctx, { limit: i.limit, before: i.before, action: i.action, path: i.path }));
