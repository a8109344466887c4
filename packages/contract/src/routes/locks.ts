import { z } from 'zod';
import { defineRoute, projectParam } from '../route.js';

export const LockSchema = z.object({
  token: z.string().describe('The lock token (opaquelocktoken:…); it works only for its holder'),
  path: z.string().describe('The locked file or folder ("" = the project root)'),
  depth: z.enum(['0', 'infinity']).describe('"infinity": everything below a folder too'),
  scope: z.enum(['exclusive', 'shared']),
  owner: z.string().nullable().describe('What the WebDAV client said about itself'),
  timeoutSeconds: z.number().int(),
  expiresAt: z.string(),
  holder: z.object({ kind: z.enum(['user', 'agent']), id: z.string(), name: z.string().nullable() }),
  mine: z.boolean().describe('True when the caller holds it'),
});

/** WebDAV write locks as people see and release them (issue 26): holders, project admins, the installation administrator. */
export const lockRoutes = {
  list: defineRoute({
    id: 'locks.list',
    method: 'GET',
    path: '/projects/{project}/locks',
    summary: 'Live WebDAV locks of the project, with who holds them',
    input: z.object({ project: projectParam }),
    output: z.array(LockSchema),
  }),
  release: defineRoute({
    id: 'locks.release',
    errors: ['forbidden', 'not_found'],
    method: 'DELETE',
    path: '/projects/{project}/locks',
    summary: 'Release a lock: its holder, a project admin or the installation administrator',
    description: 'What WebDAV UNLOCK does, for a lock anywhere in the project: an admin ends a forgotten lock without the client that took it.',
    input: z.object({ project: projectParam, token: z.string().min(1).max(200).describe('The lock token, as `locks.list` shows it') }),
    output: LockSchema.omit({ holder: true, mine: true }),
  }),
};
