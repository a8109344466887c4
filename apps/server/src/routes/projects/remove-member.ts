import { projectRoutes } from '@stoa/contract';
import { removeMember } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(projectRoutes.removeMember, async (ctx, i) => {
  await removeMember(ctx, { user: i.user });
  return { ok: true as const };
});
