import { conversationRoutes } from '@stoa/contract';
import { listConversations } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(conversationRoutes.list, (ctx) => listConversations(ctx));
