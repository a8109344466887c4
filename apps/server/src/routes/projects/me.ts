import { projectRoutes } from '@stoa/contract';
import { globalHandler } from '../../http/handler.js';

export default globalHandler(projectRoutes.me, async ({ platform, principal }) => {
  if (principal.kind === 'user') return { kind: 'user' as const, id: principal.userId, name: principal.name };
  const a = await platform.db.kysely.selectFrom('agents').select(['name']).where('id', '=', principal.agentId).executeTakeFirstOrThrow();
  return { kind: 'agent' as const, id: principal.agentId, name: a.name, projectId: principal.projectId };
});
