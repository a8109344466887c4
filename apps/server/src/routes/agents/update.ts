import { agentRoutes } from '@stoa/contract';
import { updateAgent } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(agentRoutes.update, (ctx, i) => updateAgent(ctx, i.id, { name: i.name, instructions: i.instructions, files: i.files, write: i.write, read: i.read }));
