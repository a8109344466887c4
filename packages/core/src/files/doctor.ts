import { sql } from 'kysely';
import { StoaError } from '@stoa/contract';
import { isInstallationAdminPrincipal, type Principal } from '../projects/tokens.js';
import { inTx, type Platform, type Q } from '../platform.js';
import { housekeepingOf } from '../config.js';
import { ancestorDirs, baseName, dirOf } from '../paths.js';
import { blobReferences, sweepBlobs } from './sweeper.js';

export type DriftKind = 'usage' | 'reserved' | 'folders' | 'missing_blob' | 'orphaned_blobs';

export interface DriftFinding {
  kind: DriftKind;
  /** Project name, when the finding belongs to one project. */
  project: string | null;
  detail: string;
  /** True when `--repair` fixed it in this run. */
  repaired: boolean;
}

export interface DoctorReport {
  ok: boolean;
  /** Projects and volumes (R1) are counted apart: a volume is not a project a person made. */
  checked: { projects: number; volumes: number; files: number; versions: number; storedBlobs: number };
  findings: DriftFinding[];
  /**
   * Unreferenced bytes still inside the sweep's grace period (left by deletes, or an upload about to commit):
   * not drift — the sweep collects them once the period is over.
   */
  inGrace: { blobs: number; bytes: number; graceSeconds: number };
  /** What `--repair` changed, one line each; empty when it changed nothing (or was not asked for). */
  repairs: string[];
}

/** Rows whose bytes are gone are listed up to this many; the rest are counted. */
const MAX_LISTED = 50;

/**
 * Checks what must hold between the database and the blob store, and with `repair` fixes what can be fixed
 * (issue 9 "Housekeeping"): each project's usage equals the sum of its file sizes and its reservation the sum of
 * its uploads in flight; the folder index matches the files; every file and version row has its bytes; no bytes
 * lie in the store that nothing references. Bytes that are gone cannot be made again: those rows are reported,
 * never deleted (history is never dropped). Orphaned bytes are collected only past the sweep's grace period,
 * so an upload in flight is never touched; those still inside it are reported apart (`inGrace`), not as drift.
 * Repair changes derived data only (counters, the folder index, unreferenced bytes): a folder a person made
 * (`kept`, issue 32) is never removed, and `repairs` says what was changed. Installation administrators only.
 *
 * @example
 * const report = await runDoctor(platform, principal, { repair: true });
 */
export async function runDoctor(platform: Platform, principal: Principal, opts: { repair?: boolean } = {}): Promise<DoctorReport> {
  if (!isInstallationAdminPrincipal(principal)) throw new StoaError('forbidden', 'only an installation administrator may run the doctor');
  const repair = !!opts.repair;
  const db = platform.db.kysely;
  const findings: DriftFinding[] = [];
  const repairs: string[] = [];
  const projects = await db.selectFrom('projects').select(['id', 'name', 'catalog', 'used_bytes', 'reserved_bytes']).orderBy('name').execute();
  for (const p of projects) {
    const sum = Number(
      (
        await db
          .selectFrom('files')
          .select(sql<number>`coalesce(sum(size), 0)`.as('n'))
          .where('project_id', '=', p.id)
          .executeTakeFirstOrThrow()
      ).n,
    );
    if (Number(p.used_bytes) !== sum) {
      if (repair) {
        await db
          .updateTable('projects')
          .set({ used_bytes: sql`(select coalesce(sum(size), 0) from files where files.project_id = projects.id)` })
          .where('id', '=', p.id)
          .execute();
        repairs.push(`[${p.name}] usage set to ${sum} bytes (was ${p.used_bytes})`);
      }
      findings.push({ kind: 'usage', project: p.name, detail: `usage counts ${p.used_bytes} bytes; the files add up to ${sum}`, repaired: repair });
    }
    const pending = Number(
      (
        await db
          .selectFrom('upload_reservations')
          .select(sql<number>`coalesce(sum(size), 0)`.as('n'))
          .where('project_id', '=', p.id)
          .where('status', 'in', ['pending', 'receiving'])
          .executeTakeFirstOrThrow()
      ).n,
    );
    if (Number(p.reserved_bytes) !== pending) {
      if (repair) {
        await db
          .updateTable('projects')
          .set({
            reserved_bytes: sql`(select coalesce(sum(size), 0) from upload_reservations where upload_reservations.project_id = projects.id and status in ('pending', 'receiving'))`,
          })
          .where('id', '=', p.id)
          .execute();
        repairs.push(`[${p.name}] reservation set to ${pending} bytes (was ${p.reserved_bytes})`);
      }
      findings.push({ kind: 'reserved', project: p.name, detail: `${p.reserved_bytes} bytes reserved; uploads in flight hold ${pending}`, repaired: repair });
    }
    const folders = await folderDrift(platform, p.id);
    if (folders > 0) {
      if (repair) {
        const fixed = await rebuildFolders(platform, p.id);
        repairs.push(`[${p.name}] folder index: ${describeFolderFix(fixed)}`);
      }
      findings.push({ kind: 'folders', project: p.name, detail: `${folders} folder entries differ from the files`, repaired: repair });
    }
  }

  const names = new Map(projects.map((p) => [p.id, p.name]));
  const files = await db.selectFrom('files').select(['project_id', 'path', 'version', 'blob_key']).execute();
  const versions = await db.selectFrom('file_versions').select(['project_id', 'path', 'version', 'blob_key']).execute();
  const present = new Map<string, boolean>();
  const has = async (key: string) => {
    if (!present.has(key)) present.set(key, (await platform.blobs.stat(key)) !== null);
    return present.get(key)!;
  };
  let missing = 0;
  const seen = new Set<string>();
  for (const row of [...files, ...versions]) {
    // A file's row and its current version's row name the same bytes: report them once.
    const id = `${row.project_id}\u0001${row.path}\u0001${row.version}`;
    if (seen.has(id)) continue;
    seen.add(id);
    if (await has(row.blob_key)) continue;
    missing++;
    if (missing <= MAX_LISTED) {
      findings.push({
        kind: 'missing_blob',
        project: names.get(row.project_id) ?? null,
        detail: `"${row.path}" version ${row.version}: its bytes are missing from storage`,
        repaired: false,
      });
    }
  }
  if (missing > MAX_LISTED)
    findings.push({ kind: 'missing_blob', project: null, detail: `${missing - MAX_LISTED} more rows lack their bytes`, repaired: false });

  const referenced = new Set<string>();
  for (const ref of blobReferences) {
    const rows = await sql<{ k: string }>`select ${sql.ref(ref.column)} as k from ${sql.table(ref.table)}`.execute(db);
    for (const r of rows.rows) referenced.add(r.k);
  }
  const graceSeconds = housekeepingOf(platform.config).sweepGraceSeconds;
  const cutoff = new Date(platform.clock().getTime() - graceSeconds * 1000).toISOString();
  let stored = 0;
  const orphans: Array<{ key: string; size: number }> = [];
  for await (const key of platform.blobs.list()) {
    stored++;
    if (referenced.has(key)) continue;
    orphans.push({ key, size: (await platform.blobs.stat(key))?.size ?? 0 });
  }
  // An unreferenced blob the sweep knows (it has a `blobs` row) waits out the grace period from that row's
  // stamp; one it does not know is bytes whose commit never happened — drift, until a sweep adopts it.
  const stamps = new Map<string, string>();
  for (let i = 0; i < orphans.length; i += 500) {
    const keys = orphans.slice(i, i + 500).map((o) => o.key);
    for (const r of await db.selectFrom('blobs').select(['key', 'created_at']).where('key', 'in', keys).execute()) stamps.set(r.key, r.created_at);
  }
  const waiting = orphans.filter((o) => stamps.has(o.key) && stamps.get(o.key)! >= cutoff);
  const overdue = orphans.filter((o) => !waiting.includes(o));
  const inGrace = { blobs: waiting.length, bytes: sum(waiting), graceSeconds };
  if (overdue.length > 0) {
    const unknown = overdue.filter((o) => !stamps.has(o.key)).length;
    let detail =
      `${overdue.length} stored blobs (${sum(overdue)} bytes) are referenced by nothing` +
      (unknown > 0 ? `; ${unknown} of them were never committed` : '') +
      `; the sweep collects them ${graceSeconds} seconds after it first sees them`;
    let repaired = false;
    if (repair) {
      const swept = await sweepBlobs(platform, { graceMs: graceSeconds * 1000 });
      // Counted from the store itself: the sweep also drops rows of bytes already gone. Bytes seen for the
      // first time now start their grace period (an upload may be about to commit them).
      let left = 0;
      for (const o of overdue) if ((await platform.blobs.stat(o.key)) !== null) left++;
      const collected = overdue.length - left;
      repaired = left === 0;
      if (collected > 0) repairs.push(`collected ${collected} unreferenced blobs past the ${graceSeconds}-second grace period`);
      if (swept.adopted > 0)
        repairs.push(`${swept.adopted} never-committed blobs start their ${graceSeconds}-second grace period now; a later sweep collects them`);
      detail += `; ${collected} collected` + (left > 0 ? `, ${left} wait for the grace period` : '');
    }
    findings.push({ kind: 'orphaned_blobs', project: null, detail, repaired });
  }
  const unrepaired = findings.some((f) => !f.repaired);
  const volumes = projects.filter((p) => p.catalog !== 'projects').length;
  return {
    ok: !unrepaired,
    checked: { projects: projects.length - volumes, volumes, files: files.length, versions: versions.length, storedBlobs: stored },
    findings,
    inGrace,
    repairs,
  };
}

function sum(blobs: Array<{ size: number }>): number {
  return blobs.reduce((n, b) => n + b.size, 0);
}

interface FolderRow {
  path: string;
  file_count: number;
  kept: number;
}

/**
 * The folder index the files and the kept folders imply: each folder's file count (recursive), for every
 * ancestor of a file and every folder a person made (kept, with its parents) — an empty kept folder is a real
 * folder with 0 files, not drift.
 */
function expectedFolders(files: Array<{ path: string }>, rows: FolderRow[]): Map<string, number> {
  const want = new Map<string, number>();
  for (const f of files) for (const d of ancestorDirs(f.path)) want.set(d, (want.get(d) ?? 0) + 1);
  for (const r of rows) if (Number(r.kept)) for (const d of [...ancestorDirs(r.path), r.path]) if (!want.has(d)) want.set(d, 0);
  return want;
}

async function folderState(q: Q, projectId: string): Promise<{ want: Map<string, number>; rows: FolderRow[] }> {
  const files = await q.selectFrom('files').select('path').where('project_id', '=', projectId).execute();
  const rows = await q.selectFrom('dirs').select(['path', 'file_count', 'kept']).where('project_id', '=', projectId).execute();
  return { want: expectedFolders(files, rows), rows };
}

async function folderDrift(platform: Platform, projectId: string): Promise<number> {
  const { want, rows } = await folderState(platform.db.kysely, projectId);
  let drift = 0;
  for (const r of rows) if (want.get(r.path) !== Number(r.file_count)) drift++;
  const have = new Set(rows.map((r) => r.path));
  for (const d of want.keys()) if (!have.has(d)) drift++;
  return drift;
}

interface FolderFix {
  recounted: number;
  added: number;
  removed: number;
}

/** Brings the folder index in line with the files; kept folders stay, whatever they hold. */
async function rebuildFolders(platform: Platform, projectId: string): Promise<FolderFix> {
  return inTx(platform, async (trx) => {
    const { want, rows } = await folderState(trx, projectId);
    const fix: FolderFix = { recounted: 0, added: 0, removed: 0 };
    const have = new Set(rows.map((r) => r.path));
    for (const r of rows) {
      const count = want.get(r.path);
      if (count === undefined) {
        // Only a folder nothing implies and nobody made: an index entry left behind, never a person's folder.
        await trx.deleteFrom('dirs').where('project_id', '=', projectId).where('path', '=', r.path).where('kept', '=', 0).execute();
        fix.removed++;
      } else if (count !== Number(r.file_count)) {
        await trx.updateTable('dirs').set({ file_count: count }).where('project_id', '=', projectId).where('path', '=', r.path).execute();
        fix.recounted++;
      }
    }
    for (const [path, count] of want) {
      if (have.has(path)) continue;
      await trx
        .insertInto('dirs')
        .values({ project_id: projectId, path, parent: dirOf(path), name: baseName(path), file_count: count })
        .execute();
      fix.added++;
    }
    return fix;
  });
}

function describeFolderFix(f: FolderFix): string {
  const parts = [
    f.recounted && `${f.recounted} file counts corrected`,
    f.added && `${f.added} missing entries added`,
    f.removed && `${f.removed} entries no file or kept folder implies removed`,
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : 'nothing to change';
}
