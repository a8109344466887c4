import { agentRoutes } from '@stoa/contract';
import { createAgent } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(agentRoutes.create, (ctx, i) => createAgent(ctx, { name: i.name, instructions: i.instructions, files: i.files, write: i.write, read: i.read }));
