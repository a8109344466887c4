import { z } from 'zod';
import { defineRoute } from '../route.js';

export const DoctorReportSchema = z.object({
  ok: z.boolean().describe('True when nothing is left to fix'),
  checked: z.object({ projects: z.number().int(), files: z.number().int(), versions: z.number().int(), storedBlobs: z.number().int() }),
  findings: z.array(
    z.object({
      kind: z.enum(['usage', 'reserved', 'folders', 'missing_blob', 'orphaned_blobs']),
      project: z.string().nullable(),
      detail: z.string(),
      repaired: z.boolean(),
    }),
  ),
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
};
