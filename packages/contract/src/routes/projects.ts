import { z } from 'zod';
import { inputMax } from '../limits.js';
import { defineRoute, projectParam } from '../route.js';

export const ProjectSchema = z.object({
  id: z.string(),
  name: z.string(),
  orgId: z.string(),
  quotaBytes: z.number().int().nullable(),
  createdAt: z.string(),
  role: z.string().optional(),
});
export const MemberSchema = z.object({ userId: z.string(), name: z.string(), role: z.enum(['admin', 'editor', 'viewer']), since: z.string() });
export const TokenInfoSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  user: z.string().nullable(),
  agent: z.string().nullable(),
  project: z.string().nullable(),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
});
export const InvitationSchema = z.object({
  id: z.string(),
  code: z.string(),
  project: z.string(),
  role: z.enum(['admin', 'editor', 'viewer']),
  user: z.string().nullable(),
  expiresAt: z.string(),
});
export const AuditEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  actor: z.object({ kind: z.string(), id: z.string().nullable(), name: z.string().nullable() }),
  action: z.string(),
  path: z.string().nullable(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  size: z.number().int().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
});

export const CATALOGS = ['projects', 'users', 'knowledges', 'skills', 'xperts', 'user-xperts'] as const;
const VOLUME_CATALOGS = ['users', 'knowledges', 'skills', 'xperts', 'user-xperts'] as const;
const volumeParam = z.string().min(1).max(100).describe('The volume ID (vol_…)');
const nullableId = (what: string) => z.string().nullable().describe(what);

/** A volume's scope as the server resolved it for the caller (R1): typed fields, never a string to take apart. */
export const VolumeScopeSchema = z.object({
  catalog: z.enum(CATALOGS),
  volumeId: z.string().describe('What every door names this volume by, in place of a project: /projects/{volumeId}/files, /dav/{volumeId}/, --project'),
  scopeId: z.string().describe("The catalog's key: the project, the person (users), the agent (xperts, user-xperts), the knowledge base or skill package"),
  tenantId: z.string(),
  organizationId: z.string(),
  userId: nullableId('users and user-xperts: the person whose volume it is (kept apart from the agent); projects: the person the token acts for'),
  projectId: nullableId('The project: the project itself, or the one a knowledge base, skill package or agent belongs to'),
  projectName: nullableId("That project's name"),
  knowledgeId: nullableId('knowledges: the knowledge base (its volume ID)'),
  skillId: nullableId('skills: the skill package (its volume ID)'),
  rootId: z.null().describe('Reserved: every volume is one tree from its root'),
  xpertId: nullableId('xperts and user-xperts: the agent; projects: the agent the token acts for'),
  name: z.string().describe('The project, knowledge base or skill package name; for other volumes a description'),
  actor: z.object({ kind: z.enum(['user', 'agent']), id: z.string() }).describe('Who acts in it with this token'),
  access: z.enum(['admin', 'editor', 'viewer', 'write', 'read', 'none']).describe("A person's role here, or what an agent may do with its files"),
});

export const projectRoutes = {
  me: defineRoute({
    id: 'auth.me',
    method: 'GET',
    path: '/me',
    summary: 'Who the token stands for',
    input: z.object({}),
    output: z.object({
      kind: z.enum(['user', 'agent']),
      id: z.string(),
      name: z.string(),
      projectId: z.string().optional(),
      installationAdmin: z.boolean().optional().describe("True for the installation administrator's tokens (may delete projects)"),
    }),
  }),
  listProjects: defineRoute({
    id: 'projects.list',
    method: 'GET',
    path: '/projects',
    summary: 'Projects you belong to',
    input: z.object({}),
    output: z.array(ProjectSchema),
  }),
  createProject: defineRoute({
    id: 'projects.create',
    errors: ['already_exists'],
    method: 'POST',
    path: '/projects',
    summary: 'Create a project (you become its admin)',
    status: 201,
    input: z.object({ name: z.string().max(inputMax.name).min(1), quotaBytes: z.number().int().min(0).nullable().optional() }),
    output: ProjectSchema,
  }),
  openVolume: defineRoute({
    id: 'volumes.open',
    method: 'POST',
    path: '/volumes',
    summary: "Resolve the caller's scope in a volume (a project, your own files, an agent's, a private agent's, a knowledge base, a skill package)",
    description:
      'The server derives the scope from the token and the catalog — clients never build it from strings — and creates the volume on first use. Someone else’s volume answers not_found, exactly like one that does not exist.',
    input: z.object({
      catalog: z.enum(CATALOGS).describe('Which kind of volume'),
      project: projectParam.optional().describe('projects, knowledges, skills: the project (name or ID)'),
      agent: z.string().min(1).max(64).optional().describe('xperts, user-xperts: the agent (its ID); an agent token may leave it out for itself'),
      name: z.string().min(1).max(100).optional().describe('knowledges, skills: the knowledge base or skill package, by name in its project'),
      create: z
        .boolean()
        .optional()
        .describe(
          'false: only an existing volume, a missing one answers not_found (for reads: a typo must not create a volume); absent or true: created on first use',
        ),
    }),
    output: VolumeScopeSchema,
  }),
  getVolume: defineRoute({
    id: 'volumes.get',
    method: 'GET',
    path: '/volumes/{volume}',
    summary: 'Your scope in an existing volume beyond projects, by its ID (a link to it, a reload)',
    input: z.object({ volume: volumeParam }),
    output: VolumeScopeSchema,
  }),
  listVolumes: defineRoute({
    id: 'volumes.list',
    method: 'GET',
    path: '/projects/{project}/volumes',
    summary: "The volumes you reach from a project: its knowledge bases and skill packages, the agents' volumes you may read, your own files",
    description:
      "Only volumes that exist and that you may open are listed (someone else's never); an agent's volume whose agent was deleted is marked agentDeleted (decision 0016).",
    input: z.object({
      project: projectParam,
      catalog: z.enum(VOLUME_CATALOGS).optional().describe('Only this kind (default: every kind)'),
    }),
    output: z.array(
      z.object({
        volumeId: z.string().describe('What every door names it by, in place of a project'),
        catalog: z.enum(VOLUME_CATALOGS),
        name: z.string().describe("A knowledge base's or skill package's name; for other volumes a description"),
        scopeId: VolumeScopeSchema.shape.scopeId,
        userId: VolumeScopeSchema.shape.userId,
        projectId: VolumeScopeSchema.shape.projectId,
        knowledgeId: VolumeScopeSchema.shape.knowledgeId,
        skillId: VolumeScopeSchema.shape.skillId,
        xpertId: VolumeScopeSchema.shape.xpertId,
        access: VolumeScopeSchema.shape.access,
        agentName: z.string().nullable().describe("xperts, user-xperts: the agent's name (also once it is deleted)"),
        agentDeleted: z.boolean().describe("An agent's volume whose agent was deleted: read-only; its people may delete it as a whole"),
        createdAt: z.string(),
        usedBytes: z.number().int(),
        quotaBytes: z.number().int(),
      }),
    ),
  }),
  deleteVolume: defineRoute({
    id: 'volumes.delete',
    method: 'DELETE',
    path: '/volumes/{volume}',
    summary: "Delete a knowledge base or skill package (its project's admins), or the volume of a deleted agent (its owner, its project's admins)",
    description: "Everything in it goes, as with a deleted project; recorded in its project's audit log (volume.delete).",
    input: z.object({ volume: volumeParam }),
    output: z.object({ volumeId: z.string(), deleted: z.literal(true) }),
  }),
  deleteProject: defineRoute({
    id: 'projects.delete',
    method: 'DELETE',
    path: '/projects/{project}',
    summary: "Delete a whole project and everything in it (installation administrator only; recorded in the installation's audit log)",
    input: z.object({
      project: projectParam,
      confirm: z.string().max(inputMax.name).min(1).describe("The project's exact name, repeated to confirm; anything else is refused and nothing is deleted"),
    }),
    output: z.object({ id: z.string(), name: z.string(), deleted: z.literal(true) }),
  }),
  listMembers: defineRoute({
    id: 'members.list',
    method: 'GET',
    path: '/projects/{project}/members',
    summary: 'Members and their roles',
    input: z.object({ project: projectParam }),
    output: z.array(MemberSchema),
  }),
  addMember: defineRoute({
    id: 'members.add',
    method: 'POST',
    path: '/projects/{project}/members',
    summary: 'Add a member (the user is created if it does not exist) or change a role',
    input: z.object({ project: projectParam, user: z.string().max(inputMax.name).min(1), role: z.enum(['admin', 'editor', 'viewer']) }),
    output: MemberSchema,
  }),
  removeMember: defineRoute({
    id: 'members.remove',
    method: 'DELETE',
    path: '/projects/{project}/members/{user}',
    summary: 'Remove a member',
    input: z.object({ project: projectParam, user: z.string().max(inputMax.name) }),
    output: z.object({ ok: z.literal(true) }),
  }),
  createToken: defineRoute({
    id: 'tokens.create',
    method: 'POST',
    path: '/projects/{project}/tokens',
    summary: "Create an API token that works only in this project: your own, an agent's (owner or admin), or a member's (installation admin only); shown once",
    status: 201,
    input: z.object({
      project: projectParam,
      user: z.string().max(inputMax.name).optional(),
      agent: z.string().max(inputMax.name).optional(),
      name: z.string().max(inputMax.name).optional(),
      published: z.boolean().optional().describe("Agent tokens: act with the settings frozen at the agent's publication (A7)"),
    }),
    output: z.object({ token: z.string(), id: z.string(), user: z.string().optional(), agent: z.string().optional(), published: z.boolean().optional() }),
  }),
  revokeToken: defineRoute({
    id: 'tokens.revoke',
    method: 'DELETE',
    path: '/projects/{project}/tokens/{id}',
    summary: 'Revoke a token',
    input: z.object({ project: projectParam, id: z.string().max(inputMax.id) }),
    output: z.object({ ok: z.literal(true) }),
  }),
  listTokens: defineRoute({
    id: 'tokens.list',
    method: 'GET',
    path: '/projects/{project}/tokens',
    summary: "Tokens you may revoke: your own, your agents', and (project admins) every token confined to this project",
    input: z.object({ project: projectParam, agent: z.string().max(inputMax.name).optional().describe("Only this agent's tokens") }),
    output: z.array(TokenInfoSchema),
  }),
  createInvitation: defineRoute({
    id: 'invitations.create',
    method: 'POST',
    path: '/projects/{project}/invitations',
    status: 201,
    summary: 'Invite a person (project admins): a one-time code they redeem for their own membership and token',
    input: z.object({
      project: projectParam,
      role: z.enum(['admin', 'editor', 'viewer']),
      user: z.string().max(inputMax.name).min(1).optional().describe('Address the invitation to this user name'),
      ttlHours: z.number().int().min(1).max(2160).optional().describe('Hours the code stays valid (default 168)'),
    }),
    output: InvitationSchema,
  }),
  acceptInvitation: defineRoute({
    id: 'invitations.accept',
    method: 'POST',
    path: '/invitations/accept',
    public: true,
    summary: 'Redeem an invitation: signed in, you join the project; without a token, a new user is created and gets its own token',
    input: z.object({
      code: z.string().min(1).max(200),
      user: z.string().max(inputMax.name).min(1).optional().describe('Your user name (new users, when the invitation names none)'),
      password: z
        .string()
        .max(256)
        .optional()
        .describe('New users: the password to sign in with (at least 10 characters); the answer then holds a web session, not an API token'),
    }),
    output: z.object({
      project: z.object({ id: z.string(), name: z.string() }),
      role: z.enum(['admin', 'editor', 'viewer']),
      user: z.string(),
      token: z.string().optional(),
    }),
    errors: ['unauthorized', 'forbidden', 'already_exists'],
  }),
  audit: defineRoute({
    id: 'audit.list',
    method: 'GET',
    path: '/projects/{project}/audit',
    summary: "People's uploads, moves and deletes, newest first (admins)",
    input: z.object({
      project: projectParam,
      limit: z.coerce.number().int().min(1).max(1000).optional(),
      before: z.coerce.number().int().optional(),
      action: z.string().max(inputMax.name).optional(),
      path: z.string().max(inputMax.path).optional(),
    }),
    output: z.object({ entries: z.array(AuditEntrySchema), nextCursor: z.number().int().nullable() }),
  }),
};
