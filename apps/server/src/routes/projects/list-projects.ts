import { projectRoutes } from '@stoa/contract';
import { StoaError, listProjects } from '@stoa/core';
import { globalHandler } from '../../http/handler.js';

export default globalHandler(projectRoutes.listProjects, async ({ platform, principal }) => {
  if (principal.kind === 'agent') {
    const p = await platform.db.kysely.selectFrom('projects').selectAll().where('id', '=', principal.projectId).executeTakeFirstOrThrow();
    return [{ id: p.id, name: p.name, orgId: p.org_id, quotaBytes: p.quota_bytes, createdAt: p.created_at }];
  }
  if (!principal.userId) throw new StoaError('unauthorized');
  return listProjects(platform, { kind: 'user', userId: principal.userId, name: principal.name, role: null, superuser: principal.superuser });
});
