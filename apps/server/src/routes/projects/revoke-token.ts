import { projectRoutes } from '@stoa/contract';
import { revokeToken } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(projectRoutes.revokeToken, async (ctx, i) => {
  await revokeToken(ctx, { id: i.id });
  return { ok: true as const };
});
