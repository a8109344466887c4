import { conversationRoutes } from '@stoa/contract';
import { createConversation } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(conversationRoutes.create, (ctx, i) => createConversation(ctx, { channel: i.channel, members: i.members, kind: i.kind }));
