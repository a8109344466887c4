import { projectRoutes } from '@stoa/contract';
import { addMember, listMembers, removeMember } from '../projects/members.js';
import { createToken, listTokens, revokeToken } from '../projects/tokens.js';
import { acceptInvitation, createInvitation } from '../projects/invitations.js';
import { createProjectFor, listProjectsFor } from '../projects/projects.js';
import { deleteProject } from '../projects/delete-project.js';
import { listAudit } from '../audit/audit.js';
import { openVolume, volumeScopeById } from '../volumes/open-volume.js';
import { listVolumes } from '../volumes/list-volumes.js';
import { deleteVolume } from '../volumes/delete-volume.js';
import { changes, globalOperation, projectOperation, publicOperation, reads, type Operation, type OperationTraits } from './operation.js';
import { describePrincipal } from './principals.js';

const r = projectRoutes;
const signedIn = (mutates = false): OperationTraits => ({ policy: 'signed-in', mutates, audit: null, agent: 'none' });

/** Who am I, projects, members, tokens and the audit log. */
export const projectOperations: Operation[] = [
  globalOperation(r.me, signedIn(), ({ platform, principal }) => describePrincipal(platform, principal)),
  globalOperation(r.listProjects, signedIn(), ({ platform, principal }) => listProjectsFor(platform, principal) as never),
  globalOperation(r.createProject, signedIn(true), ({ platform, principal }, i) =>
    createProjectFor(platform, principal, { name: i.name, quotaBytes: i.quotaBytes ?? null }),
  ),
  // Creates the volume on first use, so it counts as a change; who reaches which volume is decided in the core.
  globalOperation(r.openVolume, signedIn(true), ({ platform, principal }, i) =>
    openVolume(platform, principal, { catalog: i.catalog, project: i.project, agent: i.agent, name: i.name, create: i.create }),
  ),
  globalOperation(r.getVolume, signedIn(), ({ platform, principal }, i) => volumeScopeById(platform, principal, i.volume)),
  // Each volume listed is one the caller may open: the core puts every candidate through the rule that opens it.
  globalOperation(r.listVolumes, signedIn(), ({ platform, principal }, i) => listVolumes(platform, principal, { project: i.project, catalog: i.catalog })),
  // Who may delete which volume (a project admin; the people of a deleted agent) is decided and audited in the core.
  globalOperation(r.deleteVolume, signedIn(true), ({ platform, principal }, i) => deleteVolume(platform, principal, { volume: i.volume })),
  // Only the installation administrator; the core checks it (a project's own admin may not destroy it for everyone).
  globalOperation(r.deleteProject, signedIn(true), ({ platform, principal }, i) =>
    deleteProject(platform, principal, { project: i.project, confirm: i.confirm }),
  ),
  projectOperation(r.listMembers, reads('project.read'), (ctx) => listMembers(ctx)),
  projectOperation(r.addMember, changes('member.manage', null, 'none'), (ctx, i) => addMember(ctx, { user: i.user, role: i.role })),
  projectOperation(r.removeMember, changes('member.manage', null, 'none'), async (ctx, i) => {
    await removeMember(ctx, { user: i.user });
    return { ok: true as const };
  }),
  // Any member may mint and revoke their own tokens; the core narrows who may do it for whom.
  projectOperation(r.createToken, changes('token.create', null, 'none'), (ctx, i) =>
    createToken(ctx, { user: i.user, agent: i.agent, name: i.name, published: i.published }),
  ),
  projectOperation(r.listTokens, reads('project.read'), (ctx, i) => listTokens(ctx, { agent: i.agent })),
  projectOperation(r.createInvitation, changes('member.manage', null, 'none'), (ctx, i) =>
    createInvitation(ctx, { role: i.role, user: i.user, ttlHours: i.ttlHours }),
  ),
  publicOperation(r.acceptInvitation, { policy: 'public', mutates: true, audit: null, agent: 'none' }, ({ platform, principal, client }, i) =>
    acceptInvitation(platform, principal, i, { client }),
  ),
  projectOperation(r.revokeToken, changes('token.create', null, 'none'), async (ctx, i) => {
    await revokeToken(ctx, { id: i.id });
    return { ok: true as const };
  }),
  projectOperation(r.audit, reads('audit.read'), (ctx, i) => listAudit(ctx, { limit: i.limit, before: i.before, action: i.action, path: i.path })),
];
