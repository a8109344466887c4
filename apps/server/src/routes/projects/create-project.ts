import { projectRoutes } from '@stoa/contract';
import { StoaError, createProject } from '@stoa/core';
import { globalHandler } from '../../http/handler.js';

export default globalHandler(projectRoutes.createProject, async ({ platform, principal }, i) => {
  if (principal.kind !== 'user') throw new StoaError('forbidden', 'agents may not create projects');
  const p = await createProject(platform, { kind: 'user', userId: principal.userId, name: principal.name, role: null, superuser: principal.superuser }, { name: i.name, quotaBytes: i.quotaBytes ?? null });
  return { ...p, role: 'admin' };
});
