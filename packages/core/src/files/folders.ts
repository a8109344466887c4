import { StoaError } from '@stoa/contract';
import { ancestorDirs, baseName, dirOf, normalizePath } from '../paths.js';
import { inTx, type Ctx } from '../platform.js';
import { assertCan } from '../policies/can.js';
import { recordAudit } from '../audit/audit.js';
import { assertUnlockedIn } from './locks.js';
import type { FolderEntry } from './list-files.js';
import { tracedChange } from '../operations/agent-gate.js';
import { lockPaths } from './path-locks.js';
import { countChange, fileAmong, folderPath, folderRow, toEntry, type CountChange } from './folder-index.js';

/**
 * Folders are real (F9, F10 and F13 as amended): a folder created on purpose exists while empty, survives a
 * restart and shows in listings and the tree; a folder moves and is deleted as a whole. Whole-folder changes
 * touch metadata only, in one transaction, with one statement per table whatever the number of files.
 */

/**
 * A folder by path, or null when there is none (a file at that path is not a folder).
 *
 * @example
 * await statFolder(ctx, 'reports/2026') // { path: 'reports/2026', name: '2026', fileCount: 3 }
 */
export async function statFolder(ctx: Ctx, input: string): Promise<FolderEntry | null> {
  const path = normalizePath(input, 'folder');
  assertCan(ctx.actor, 'file.read', { kind: 'file', path });
  if (path === '')
    return {
      path: '',
      name: '',
      fileCount: Number(
        (
          await ctx.platform.db.kysely
            .selectFrom('files')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('project_id', '=', ctx.project.id)
            .executeTakeFirstOrThrow()
        ).n,
      ),
    };
  const row = await folderRow(ctx.platform.db.kysely, ctx.project.id, path);
  return row ? toEntry(row) : null;
}

/** Like statFolder, but a missing folder is not_found. */
export async function getFolder(ctx: Ctx, path: string): Promise<FolderEntry> {
  const f = await statFolder(ctx, path);
  if (!f) throw new StoaError('not_found', `folder "${normalizePath(path, 'folder')}" does not exist`);
  return f;
}

/**
 * Creates a folder, and its missing parents, so that it exists while empty. Fails with already_exists when a
 * folder or a file is at that path, and when a parent is a file.
 *
 * @example
 * await createFolder(ctx, { path: 'reports/2026' });
 */
export async function createFolder(ctx: Ctx, input: { path: string; countChange?: CountChange }): Promise<FolderEntry> {
  return tracedChange(
    ctx,
    'folder.create',
    { path: input.path },
    (c) => makeFolder(c, input),
    (f) => ({ path: f.path, text: `Created folder ${f.path}` }),
  );
}

async function makeFolder(ctx: Ctx, input: { path: string; countChange?: CountChange }): Promise<FolderEntry> {
  const path = folderPath(input.path, 'created');
  assertCan(ctx.actor, 'file.write', { kind: 'file', path });
  const chain = [...ancestorDirs(path), path];
  return inTx(ctx.platform, async (trx) => {
    await lockPaths(trx, ctx, [path]);
    const file = await fileAmong(trx, ctx.project.id, chain);
    if (file) throw new StoaError('already_exists', file === path ? `a file "${path}" already exists` : `"${file}" is a file, so it cannot hold a folder`);
    const existing = await folderRow(trx, ctx.project.id, path);
    if (existing) throw new StoaError('already_exists', `folder "${path}" already exists`);
    await assertUnlockedIn(trx, ctx, [{ path, member: true }]);
    await countChange(trx, ctx, input.countChange);
    // A kept folder keeps its parents too: the tree never shows a folder whose parent has vanished.
    for (const d of chain) {
      await trx
        .insertInto('dirs')
        .values({ project_id: ctx.project.id, path: d, parent: dirOf(d), name: baseName(d), file_count: 0, kept: 1 })
        .onConflict((oc) => oc.columns(['project_id', 'path']).doUpdateSet({ kept: 1 }))
        .execute();
    }
    await recordAudit(trx, ctx, { action: 'folder.create', path });
    return { path, name: baseName(path), fileCount: 0 };
  });
}

// A whole folder moves (folder-move.ts) or goes (folder-delete.ts) in one change; its callers find all three here.
export { moveFolder } from './folder-move.js';
export { deleteFolder } from './folder-delete.js';
