import { sql } from 'kysely';
import { StoaError } from '@stoa/contract';
import { isInstallationAdminPrincipal, type Principal } from '../projects/tokens.js';
import { inTx, type Platform } from '../platform.js';
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
  checked: { projects: number; files: number; versions: number; storedBlobs: number };
  findings: DriftFinding[];
}

/** Rows whose bytes are gone are listed up to this many; the rest are counted. */
const MAX_LISTED = 50;

/**
 * Checks what must hold between the database and the blob store, and with `repair` fixes what can be fixed
 * (issue 9 "Housekeeping"): each project's usage equals the sum of its file sizes and its reservation the sum of
 * its uploads in flight; the folder index matches the files; every file and version row has its bytes; no bytes
 * lie in the store that nothing references. Bytes that are gone cannot be made again: those rows are reported,
 * never deleted (history is never dropped). Orphaned bytes are collected only past the sweep's grace period,
 * so an upload in flight is never touched. Installation administrators only.
 *
 * @example
 * const report = await runDoctor(platform, principal, { repair: true });
 */
export async function runDoctor(platform: Platform, principal: Principal, opts: { repair?: boolean } = {}): Promise<DoctorReport> {
  if (!isInstallationAdminPrincipal(principal)) throw new StoaError('forbidden', 'only an installation administrator may run the doctor');
  const repair = !!opts.repair;
  const db = platform.db.kysely;
  const findings: DriftFinding[] = [];
  const projects = await db.selectFrom('projects').select(['id', 'name', 'used_bytes', 'reserved_bytes']).orderBy('name').execute();
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
      }
      findings.push({ kind: 'reserved', project: p.name, detail: `${p.reserved_bytes} bytes reserved; uploads in flight hold ${pending}`, repaired: repair });
    }
    const folders = await folderDrift(platform, p.id);
    if (folders > 0) {
      if (repair) await rebuildFolders(platform, p.id);
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
  let stored = 0;
  let orphaned = 0;
  let orphanedBytes = 0;
  for await (const key of platform.blobs.list()) {
    stored++;
    if (referenced.has(key)) continue;
    orphaned++;
    orphanedBytes += (await platform.blobs.stat(key))?.size ?? 0;
  }
  if (orphaned > 0) {
    const graceMs = housekeepingOf(platform.config).sweepGraceSeconds * 1000;
    let detail = `${orphaned} stored blobs (${orphanedBytes} bytes) are referenced by nothing`;
    if (repair) {
      const swept = await sweepBlobs(platform, { graceMs });
      detail += `; ${swept.deleted} older than the ${graceMs / 1000}-second grace period were collected, the rest wait for it`;
    }
    findings.push({ kind: 'orphaned_blobs', project: null, detail, repaired: repair });
  }
  const unrepaired = findings.some((f) => !f.repaired);
  return { ok: !unrepaired, checked: { projects: projects.length, files: files.length, versions: versions.length, storedBlobs: stored }, findings };
}

async function expectedFolders(platform: Platform, projectId: string): Promise<Map<string, number>> {
  const files = await platform.db.kysely.selectFrom('files').select('path').where('project_id', '=', projectId).execute();
  const want = new Map<string, number>();
  for (const f of files) for (const d of ancestorDirs(f.path)) want.set(d, (want.get(d) ?? 0) + 1);
  return want;
}

async function folderDrift(platform: Platform, projectId: string): Promise<number> {
  const want = await expectedFolders(platform, projectId);
  const rows = await platform.db.kysely.selectFrom('dirs').select(['path', 'file_count']).where('project_id', '=', projectId).execute();
  let drift = 0;
  for (const r of rows) if (want.get(r.path) !== Number(r.file_count)) drift++;
  const have = new Set(rows.map((r) => r.path));
  for (const d of want.keys()) if (!have.has(d)) drift++;
  return drift;
}

async function rebuildFolders(platform: Platform, projectId: string): Promise<void> {
  await inTx(platform, async (trx) => {
    const files = await trx.selectFrom('files').select('path').where('project_id', '=', projectId).execute();
    const want = new Map<string, number>();
    for (const f of files) for (const d of ancestorDirs(f.path)) want.set(d, (want.get(d) ?? 0) + 1);
    await trx.deleteFrom('dirs').where('project_id', '=', projectId).execute();
    for (const [path, count] of want) {
      await trx
        .insertInto('dirs')
        .values({ project_id: projectId, path, parent: dirOf(path), name: baseName(path), file_count: count })
        .execute();
    }
  });
}
