import { StoaError } from '@stoa/contract';
import { sql } from 'kysely';
import { refusalOfDbError } from '../db-guard.js';
import { newId } from '../ids.js';
import { hintMemory } from '../outbox/outbox.js';
import type { Ctx, Platform } from '../platform.js';
import { LINES_PER_BLOCK } from './memory-index.js';
import { appendText, authorColumns, codePoints, memoryDoc, SNAPSHOT_EVERY } from './store.js';
import type { MemoryTarget, MemoryVersionsTable } from './types.js';

/**
 * Appends to one memory file on PostgreSQL, written together (group commit). Every append must hold the file's
 * row from reading its newest text until the commit, and a PostgreSQL commit waits for the WAL flush — so one
 * append per transaction made 16 writers of one file queue for 16 lock-and-flush turns in a row (bench/README.md
 * "Memory", 2026-12-05). Here the appends to one file that arrive while a write of it is running wait for
 * it and then go together in one statement (migration 042, `stoa_memory_append_batch`), run as its own
 * transaction: one round trip, one row lock, one flush for all of them. Each append is still a version of its
 * own with its own author, time and op, in arrival order; each is acknowledged only after the commit holding it;
 * one over the size limit is refused alone. An append that finds no write of its file running starts one at once
 * (nothing waits for a timer). Several servers of one database still serialise on the row lock.
 */

/** Appends written in one statement at most (the rest wait for the next). */
const MAX_BATCH = 64;

interface Pending {
  ctx: Ctx;
  target: MemoryTarget;
  text: string;
  op: string;
  now: string;
  author: ReturnType<typeof authorColumns>;
  done: (v: AppendedVersion) => void;
  fail: (e: unknown) => void;
}

/** One append as written: its version row (without the stored delta) and the file's whole text after it. */
type AppendedVersion = MemoryVersionsTable & { text: string };

/** Per platform: the appends waiting for each file whose write is running (the key is there while one runs). */
const waiting = new WeakMap<Platform, Map<string, Pending[]>>();

/**
 * Appends `text` to the file as the next version, once the statement holding it has committed.
 *
 * @example
 * const v = await pgAppend(ctx, target, 'The ACME renewal moved to 2 November', 'append'); // v.version, v.text
 */
export function pgAppend(ctx: Ctx, target: MemoryTarget, text: string, op: string): Promise<AppendedVersion> {
  let files = waiting.get(ctx.platform);
  if (!files) waiting.set(ctx.platform, (files = new Map()));
  const key = `${ctx.project.id}\u0000${target.kind}\u0000${target.scopeId}`;
  return new Promise<AppendedVersion>((done, fail) => {
    const p: Pending = { ctx, target, text, op, now: ctx.platform.clock().toISOString(), author: authorColumns(ctx), done, fail };
    const queue = files.get(key);
    if (queue) queue.push(p);
    else {
      files.set(key, []);
      void writeAll(ctx.platform, files, key, [p]);
    }
  });
}

/** Writes `batch`, then whatever queued for the file meanwhile, until nothing waits. */
async function writeAll(platform: Platform, files: Map<string, Pending[]>, key: string, batch: Pending[]): Promise<void> {
  while (batch.length > 0) {
    await writeBatch(platform, batch);
    const queue = files.get(key)!;
    batch = queue.splice(0, MAX_BATCH);
    if (batch.length === 0) files.delete(key);
  }
}

/** One statement for the batch; settles each of its appends (never throws: a failure fails those not yet answered). */
async function writeBatch(platform: Platform, batch: Pending[]): Promise<void> {
  const first = batch[0]!;
  const { target, ctx } = first;
  const max = platform.config.limits.agentWriteBytes;
  const doc = memoryDoc(target);
  const col = <K extends keyof Pending['author']>(k: K) => batch.map((p) => p.author[k]);
  try {
    const {
      rows: [row],
    } = await sql<{ file_id: string; previous: string; versions: (number | null)[] }>`select * from stoa_memory_append_batch(${ctx.project.id},
      ${target.kind}, ${target.scopeId}, ${newId('mem')}, ${target.kind === 'soul' ? (target.agentInstructions ?? '') : ''},
      ${batch.map((p) => p.text)}, ${batch.map((p) => p.op)}, ${batch.map((p) => p.now)},
      ${col('author_kind')}, ${col('author_id')}, ${col('author_label')}, ${col('author_meta')}, ${max}, ${SNAPSHOT_EVERY},
      ${doc.path}, ${doc.title}, ${doc.visibility}, ${LINES_PER_BLOCK})`.execute(platform.db.kysely);
    if (!row) throw new Error('stoa_memory_append_batch returned no row');
    // Committed: each append's text is the text before the batch plus the appends written before it.
    let text = row.previous;
    let last: { version: number; text: string } | undefined;
    for (const [i, p] of batch.entries()) {
      const version = row.versions[i];
      if (version === null || version === undefined) {
        p.fail(new StoaError('too_large', `a memory file may hold at most ${max} bytes`));
        continue;
      }
      text = appendText(text, p.text);
      last = { version, text };
      p.done({
        file_id: row.file_id,
        project_id: ctx.project.id,
        version,
        content: '',
        delta: 0,
        chars: codePoints(text),
        op: p.op,
        ...p.author,
        created_at: p.now,
        text,
      });
    }
    if (last) {
      // The search blocks are written after the commit by the drainer, from this text when it is still the newest.
      const tx = {};
      hintMemory(tx, row.file_id, last.version, last.text);
      void platform.outbox.committed(tx);
    }
  } catch (e) {
    // Appends already answered stay answered (a promise settles once); the others get the error.
    const refusal = refusalOfDbError(e) ?? e;
    for (const p of batch) p.fail(refusal);
  }
}
