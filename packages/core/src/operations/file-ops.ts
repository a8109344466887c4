import { filesRoutes, lockRoutes, StoaError } from '@stoa/contract';
import { normalizePath } from '../paths.js';
import { putFile } from '../files/put-file.js';
import { downloadFile, statFile } from '../files/read-file.js';
import { archiveFiles } from '../files/archive.js';
import { resolveFile } from '../files/file-links.js';
import { declaredType, fileMetadata } from '../files/file-metadata.js';
import { deleteFile } from '../files/delete-file.js';
import { moveFile } from '../files/move-file.js';
import { createFolder, deleteFolder, getFolder, moveFolder } from '../files/folders.js';
import { findFiles, folderTree, listFilesRecursive, listFolder } from '../files/list-files.js';
import { listVersions, restoreVersion } from '../files/versions.js';
import { usage } from '../files/usage.js';
import { changesAfter } from '../files/file-changes.js';
import { previewFile } from '../files/preview.js';
import { finishUpload } from '../files/direct-upload.js';
import { abortUpload, receiveUpload, startUpload } from '../files/upload-reservation.js';
import { receiveUploadPart, reportUploadPart, uploadPartTargets, uploadStatus } from '../files/upload-parts.js';
import type { FileInfo } from '../files/file-info.js';
import { listLocks, releaseLock, type LockTarget } from '../files/locks.js';
import { changes, fileChange, projectOperation, rawOperation, reads, type Operation } from './operation.js';

const r = filesRoutes;

/** What a change touches, for the runner's lock step (the mutator checks again in its transaction). */
const at =
  (arg: string, more: Omit<LockTarget, 'path'> = { member: true }) =>
  (_ctx: unknown, i: Record<string, unknown>): LockTarget[] =>
    typeof i[arg] === 'string' ? [{ path: i[arg], ...more }] : [];
const both =
  (from: string, to: string, subtree: boolean) =>
  (_ctx: unknown, i: Record<string, unknown>): LockTarget[] => [...at(from, { member: true, subtree })(_ctx, i), ...at(to)(_ctx, i)];

function needs<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new StoaError('bad_request', `${what} is required`);
  return value;
}

/** Files (F1–F15). The raw ones stream: the door hands over the request body, the form's files or the range. */
export const fileOperations: Operation[] = [
  projectOperation(r.list, reads('file.read'), (ctx, i) => listFilesRecursive(ctx, { prefix: i.prefix, cursor: i.cursor, limit: i.limit })),
  projectOperation(r.folder, reads('file.read'), (ctx, i) => listFolder(ctx, { folder: i.folder, cursor: i.cursor, limit: i.limit, fields: i.fields })),
  projectOperation(r.tree, reads('file.read'), (ctx) => folderTree(ctx)),
  projectOperation(r.changes, reads('file.read'), (ctx, i) => changesAfter(ctx, { cursor: i.cursor, limit: i.limit })),
  projectOperation(r.find, reads('file.read'), (ctx, i) => findFiles(ctx, { text: i.q, limit: i.limit })),
  projectOperation(r.stat, reads('file.read'), (ctx, i) => statFile(ctx, i.path)),
  projectOperation(r.versions, reads('file.read'), (ctx, i) => listVersions(ctx, i.path)),
  projectOperation(r.usage, reads('file.read'), (ctx) => usage(ctx)),
  projectOperation(r.move, fileChange('file.move', 'file.move', both('from', 'to', false)), (ctx, i) =>
    moveFile(ctx, { from: i.from, to: i.to, expectedVersion: i.expectedVersion }),
  ),
  // Folders are real (F9, F10, F13 as amended): a whole folder moves or goes in one change.
  projectOperation(r.statFolder, reads('file.read'), (ctx, i) => getFolder(ctx, i.path)),
  projectOperation(r.createFolder, fileChange('file.write', 'folder.create', at('path')), (ctx, i) => createFolder(ctx, { path: i.path })),
  projectOperation(r.moveFolder, fileChange('file.move', 'folder.move', both('from', 'to', true)), (ctx, i) => moveFolder(ctx, { from: i.from, to: i.to })),
  projectOperation(r.deleteFolder, fileChange('file.delete', 'folder.delete', at('path', { member: true, subtree: true })), (ctx, i) =>
    deleteFolder(ctx, { path: i.path, recursive: i.recursive === 'true' }),
  ),
  projectOperation(r.remove, fileChange('file.delete', 'file.delete', at('path')), (ctx, i) =>
    deleteFile(ctx, { path: i.path, expectedVersion: i.expectedVersion }),
  ),
  projectOperation(r.restore, fileChange('file.write', 'file.restore', at('path', {})), (ctx, i) =>
    restoreVersion(ctx, { path: i.path, version: i.version, expectedVersion: i.expectedVersion }),
  ),
  // A direct upload counts as one change, when it is finished; its size is checked against the agent's cap at the start.
  projectOperation(r.startUpload, changes('file.write', null, 'none'), (ctx, i) =>
    startUpload(ctx, { path: i.path, size: i.size, sha256: i.sha256, parts: i.parts, partBytes: i.partBytes, expectedVersion: i.expectedVersion }),
  ),
  rawOperation(r.sendUpload, changes('file.write', null, 'none'), (ctx, i) => receiveUpload(ctx, i.uploadId, needs(i.source, 'the request body'))),
  // Uploads sent in parts (resumable): only their sender sees or feeds them, like the rest of a direct upload.
  projectOperation(r.uploadStatus, reads('file.write'), (ctx, i) => uploadStatus(ctx, i.uploadId)),
  projectOperation(r.uploadParts, changes('file.write', null, 'none'), async (ctx, i) => ({ parts: await uploadPartTargets(ctx, i.uploadId, i.partNumbers) })),
  rawOperation(r.sendUploadPart, changes('file.write', null, 'none'), (ctx, i) =>
    receiveUploadPart(ctx, i.uploadId, i.partNumber, needs(i.source, 'the request body')),
  ),
  projectOperation(r.partSent, changes('file.write', null, 'none'), (ctx, i) => reportUploadPart(ctx, i.uploadId, i.partNumber, i.etag)),
  projectOperation(r.finishUpload, { ...changes('file.write', 'file.upload'), window: 'mutator' }, (ctx, i) => finishUpload(ctx, i.uploadId)),
  projectOperation(r.abortUpload, changes('file.write', null, 'none'), async (ctx, i) => {
    await abortUpload(ctx, i.uploadId);
    return { ok: true as const };
  }),
  rawOperation(r.upload, fileChange('file.write', 'file.upload', at('path')), (ctx, i) =>
    putFile(ctx, {
      path: i.path,
      source: needs(i.source, 'the request body'),
      signal: i.signal,
      expectedVersion: i.expectedVersion,
      mode: i.create === 'true' ? 'create' : 'replace',
      metadata: fileMetadata(i.metadata),
      mime: declaredType(normalizePath(i.path), i.type),
    }),
  ),
  rawOperation(r.uploadForm, { ...changes('file.write', 'file.upload'), window: 'mutator' }, async (ctx, i) => {
    // Each part is stored as it arrives; a part that fails stops the form with its error, the files before it stay.
    const folder = normalizePath(i.folder ?? '', 'folder');
    const files: FileInfo[] = [];
    for await (const part of needs(i.parts, 'the form')) {
      const name = part.filename.normalize('NFC');
      files.push((await putFile(ctx, { path: folder ? `${folder}/${name}` : name, source: part.file })).file);
    }
    if (files.length === 0) throw new StoaError('bad_request', 'no file parts in the form');
    return { files };
  }),
  projectOperation(r.resolve, { ...reads('file.read'), agent: 'read' }, (ctx, i) =>
    resolveFile(ctx, { path: i.path, id: i.id, version: i.version, expiresIn: i.expiresIn }),
  ),
  rawOperation(r.download, { ...reads('file.read'), agent: 'read' }, (ctx, i) =>
    downloadFile(ctx, i.path, { version: i.version, range: i.range, redirect: i.mayRedirect === true && i.redirect !== 'false' }),
  ),
  rawOperation(r.archive, { ...reads('file.read'), agent: 'read' }, (ctx, i) => archiveFiles(ctx, { paths: i.paths, folder: i.folder })),
  rawOperation(r.preview, { ...reads('file.read'), agent: 'read' }, (ctx, i) => previewFile(ctx, i.path, { open: i.info !== 'true' })),
  // Locks (issue 26): every member sees who holds what; holders and admins release.
  projectOperation(lockRoutes.list, reads('file.read'), (ctx) => listLocks(ctx)),
  projectOperation(lockRoutes.release, changes('file.read', 'lock.release', 'none'), (ctx, i) => releaseLock(ctx, { token: i.token })),
];
