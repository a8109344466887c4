import { z } from 'zod';
import { defineRoute, projectParam } from '../route.js';

export const ProjectSchema = z.object({ id: z.string(), name: z.string(), orgId: z.string(), quotaBytes: z.number().int().nullable(), createdAt: z.string(), role: z.string().optional() });
export const MemberSchema = z.object({ userId: z.string(), name: z.string(), role: z.enum(['admin', 'editor', 'viewer']), since: z.string() });
export const TokenInfoSchema = z.object({
  id: z.string(), name: z.string().nullable(), user: z.string().nullable(), agent: z.string().nullable(), project: z.string().nullable(),
  createdAt: z.string(), revokedAt: z.string().nullable(),
});
export const InvitationSchema = z.object({
  id: z.string(), code: z.string(), project: z.string(), role: z.enum(['admin', 'editor', 'viewer']), user: z.string().nullable(), expiresAt: z.string(),
});
export const AuditEntrySchema = z.object({
  id: z.number().int(), at: z.string(), actor: z.object({ kind: z.string(), id: z.string().nullable(), name: z.string().nullable() }),
  action: z.string(), path: z.string().nullable(), from: z.string().nullable(), to: z.string().nullable(), size: z.number().int().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
});

export const projectRoutes = {
  me: defineRoute({
    id: 'auth.me', method: 'GET', path: '/me', summary: 'Who the token stands for',
    input: z.object({}), output: z.object({ kind: z.enum(['user', 'agent']), id: z.string(), name: z.string(), projectId: z.string().optional() }),
  }),
  listProjects: defineRoute({ id: 'projects.list', method: 'GET', path: '/projects', summary: 'Projects you belong to', input: z.object({}), output: z.array(ProjectSchema) }),
  createProject: defineRoute({
    id: 'projects.create', errors: ['already_exists'], method: 'POST', path: '/projects', summary: 'Create a project (you become its admin)', status: 201,
    input: z.object({ name: z.string().min(1), quotaBytes: z.number().int().min(0).nullable().optional() }), output: ProjectSchema,
  }),
  listMembers: defineRoute({ id: 'members.list', method: 'GET', path: '/projects/{project}/members', summary: 'Members and their roles', input: z.object({ project: projectParam }), output: z.array(MemberSchema) }),
  addMember: defineRoute({
    id: 'members.add', method: 'POST', path: '/projects/{project}/members', summary: 'Add a member (the user is created if it does not exist) or change a role',
    input: z.object({ project: projectParam, user: z.string().min(1), role: z.enum(['admin', 'editor', 'viewer']) }), output: MemberSchema,
  }),
  removeMember: defineRoute({
    id: 'members.remove', method: 'DELETE', path: '/projects/{project}/members/{user}', summary: 'Remove a member',
    input: z.object({ project: projectParam, user: z.string() }), output: z.object({ ok: z.literal(true) }),
  }),
  createToken: defineRoute({
    id: 'tokens.create', method: 'POST', path: '/projects/{project}/tokens', summary: 'Create an API token that works only in this project: your own, an agent\'s (owner or admin), or a member\'s (installation admin only); shown once', status: 201,
    input: z.object({ project: projectParam, user: z.string().optional(), agent: z.string().optional(), name: z.string().optional(), published: z.boolean().optional().describe('Agent tokens: act with the settings frozen at the agent\'s publication (A7)') }),
    output: z.object({ token: z.string(), id: z.string(), user: z.string().optional(), agent: z.string().optional(), published: z.boolean().optional() }),
  }),
  revokeToken: defineRoute({
    id: 'tokens.revoke', method: 'DELETE', path: '/projects/{project}/tokens/{id}', summary: 'Revoke a token',
    input: z.object({ project: projectParam, id: z.string() }), output: z.object({ ok: z.literal(true) }),
  }),
  listTokens: defineRoute({
    id: 'tokens.list', method: 'GET', path: '/projects/{project}/tokens',
    summary: 'Tokens you may revoke: your own, your agents\', and (project admins) every token confined to this project',
    input: z.object({ project: projectParam }), output: z.array(TokenInfoSchema),
  }),
  createInvitation: defineRoute({
    id: 'invitations.create', method: 'POST', path: '/projects/{project}/invitations', status: 201,
    summary: 'Invite a person (project admins): a one-time code they redeem for their own membership and token',
    input: z.object({
      project: projectParam, role: z.enum(['admin', 'editor', 'viewer']),
      user: z.string().min(1).optional().describe('Address the invitation to this user name'),
      ttlHours: z.number().int().min(1).max(2160).optional().describe('Hours the code stays valid (default 168)'),
    }),
    output: InvitationSchema,
  }),
  acceptInvitation: defineRoute({
    id: 'invitations.accept', method: 'POST', path: '/invitations/accept', public: true,
    summary: 'Redeem an invitation: signed in, you join the project; without a token, a new user is created and gets its own token',
    input: z.object({ code: z.string().min(1).max(200), user: z.string().min(1).optional().describe('Your user name (new users, when the invitation names none)') }),
    output: z.object({ project: z.object({ id: z.string(), name: z.string() }), role: z.enum(['admin', 'editor', 'viewer']), user: z.string(), token: z.string().optional() }),
    errors: ['unauthorized', 'forbidden', 'already_exists'],
  }),
  audit: defineRoute({
    id: 'audit.list', method: 'GET', path: '/projects/{project}/audit', summary: "People's uploads, moves and deletes, newest first (admins)",
    input: z.object({ project: projectParam, limit: z.coerce.number().int().min(1).max(1000).optional(), before: z.coerce.number().int().optional(), action: z.string().optional(), path: z.string().optional() }),
    output: z.object({ entries: z.array(AuditEntrySchema), nextCursor: z.number().int().nullable() }),
  }),
};
