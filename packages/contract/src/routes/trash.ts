import { z } from 'zod';
import { inputMax } from '../limits.js';
import { defineRoute, projectParam } from '../route.js';

const trashId = z.string().min(1).max(inputMax.id).describe('The trash entry ID (trs_…)');

export const TrashItemSchema = z.object({
  id: z.string(),
  kind: z.enum(['file', 'folder']),
  path: z.string().describe('Where it was when it was deleted'),
  name: z.string(),
  size: z.number().int().describe('Bytes of its current versions: what a restore charges to the quota again'),
  files: z.number().int().describe('Files it holds (1 for a file)'),
  deletedAt: z.string(),
  deletedBy: z.object({ kind: z.string(), id: z.string().nullable(), label: z.string().nullable() }).describe('Who deleted it: a person, or an agent'),
  expiresAt: z.string().describe('When it goes for good unless restored first (STOA_TRASH_DAYS)'),
});

/**
 * The trash of a volume (issue 29): a project's, or a person's own files (`vol_…` in place of the project). A
 * delete moves a file or folder there with its versions; these list, restore and purge it.
 */
export const trashRoutes = {
  list: defineRoute({
    id: 'trash.list',
    method: 'GET',
    path: '/projects/{project}/trash',
    summary: 'Deleted files and folders in the trash, newest first',
    input: z.object({
      project: projectParam,
      limit: z.coerce.number().int().min(1).max(1000).optional().describe('Entries per answer (default 100)'),
      cursor: z.string().max(inputMax.id).optional().describe('nextCursor of the previous answer'),
    }),
    output: z.object({
      items: z.array(TrashItemSchema),
      nextCursor: z.string().nullable(),
      mayRestore: z.boolean().describe('The caller may restore (it may write files here)'),
      mayPurge: z.boolean().describe('The caller may delete entries forever (an admin of the volume)'),
    }),
  }),
  restore: defineRoute({
    id: 'trash.restore',
    errors: ['quota_exceeded'],
    method: 'POST',
    path: '/projects/{project}/trash/{id}/restore',
    summary: 'Restore a trash entry with its versions; beside the original path when that is taken',
    input: z.object({ project: projectParam, id: trashId }),
    output: z.object({
      id: z.string(),
      kind: z.enum(['file', 'folder']),
      from: z.string().describe('Where it was deleted from'),
      path: z.string().describe('Where it is now'),
      beside: z.boolean().describe('True when the original path was taken and it came back beside it'),
      files: z.number().int(),
      size: z.number().int(),
      text: z.string().describe('What happened, in a sentence'),
    }),
  }),
  purge: defineRoute({
    id: 'trash.purge',
    method: 'DELETE',
    path: '/projects/{project}/trash/{id}',
    summary: 'Delete a trash entry forever, with all its versions (admins)',
    input: z.object({ project: projectParam, id: trashId }),
    output: z.object({ id: z.string(), path: z.string(), purged: z.literal(true) }),
  }),
};
