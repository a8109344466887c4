import { docsRoutes } from '@stoa/contract';
import { understandingStatus } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(docsRoutes.status, (ctx, i) => understandingStatus(ctx, i.path));
