import type { AnyHandler } from '../../http/handler.js';
import create from './create.js';
import list from './list.js';
import show from './show.js';
import update from './update.js';
import copy from './copy.js';
import del from './delete.js';
import publish from './publish.js';
import createConversation from '../conversations/create.js';
import listConversations from '../conversations/list.js';
import trace from '../conversations/trace.js';
import listTools from '../tools/list.js';
import callTool from '../tools/call.js';

/** Handlers of agents, conversations (with the trace) and the tool routes. */
export const agentHandlers: AnyHandler[] = [create, list, show, update, copy, del, publish, createConversation, listConversations, trace, listTools, callTool];
