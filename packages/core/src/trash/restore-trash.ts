import { StoaError } from '@stoa/contract';
import { ancestorDirs, baseName, dirOf } from '../paths.js';
import { inTx, type Ctx, type Q } from '../platform.js';
import { assertCan, can } from '../policies/can.js';
import { recordAudit } from '../audit/audit.js';
import { runFileChangeHooks } from '../hooks.js';
import { sqlBatches } from '../db-batches.js';
import { countAgentChange, tracedChange } from '../operations/agent-gate.js';
import { addToDirs } from '../files/dirs.js';
import { addToChain } from '../files/folder-index.js';
import { lockPaths } from '../files/path-locks.js';
import { assertUnlockedIn } from '../files/locks.js';
import { chargeUsage } from '../files/usage-counter.js';
import { dropContents } from './trash-rows.js';

export interface RestoredItem {
  id: string;
  kind: 'file' | 'folder';
  /** Where it was deleted from. */
  from: string;
  /** Where it is now: `from`, or beside it ("report (restored).md") when that path was taken. */
  path: string;
  beside: boolean;
  files: number;
  size: number;
  text: string;
}

/**
 * Puts a trash entry back (issue 29): the file, or the folder with everything it held, returns with all its
 * versions. It never overwrites: when its path is taken it comes back beside it (`report (restored).md`,
 * `report (restored 2).md` …) and says where; a parent folder that is gone is made again. Its size counts against
 * the quota again (quota_exceeded when it does not fit, and it stays in the trash). Of two restores of one entry
 * at once exactly one succeeds; the other answers not_found.
 *
 * @example
 * await restoreFromTrash(ctx, { id: 'trs_…' }) // { path: 'report (restored).md', beside: true, … }
 */
export async function restoreFromTrash(ctx: Ctx, input: { id: string }): Promise<RestoredItem> {
  return tracedChange(
    ctx,
    'trash.restore',
    { id: input.id },
    (c) => restore(c, input.id),
    (r) => ({ path: r.path, text: r.text }),
  );
}

async function restore(ctx: Ctx, id: string): Promise<RestoredItem> {
  const pid = ctx.project.id;
  const seen = await ctx.platform.db.kysely.selectFrom('trash_entries').select('path').where('id', '=', id).where('project_id', '=', pid).executeTakeFirst();
  // An entry outside what an agent may read is as unknown to it as one of another volume.
  if (!seen || can(ctx.actor, 'file.read', { kind: 'file', path: seen.path })) throw new StoaError('not_found', `trash entry "${id}" does not exist`);
  assertCan(ctx.actor, 'file.write', { kind: 'file', path: seen.path });
  return inTx(ctx.platform, async (trx) => {
    // The claim: one conditional delete, so a second restore of the entry waits for this one and finds nothing.
    const e = await trx.deleteFrom('trash_entries').where('id', '=', id).where('project_id', '=', pid).returningAll().executeTakeFirst();
    if (!e) throw new StoaError('not_found', `trash entry "${id}" does not exist (it was restored or purged meanwhile)`);
    const kind = e.kind === 'folder' ? 'folder' : 'file';
    const target = await freePath(trx, ctx, e.path, kind);
    assertCan(ctx.actor, 'file.write', { kind: 'file', path: target });
    await assertUnlockedIn(trx, ctx, [{ path: target, member: true, subtree: kind === 'folder' }]);
    await countAgentChange(trx, ctx);
    const moved = (p: string) => target + p.slice(e.path.length);
    const files = await trx.selectFrom('trash_files').selectAll().where('entry_id', '=', id).orderBy('path').execute();
    const pathOf = new Map<string, string>();
    for (const { entry_id: _, ...f } of files) {
      const path = moved(f.path);
      pathOf.set(f.id, path);
      await addToDirs(trx, pid, path);
      await trx
        .insertInto('files')
        .values({ ...f, path, dir: dirOf(path), name: baseName(path), name_lower: baseName(path).toLowerCase() })
        .execute();
    }
    const versions = await trx.selectFrom('trash_versions').selectAll().where('entry_id', '=', id).execute();
    for (const batch of sqlBatches(ctx.platform.db.dialect, versions, 16)) {
      if (batch.length === 0) continue;
      await trx
        .insertInto('file_versions')
        .values(batch.map(({ entry_id: _, ...v }) => ({ ...v, path: pathOf.get(v.file_id) ?? moved(v.path) })))
        .execute();
    }
    for (const rel of JSON.parse(e.kept_dirs) as string[]) {
      const folder = rel === '' ? target : `${target}/${rel}`;
      await addToChain(trx, pid, ancestorDirs(folder), 0, 0);
      await addToChain(trx, pid, [folder], 0, 1);
    }
    await dropContents(trx, id);
    const at = ctx.platform.clock().toISOString();
    for (const f of files) {
      const path = pathOf.get(f.id)!;
      await runFileChangeHooks(trx, ctx, {
        kind: 'written',
        projectId: pid,
        fileId: f.id,
        path,
        mime: f.mime,
        size: Number(f.size),
        version: f.version,
        at,
      });
    }
    const size = Number(e.size);
    await recordAudit(trx, ctx, { action: 'trash.restore', path: target, from: e.path, size, details: { trash: id, files: Number(e.files) } });
    // Last, as in commitVersion: the project's row is locked for one statement and the commit.
    await chargeUsage(trx, ctx, size);
    const beside = target !== e.path;
    return {
      id,
      kind,
      from: e.path,
      path: target,
      beside,
      files: Number(e.files),
      size,
      text: beside ? `Restored ${e.path} from the trash as ${target} (${e.path} is taken)` : `Restored ${target} from the trash`,
    };
  });
}

/** The first free path of `report.md`, `report (restored).md`, `report (restored 2).md` …, locked for the restore. */
async function freePath(trx: Q, ctx: Ctx, path: string, kind: 'file' | 'folder'): Promise<string> {
  for (let n = 1; n <= 1000; n++) {
    const candidate = n === 1 ? path : besideName(path, kind, n - 1);
    await lockPaths(trx, ctx, [candidate]);
    const file = await trx.selectFrom('files').select('id').where('project_id', '=', ctx.project.id).where('path', '=', candidate).executeTakeFirst();
    const folder = await trx.selectFrom('dirs').select('path').where('project_id', '=', ctx.project.id).where('path', '=', candidate).executeTakeFirst();
    if (!file && !folder) return candidate;
  }
  throw new StoaError('already_exists', `"${path}" and the names beside it are all taken; move one of them and restore again`);
}

function besideName(path: string, kind: 'file' | 'folder', n: number): string {
  const name = baseName(path);
  const dot = kind === 'file' ? name.lastIndexOf('.') : -1;
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  const restored = `${stem} (restored${n > 1 ? ` ${n}` : ''})${ext}`;
  const dir = dirOf(path);
  return dir === '' ? restored : `${dir}/${restored}`;
}
