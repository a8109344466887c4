import type { Ctx, Q } from '../platform.js';
import { sqlBatches } from '../db-batches.js';
import { hotQuery } from '../hot-query.js';

/**
 * The writing half of the derived-data outbox (migration 037, docs/decisions/0037-derived-data-outbox.md): a
 * change inserts one small row in its own transaction, and the search index is written after the commit by the
 * drainer (drain.ts). The text a writer already holds travels with the transaction as a hint, handed to the
 * drainer only once the transaction has committed (a rolled-back write leaves no hint behind).
 */

/**
 * What an open transaction enqueued for the drainer: the text of each version a writer held (by
 * `<kind>:<id>:<version>`), and the bytes of file contents to index (how much work its commit asks for).
 */
interface Enqueued {
  texts: Map<string, string>;
  bytes: number;
}

const open = new WeakMap<object, Enqueued>();

/** The hint key of one version of a file or memory file. */
export function hintKey(kind: 'file' | 'memory' | 'wiki', id: string, version: number): string {
  return `${kind}:${id}:${version}`;
}

function hint(trx: object, key: string, text: string | undefined, bytes = 0): void {
  let e = open.get(trx);
  if (!e) open.set(trx, (e = { texts: new Map(), bytes: 0 }));
  // Marks the transaction even without text, so its commit wakes the drainer.
  if (text !== undefined) e.texts.set(key, text);
  e.bytes += bytes;
}

/**
 * What a committed transaction enqueued, once (inTx calls the platform's outbox with the transaction; the
 * outbox takes it here). Undefined: the transaction enqueued nothing, so there is nothing to drain.
 */
export function takeCommitted(trx: object): Enqueued | undefined {
  const e = open.get(trx);
  open.delete(trx);
  return e;
}

/** Every file write enqueues its search entry so: built once (issue 30). */
const enqueueFileRow = hotQuery((db, a: { project: string; file: string; version: number; path: string; at: string }) =>
  db.insertInto('derived_outbox').values({ project_id: a.project, kind: 'file', ref_id: a.file, version: a.version, path: a.path, at: a.at }),
);

/**
 * Records that a file's search entry must follow its current state (written, moved or deleted), in the change's
 * transaction. `text` is the new version's text when the writer holds it (saves reading the blob back).
 *
 * @example
 * await enqueueFile(trx, { projectId, fileId: row.id, version: row.version, path, at: now, text, size: row.size });
 */
export async function enqueueFile(
  trx: Q,
  change: { projectId: string; fileId: string; version: number; path: string; at: string; text?: string; size?: number },
): Promise<void> {
  await enqueueFileRow(trx, { project: change.projectId, file: change.fileId, version: change.version, path: change.path, at: change.at });
  hint(trx, hintKey('file', change.fileId, change.version), change.text, change.size ?? 0);
}

/**
 * The hint of a memory version whose outbox row the database wrote itself (the batched append on PostgreSQL,
 * memory/append-batch.ts): `tx` stands for that statement's transaction and is handed to the drainer's
 * `committed` once it has committed.
 *
 * @example
 * hintMemory(tx, fileId, version, text); void platform.outbox.committed(tx);
 */
export function hintMemory(tx: object, fileId: string, version: number, text: string): void {
  hint(tx, hintKey('memory', fileId, version), text);
}

/**
 * Records that a memory file's search blocks from `firstBlock` on must follow its text, in the change's
 * transaction (see memory-index.ts memoryChangeSpan). `text` is the new version's whole text.
 *
 * @example
 * await enqueueMemory(trx, ctx, { fileId, version, firstBlock: 2, oldBlocks: 3, path: 'AGENTS.md', title, visibility, at, text });
 */
export async function enqueueMemory(
  trx: Q,
  ctx: Ctx,
  change: { fileId: string; version: number; firstBlock: number; oldBlocks: number; path: string; title: string; visibility: string; at: string; text: string },
): Promise<void> {
  await trx
    .insertInto('derived_outbox')
    .values({
      project_id: ctx.project.id,
      kind: 'memory',
      ref_id: change.fileId,
      version: change.version,
      first_block: change.firstBlock,
      old_blocks: change.oldBlocks,
      path: change.path,
      title: change.title,
      visibility: change.visibility,
      at: change.at,
    })
    .execute();
  hint(trx, hintKey('memory', change.fileId, change.version), change.text);
}

/**
 * Records that wiki pages' search entries must follow their current state (saved, renamed, moved or deleted), in
 * the change's transaction: one row per page. The drainer reads the page row itself (its text is in it), so no
 * text travels as a hint; a page that is gone by then is removed from the index.
 *
 * @example
 * await enqueueWikiPages(trx, ctx, [{ id: row.id, version: row.version, path: row.path }], now);
 */
export async function enqueueWikiPages(trx: Q, ctx: Ctx, pages: { id: string; version: number; path: string }[], at: string): Promise<void> {
  const values = pages.map((p) => ({ project_id: ctx.project.id, kind: 'wiki', ref_id: p.id, version: p.version, path: p.path, at }));
  for (const batch of sqlBatches(ctx.platform.db.dialect, values, 6)) await trx.insertInto('derived_outbox').values(batch).execute();
  // Marks the transaction, so its commit wakes the drainer.
  if (pages.length > 0) hint(trx, hintKey('wiki', pages[0]!.id, pages[0]!.version), undefined);
}
