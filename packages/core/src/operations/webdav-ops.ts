import { copyFile, moveOver } from '../files/copy-file.js';
import { deadPropsOf, patchDeadProps, setFileModified, type DeadPropChange } from '../files/dead-props.js';
import { statFolder } from '../files/folders.js';
import { legacyDigestsOf } from '../files/legacy-digests.js';
import { assertUnlocked, lockPath, locksAround, refreshLocks, unlockPath, type LockTarget } from '../files/locks.js';
import type { FileInfo } from '../files/file-info.js';
import { changes, doorOperation, fileChange, reads, type DoorOperation } from './operation.js';

type Paths = { from: string; to: string };
const fromTo =
  (subtree: boolean) =>
  (_ctx: unknown, i: Paths): LockTarget[] => [
    { path: i.from, member: true, subtree },
    { path: i.to, member: true },
  ];

/**
 * WebDAV's methods beyond the file routes (docs/webdav.md): the door maps PROPFIND, PUT, DELETE, MKCOL and GET to
 * the file operations of the table and these to the rest, all through the runner.
 */
export const webdavOperations: readonly DoorOperation[] = [
  doorOperation('webdav.statFolder', 'What a folder holds, or nothing', reads('file.read'), (ctx, i: { path: string }) => statFolder(ctx, i.path)),
  doorOperation('webdav.locks', 'Locks at, above or below a path', reads('file.read'), (ctx, i: { path: string }) => locksAround(ctx, i.path)),
  // The If header's tokens are checked before a change that spans several operations (a folder's COPY or MOVE).
  doorOperation(
    'webdav.checkLocks',
    'Check that the request holds the locks in the way',
    reads('file.read'),
    (ctx, i: { targets: LockTarget[]; tokens?: string[] }) => assertUnlocked(ctx, i.targets, i.tokens ?? ctx.lockTokens),
  ),
  doorOperation('webdav.lock', 'Take a lock', changes('file.write', null, 'none'), (ctx, i: Parameters<typeof lockPath>[1]) => lockPath(ctx, i)),
  doorOperation('webdav.refreshLocks', 'Refresh locks', changes('file.write', null, 'none'), (ctx, i: Parameters<typeof refreshLocks>[1]) =>
    refreshLocks(ctx, i),
  ),
  doorOperation('webdav.unlock', 'Release a lock', changes('file.write', null, 'none'), async (ctx, i: { path: string; token: string }) => {
    await unlockPath(ctx, i);
    return { ok: true as const };
  }),
  doorOperation('webdav.props', 'Dead properties of files', reads('file.read'), (ctx, i: { fileIds: string[] }) => deadPropsOf(ctx, i.fileIds)),
  doorOperation('webdav.digests', 'Legacy digests of files', reads('file.read'), (ctx, i: { files: FileInfo[] }) => legacyDigestsOf(ctx, i.files)),
  doorOperation(
    'webdav.patchProps',
    'Set or remove dead properties',
    { ...changes('file.write', null, 'none'), touches: (_ctx, i: { path: string }) => [{ path: i.path }] },
    async (ctx, i: { path: string; changes: DeadPropChange[] }) => {
      await patchDeadProps(ctx, i.path, i.changes);
      return { ok: true as const };
    },
  ),
  doorOperation(
    'webdav.setModified',
    'Set a file’s modification time',
    { ...changes('file.write', null, 'none'), touches: (_ctx, i: { path: string }) => [{ path: i.path }] },
    async (ctx, i: { path: string; modified: Date }) => {
      await setFileModified(ctx, i);
      return { ok: true as const };
    },
  ),
  doorOperation(
    'webdav.copy',
    'Copy a file',
    fileChange('file.write', 'file.upload', (_ctx, i: Paths) => [{ path: i.to, member: true }]),
    (ctx, i: Paths) => copyFile(ctx, { ...i, overwrite: true }),
  ),
  doorOperation(
    'webdav.moveOver',
    'Move a file onto another, which becomes its new version',
    fileChange('file.move', 'file.move', fromTo(false)),
    (ctx, i: Paths) => moveOver(ctx, i),
  ),
];
