import { agentRoutes } from '@stoa/contract';
import { deleteAgent } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(agentRoutes.remove, async (ctx, i) => {
  await deleteAgent(ctx, i.id);
  return { ok: true as const };
});
