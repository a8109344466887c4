import { conversationRoutes } from '@stoa/contract';
import { listTrace } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(conversationRoutes.trace, (ctx, i) => listTrace(ctx, i.id, { limit: i.limit, after: i.after }));
