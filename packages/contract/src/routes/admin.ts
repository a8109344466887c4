import { z } from 'zod';
import { defineRoute } from '../route.js';

export const DoctorReportSchema = z.object({
  ok: z.boolean().describe('True when nothing is left to fix'),
  checked: z.object({
    projects: z.number().int(),
    volumes: z.number().int().describe('Volumes (R1) checked besides the projects'),
    files: z.number().int(),
    versions: z.number().int(),
    storedBlobs: z.number().int(),
  }),
  findings: z.array(
    z.object({
      kind: z.enum(['usage', 'reserved', 'folders', 'missing_blob', 'orphaned_blobs']),
      project: z.string().nullable(),
      detail: z.string(),
      repaired: z.boolean(),
    }),
  ),
  inGrace: z
    .object({ blobs: z.number().int(), bytes: z.number().int(), graceSeconds: z.number().int() })
    .describe('Unreferenced bytes inside the sweep grace period (left by deletes, or an upload about to commit): not drift'),
  repairs: z.array(z.string()).describe('What the repair changed, one line each; empty when it changed nothing'),
});

/** Installation-wide maintenance (installation administrators only). */
export const adminRoutes = {
  doctor: defineRoute({
    id: 'admin.doctor',
    method: 'POST',
    path: '/admin/doctor',
    summary: 'Check (and with repair, fix) drift between the database and storage: usage, folders, missing and orphaned blobs',
    input: z.object({ repair: z.boolean().optional().describe('Fix what can be fixed: usage counters, folder index, orphaned blobs past the grace period') }),
    output: DoctorReportSchema,
  }),
  audit: defineRoute({
    id: 'admin.audit',
    method: 'GET',
    path: '/admin/audit',
    summary: "The installation's audit log (events that outlive projects, such as deleting one), newest first",
    input: z.object({ limit: z.coerce.number().int().min(1).max(1000).optional().describe('Entries to return (100 by default)') }),
    output: z.array(z.object({ id: z.number().int(), at: z.string(), actor: z.string().nullable(), action: z.string(), subject: z.string() })),
  }),
  loginLink: defineRoute({
    id: 'admin.loginLink',
    method: 'POST',
    path: '/admin/login-link',
    summary: 'A fresh one-time link that signs the installation administrator in to the web UI (valid 15 minutes)',
    input: z.object({}),
    output: z.object({ path: z.string().describe('Open it on the server address: /login?code=…'), expiresInSeconds: z.number().int() }),
  }),
  createToken: defineRoute({
    id: 'admin.createToken',
    method: 'POST',
    path: '/admin/tokens',
    summary: 'A new installation administrator token (not confined to a project; runs doctor and other installation-wide commands)',
    input: z.object({ name: z.string().min(1).max(100).optional().describe('A label for the token') }),
    output: z.object({ token: z.string().describe('Shown once; only its hash is stored'), id: z.string() }),
  }),
};
