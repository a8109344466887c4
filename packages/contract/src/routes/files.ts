import { z } from 'zod';
import { inputMax } from '../limits.js';
import { defineRoute, projectParam } from '../route.js';
import { FileSchema, OkSchema } from './common.js';

const path = z.string().max(inputMax.path).min(1).describe('File path from the storage root, e.g. "reports/2026/summary.md"');
const expectedVersion = z.coerce
  .number()
  .int()
  .min(0)
  .optional()
  .describe('Optimistic concurrency: fail with version_conflict unless the file is at this version (0 = must not exist)');

export const FolderSchema = z.object({ path: z.string(), name: z.string(), fileCount: z.number().int() });
export const VersionSchema = z.object({
  version: z.number().int(),
  size: z.number().int(),
  modified: z.string(),
  author: z.string().describe('Name of the person, or "agent: <name>"'),
  authorDetail: z.object({ kind: z.string(), id: z.string().nullable(), label: z.string().nullable(), meta: z.record(z.string(), z.unknown()).nullable() }),
  sha256: z.string(),
  current: z.boolean(),
});
export const UsageSchema = z.object({
  used: z.number().int(),
  quota: z.number().int(),
  reserved: z.number().int(),
  files: z.number().int(),
  text: z.string().describe('e.g. "Used 12.4 MiB of 1.0 GiB"'),
});
export const UploadTicketSchema = z.object({
  uploadId: z.string(),
  path: z.string(),
  size: z.number().int(),
  url: z.string().nullable().describe('Presigned object-storage URL to PUT the bytes to; null means PUT them to /projects/{project}/uploads/{uploadId}'),
  headers: z.record(z.string(), z.string()),
  expiresAt: z.string(),
  partSize: z
    .number()
    .int()
    .nullable()
    .optional()
    .describe('Sent in parts of this many bytes (the last one shorter): get where to send each from POST …/parts; null: sent whole'),
  partCount: z.number().int().nullable().optional(),
});
export const UploadPartTargetSchema = z.object({
  partNumber: z.number().int(),
  offset: z.number().int(),
  size: z.number().int(),
  url: z
    .string()
    .nullable()
    .describe(
      'Presigned object-storage URL to PUT this part to (then report its ETag); null means PUT it to /projects/{project}/uploads/{uploadId}/parts/{partNumber}',
    ),
  headers: z.record(z.string(), z.string()),
});
export const UploadStatusSchema = UploadTicketSchema.extend({
  received: z.array(z.object({ partNumber: z.number().int(), size: z.number().int() })).describe('The parts that arrived whole, by number'),
  receivedBytes: z.number().int(),
});

export const filesRoutes = {
  list: defineRoute({
    id: 'files.list',
    method: 'GET',
    path: '/projects/{project}/files',
    summary: 'List files under a folder, recursively, by path',
    input: z.object({
      project: projectParam,
      prefix: z.string().max(inputMax.path).optional().describe('Folder to list ("" or absent = whole storage)'),
      cursor: z.string().max(inputMax.id).optional(),
      limit: z.coerce.number().int().min(1).max(100000).optional(),
    }),
    output: z.object({ files: z.array(FileSchema), nextCursor: z.string().nullable() }),
  }),
  folder: defineRoute({
    id: 'files.folder',
    method: 'GET',
    path: '/projects/{project}/folders',
    summary: 'One folder: its subfolders and a page of its files',
    description:
      "Files in name order (then ID), a page at a time: pass the answer's nextCursor (opaque; null on the last page) to get the next one. Paging is by key, so a file added or removed between two pages never makes another appear twice or go missing. Subfolders come with the first page only. Without fields=full the files come without sha256 and metadata.",
    input: z.object({
      project: projectParam,
      folder: z.string().max(inputMax.path).optional().describe('Folder path; "" = root ("Project files")'),
      cursor: z.string().max(inputMax.path).optional().describe('The nextCursor of the previous page of this folder'),
      limit: z.coerce.number().int().min(1).optional().describe('Files per page (default 200, at most STOA_UI_MAX_FILES)'),
      fields: z
        .enum(['list', 'full'])
        .optional()
        .describe('list (the default): what a file list shows, without sha256 and metadata; full: every field of a file'),
    }),
    output: z.object({
      folder: z.string(),
      folders: z.array(FolderSchema),
      files: z.array(FileSchema.partial({ sha256: true, metadata: true })),
      nextCursor: z.string().nullable(),
      total: z.number().int(),
      showMax: z.number().int().describe('The most files of one folder the web UI shows (STOA_UI_MAX_FILES), and the largest page'),
    }),
  }),
  changes: defineRoute({
    id: 'files.changes',
    method: 'GET',
    path: '/projects/{project}/changes',
    summary: 'What changed since a cursor: files written, moved or deleted, oldest first (B7)',
    description:
      "Only changes the caller may read: a move from a place out of sight shows only where the file is now, a move out of sight is a delete. Pass the answer's cursor next time (cursors are opaque: they say nothing of what happened out of sight); with no cursor the feed starts at the beginning. The web UI polls it to show others' changes without a reload.",
    input: z.object({
      project: projectParam,
      cursor: z
        .string()
        .max(inputMax.id)
        .regex(/^([A-Za-z0-9_-]{22}|now)$/, 'cursor must be one an earlier answer gave, or now')
        .optional()
        .describe('The cursor of an earlier answer (absent: from the start; `now`: no changes, only where the feed stands)'),
      limit: z.coerce.number().int().min(1).max(1000).optional().describe('Changes per answer (default 100)'),
    }),
    output: z.object({
      changes: z.array(
        z.object({
          cursor: z.string(),
          kind: z.string(),
          path: z.string(),
          from_path: z.string().nullable(),
          version: z.number().int(),
          size: z.number(),
          at: z.string(),
        }),
      ),
      cursor: z.string(),
    }),
  }),
  tree: defineRoute({
    id: 'files.tree',
    method: 'GET',
    path: '/projects/{project}/folders/tree',
    summary: 'Every folder: those holding files and those created empty',
    input: z.object({ project: projectParam }),
    output: z.array(FolderSchema),
  }),
  statFolder: defineRoute({
    id: 'folders.stat',
    method: 'GET',
    path: '/projects/{project}/folders/stat',
    summary: 'One folder by path (404 when there is none)',
    input: z.object({ project: projectParam, path: z.string().max(inputMax.path).min(1) }),
    output: FolderSchema,
  }),
  createFolder: defineRoute({
    id: 'folders.create',
    method: 'POST',
    path: '/projects/{project}/folders',
    summary: 'Create a folder (and its missing parents); it exists while empty',
    status: 201,
    input: z.object({ project: projectParam, path: z.string().max(inputMax.path).min(1).describe('Folder path, e.g. "reports/2026"') }),
    output: FolderSchema,
  }),
  moveFolder: defineRoute({
    id: 'folders.move',
    method: 'POST',
    path: '/projects/{project}/folders/move',
    summary: 'Move or rename a folder with everything in it (metadata only; never overwrites)',
    input: z.object({
      project: projectParam,
      from: z.string().max(inputMax.path).min(1).describe('Folder to move'),
      to: z.string().max(inputMax.path).describe('New folder path; ending in "/" moves into that folder keeping the name'),
    }),
    output: FolderSchema,
  }),
  deleteFolder: defineRoute({
    id: 'folders.delete',
    method: 'DELETE',
    path: '/projects/{project}/folders',
    summary: 'Delete a folder; with recursive=true, everything in it too, to the trash as one entry',
    input: z.object({
      project: projectParam,
      path: z.string().max(inputMax.path).min(1),
      recursive: z.enum(['true', 'false']).optional().describe('"true": also delete every file below it, with all versions'),
    }),
    output: z.object({ path: z.string(), files: z.number().int().describe('Files deleted'), bytes: z.number().int().describe('Space freed') }),
  }),
  find: defineRoute({
    id: 'files.find',
    method: 'GET',
    path: '/projects/{project}/files/find',
    summary: 'Name search: case-insensitive substring of file names over the whole storage',
    input: z.object({
      project: projectParam,
      q: z.string().max(inputMax.query).describe('Text to find in file names'),
      limit: z.coerce.number().int().min(1).optional(),
    }),
    output: z.object({ files: z.array(FileSchema), truncated: z.boolean() }),
  }),
  stat: defineRoute({
    id: 'files.stat',
    method: 'GET',
    path: '/projects/{project}/files/stat',
    summary: 'Metadata of one file',
    input: z.object({ project: projectParam, path }),
    output: FileSchema,
  }),
  move: defineRoute({
    id: 'files.move',
    errors: ['already_exists'],
    method: 'POST',
    path: '/projects/{project}/files/move',
    summary: 'Rename or move one file (metadata only; never overwrites)',
    input: z.object({
      project: projectParam,
      from: path,
      to: z.string().max(inputMax.path).describe('New full path; ending in "/" moves into that folder keeping the name'),
      expectedVersion,
    }),
    output: FileSchema,
  }),
  remove: defineRoute({
    id: 'files.delete',
    errors: ['precondition_failed'],
    method: 'DELETE',
    path: '/projects/{project}/files',
    summary: 'Delete one file: it goes with its versions to the trash',
    input: z.object({ project: projectParam, path, expectedVersion }),
    output: FileSchema,
  }),
  usage: defineRoute({
    id: 'files.usage',
    method: 'GET',
    path: '/projects/{project}/usage',
    summary: 'Storage used and quota, in bytes',
    input: z.object({ project: projectParam }),
    output: UsageSchema,
  }),
  versions: defineRoute({
    id: 'files.versions',
    method: 'GET',
    path: '/projects/{project}/files/versions',
    summary: 'Versions of a file, newest first',
    input: z.object({ project: projectParam, path }),
    output: z.array(VersionSchema),
  }),
  restore: defineRoute({
    id: 'files.restore',
    errors: ['quota_exceeded'],
    method: 'POST',
    path: '/projects/{project}/files/restore',
    summary: 'Restore an earlier version (saved as a new version)',
    input: z.object({ project: projectParam, path, version: z.coerce.number().int().min(1), expectedVersion }),
    output: FileSchema,
  }),
  upload: defineRoute({
    id: 'files.upload',
    errors: ['quota_exceeded', 'precondition_failed'],
    method: 'PUT',
    path: '/projects/{project}/files/content',
    summary: 'Upload (create or replace) one file; the body is the bytes',
    description:
      'Streams the request body to storage. Replacing an existing file makes a new version of it, at any size. If-Match, If-None-Match and If-Unmodified-Since are honoured (412 precondition_failed). Over STOA_DIRECT_UPLOAD_BYTES, POST /uploads lets the client send the bytes straight to object storage.',
    input: z.object({
      project: projectParam,
      path,
      expectedVersion,
      create: z.enum(['true', 'false']).optional().describe('"true": fail with already_exists if the file exists'),
      metadata: z
        .string()
        .max(8192)
        .optional()
        .describe('Metadata stored with the new version: a JSON object of string values (at most 32 keys, 4 KB), returned with the file'),
      type: z
        .string()
        .max(200)
        .optional()
        .describe(
          "The file's MIME type, checked against its name: the name's own type, or for a name without a known extension one of a few inert types (text, JSON, CSV, PDF, images…)",
        ),
    }),
    output: z.object({ file: FileSchema, created: z.boolean(), previousVersion: z.number().int().nullable() }),
    raw: { request: 'application/octet-stream' },
  }),
  uploadForm: defineRoute({
    id: 'files.uploadForm',
    errors: ['already_exists', 'quota_exceeded'],
    status: 201,
    method: 'POST',
    path: '/projects/{project}/files/upload',
    summary: 'Upload one or many files (multipart/form-data) into a folder, keeping their names',
    input: z.object({ project: projectParam, folder: z.string().max(inputMax.path).optional().describe('Target folder ("" = root)') }),
    output: z.object({ files: z.array(FileSchema) }),
    raw: { request: 'multipart/form-data' },
  }),
  download: defineRoute({
    id: 'files.download',
    errors: ['range_not_satisfiable', 'precondition_failed'],
    method: 'GET',
    path: '/projects/{project}/files/content',
    summary: 'Download a file (always as an attachment); supports Range and ETag',
    description:
      'On object storage the answer is a 302 redirect to a presigned GET of the bytes (valid 5 minutes; Range passes through), unless STOA_S3_REDIRECT_DOWNLOADS=false, redirect=false, or the request carries If-Range (the bucket cannot check this ETag). Rights and an agent’s read limit are checked before either answer.',
    input: z.object({
      project: projectParam,
      path,
      version: z.coerce.number().int().min(1).optional(),
      redirect: z
        .enum(['true', 'false'])
        .optional()
        .describe('"false": send the bytes from this server even on object storage (a page whose script cannot read from the bucket)'),
    }),
    output: z.unknown(),
    raw: { response: 'application/octet-stream' },
  }),
  archive: defineRoute({
    id: 'files.archive',
    method: 'POST',
    path: '/projects/{project}/files/archive',
    summary: 'Download many files as one zip: the paths given, or everything under a folder',
    description:
      'Every file is checked before the first byte is sent (rights, an agent’s limits, that it exists — a path the caller may not see answers like a missing one), so a refusal is a 4xx, never a cut-off zip. At most STOA_ARCHIVE_MAX_FILES files and STOA_ARCHIVE_MAX_BYTES bytes (too_large). Names in the zip are relative to the folder, or to the deepest folder the paths share; text is deflated, the rest stored.',
    input: z.object({
      project: projectParam,
      paths: z.array(z.string().max(inputMax.path).min(1)).max(100000).optional().describe('The files to zip (a path named twice is zipped once)'),
      folder: z.string().max(inputMax.path).optional().describe('Or: every file under this folder ("" = the whole project) the caller may read'),
    }),
    output: z.unknown(),
    raw: { response: 'application/zip' },
  }),
  resolve: defineRoute({
    id: 'files.resolve',
    method: 'GET',
    path: '/projects/{project}/files/resolve',
    summary: "A file's metadata and an expiring URL that opens its bytes (never the bytes)",
    description:
      'By path, or by the file ID, which follows renames and moves. On object storage the URL is a presigned GET; on the local disk a link this server signs, opened without a token until expiresAt. An agent’s read limit applies to the size.',
    input: z.object({
      project: projectParam,
      path: path.optional().describe('File path from the storage root (or give id)'),
      id: z.string().max(inputMax.id).optional().describe('File ID (stable across renames and moves)'),
      version: z.coerce.number().int().min(1).optional().describe('A kept earlier version (default: the current one)'),
      expiresIn: z.coerce.number().int().min(1).max(86400).optional().describe('Seconds the URL stays valid (default 900, at most 86400)'),
    }),
    output: z.object({
      file: FileSchema,
      version: z.number().int().describe('The version the URL opens'),
      url: z
        .string()
        .describe(
          'Opens the bytes as an attachment without a token until expiresAt: absolute on object storage or with STOA_PUBLIC_URL, else below this server (/api/v1/files/signed/…)',
        ),
      expiresAt: z.string().describe('ISO-8601 UTC'),
    }),
  }),
  preview: defineRoute({
    id: 'files.preview',
    errors: ['preview_unavailable'],
    method: 'GET',
    path: '/projects/{project}/files/preview',
    summary: 'Preview content: text (as text/plain), images, PDF; 415/413 problem when there is none',
    input: z.object({
      project: projectParam,
      path,
      info: z.enum(['true', 'false']).optional().describe('"true": return the preview decision as JSON instead of the content'),
    }),
    output: z.unknown(),
    raw: { response: 'text/plain | image/* | application/pdf' },
  }),
  startUpload: defineRoute({
    id: 'uploads.start',
    errors: ['too_large', 'quota_exceeded', 'already_exists', 'version_conflict'],
    method: 'POST',
    path: '/projects/{project}/uploads',
    summary: 'Start a direct upload: reserve space and get where to send the bytes',
    status: 201,
    input: z.object({
      project: projectParam,
      path,
      size: z.number().int().min(0),
      sha256: z.string().max(inputMax.id).optional(),
      parts: z.boolean().optional().describe('Send the bytes in parts that can be retried one by one and resumed after an interruption'),
      partBytes: z
        .number()
        .int()
        .min(1)
        .optional()
        .describe(
          'With parts: ask for parts of at most this many bytes (a store that refused a part as too large); never more than STOA_UPLOAD_PART_BYTES, never under 5 MiB on object storage',
        ),
      expectedVersion: z
        .number()
        .int()
        .min(0)
        .optional()
        .describe('Fail with version_conflict unless the file is at this version (0: does not exist yet), at start and at finish'),
    }),
    output: UploadTicketSchema,
  }),
  uploadStatus: defineRoute({
    id: 'uploads.status',
    method: 'GET',
    path: '/projects/{project}/uploads/{uploadId}',
    summary: 'Where a direct upload stands: its ticket and the parts that arrived (to resume it)',
    input: z.object({ project: projectParam, uploadId: z.string().max(inputMax.id) }),
    output: UploadStatusSchema,
  }),
  uploadParts: defineRoute({
    id: 'uploads.parts',
    method: 'POST',
    path: '/projects/{project}/uploads/{uploadId}/parts',
    summary: 'Where to send parts of a direct upload sent in parts (fresh presigned URLs each time)',
    input: z.object({ project: projectParam, uploadId: z.string().max(inputMax.id), partNumbers: z.array(z.number().int().min(1)).min(1).max(1000) }),
    output: z.object({ parts: z.array(UploadPartTargetSchema) }),
  }),
  sendUploadPart: defineRoute({
    id: 'uploads.sendPart',
    method: 'PUT',
    path: '/projects/{project}/uploads/{uploadId}/parts/{partNumber}',
    summary: 'Send one part of a direct upload (when no presigned URL was given); sending a part again replaces it',
    input: z.object({ project: projectParam, uploadId: z.string().max(inputMax.id), partNumber: z.coerce.number().int().min(1) }),
    output: z.object({ partNumber: z.number().int(), size: z.number().int() }),
    raw: { request: 'application/octet-stream' },
  }),
  partSent: defineRoute({
    id: 'uploads.partSent',
    method: 'POST',
    path: '/projects/{project}/uploads/{uploadId}/parts/{partNumber}',
    summary: 'Report a part sent to its presigned URL, with the ETag object storage answered',
    input: z.object({
      project: projectParam,
      uploadId: z.string().max(inputMax.id),
      partNumber: z.coerce.number().int().min(1),
      etag: z.string().min(1).max(200),
    }),
    output: z.object({ partNumber: z.number().int(), size: z.number().int() }),
  }),
  sendUpload: defineRoute({
    id: 'uploads.send',
    method: 'PUT',
    path: '/projects/{project}/uploads/{uploadId}',
    summary: 'Send the bytes of a direct upload (when no presigned URL was given)',
    input: z.object({ project: projectParam, uploadId: z.string().max(inputMax.id) }),
    output: z.object({ size: z.number().int() }),
    raw: { request: 'application/octet-stream' },
  }),
  finishUpload: defineRoute({
    id: 'uploads.finish',
    errors: ['version_conflict', 'already_exists', 'quota_exceeded', 'precondition_failed'],
    method: 'POST',
    path: '/projects/{project}/uploads/{uploadId}/finish',
    summary: 'Finish a direct upload: verify and commit the file',
    input: z.object({ project: projectParam, uploadId: z.string().max(inputMax.id) }),
    output: FileSchema,
  }),
  abortUpload: defineRoute({
    id: 'uploads.abort',
    method: 'DELETE',
    path: '/projects/{project}/uploads/{uploadId}',
    summary: 'Abort a direct upload and release its reserved space',
    input: z.object({ project: projectParam, uploadId: z.string().max(inputMax.id) }),
    output: OkSchema,
  }),
};
