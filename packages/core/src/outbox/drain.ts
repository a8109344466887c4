import { sql } from 'kysely';
import type { ExpressionBuilder, Selectable } from 'kysely';
import type { DB, DerivedOutboxTable } from '@stoa/db';
import { inTx, type OutboxDrainer, type Platform, type Q } from '../platform.js';
import { indexDocs, removeDoc, type SearchDocInput, type SearchIndex } from '../search/index.js';
import { isTextMime } from '../files/mime.js';
import { baseName } from '../paths.js';
import { indexableText } from '../text-rules.js';
import { FILE_INDEX_MAX_BYTES, FILE_KIND, FILE_VISIBILITY } from '../unified-search/file-index.js';
import { memoryBlocks } from '../memory/memory-index.js';
import { versionText } from '../memory/store.js';
import { WIKI_KIND, wikiPageDoc } from '../wiki/page-store.js';
import { hintKey, takeCommitted } from './outbox.js';
import { hotQuery } from '../hot-query.js';

type OutboxRow = Selectable<DerivedOutboxTable>;

/** Rows claimed per drain transaction: enough to fold a burst of writes into one index statement. */
const BATCH = 200;
/**
 * Characters of text one drain transaction indexes at most: past it the batch stops and its other rows go to the
 * next one, so a backlog of large files never tokenises (and sends PostgreSQL) hundreds of megabytes at once.
 */
const BATCH_CHARS = 4 * 1024 * 1024;
/**
 * Bytes of file contents committed since the last pass began past which the next starts without its delay: the
 * wait pays only where each pass's own cost (transaction, claim, COMMIT) outweighs its indexing — small writes. A
 * burst of large texts is indexed as it comes, as with no delay (a 64 KB text costs ≈ 12 ms to index here).
 */
const START_NOW_BYTES = 256 * 1024;
/** Characters of hinted text kept for the drainer at most; past it the oldest hints go (the blob is read instead). */
const HINT_CHARS = 16 * 1024 * 1024;
/** Longest wait before a failing row is tried again (its backoff doubles per failure, from one second). */
const RETRY_MAX_MS = 3_600_000;

/** How long a row waits after its `attempts`-th failed drain: 1 s, 2 s, 4 s … at most RETRY_MAX_MS. */
function retryDelayMs(attempts: number): number {
  return Math.min(RETRY_MAX_MS, 1000 * 2 ** Math.min(Math.max(0, attempts - 1), 22));
}

/**
 * The rows a drain claims (shape: 1 of one project, 2 of one target; on PostgreSQL 4 waiting for rows other drains
 * hold, 8 skipping them): every write's drain runs it, so it is built once per shape (issue 30).
 */
const claimRows = hotQuery((db, a: { now: string; project: string; kind: string; ref: string }, shape) => {
  let q = db
    .selectFrom('derived_outbox')
    .selectAll()
    .where((eb) => eb.or([eb('retry_at', 'is', null), eb('retry_at', '<=', a.now)]))
    .orderBy('seq')
    .limit(BATCH);
  if (shape & 1) q = q.where('project_id', '=', a.project);
  if (shape & 2) q = q.where('kind', '=', a.kind).where('ref_id', '=', a.ref);
  if (shape & 4) q = q.forUpdate();
  if (shape & 8) q = q.forUpdate().skipLocked();
  return q;
});

/** What the index of a file is written from. */
const fileById = hotQuery((db, a: { id: string }) => db.selectFrom('files').select(['path', 'mime', 'size', 'blob_key', 'version']).where('id', '=', a.id));

/** The drained rows go: built once per count up to 8 rows (one write, a few), else built as they come. */
async function deleteRows(trx: Q, done: OutboxRow[]): Promise<void> {
  const seqs = done.map((r) => r.seq);
  if (seqs.length === 0) return;
  if (seqs.length > 8) return void (await trx.deleteFrom('derived_outbox').where('seq', 'in', seqs).execute());
  const args: Record<string, number> = {};
  seqs.forEach((q, i) => (args[`s${i}`] = q));
  await deleteSeqs(trx, args, seqs.length);
}

const deleteSeqs = hotQuery((db, a: Record<string, number>, n) =>
  db.deleteFrom('derived_outbox').where(
    'seq',
    'in',
    Array.from({ length: n }, (_, i) => a[`s${i}`]!),
  ),
);

/** Which rows a drain claims: of one project or all, waiting for rows other drains hold or not, of one target. */
interface Claim {
  projectId?: string;
  wait?: boolean;
  target?: { kind: string; refId: string };
}

/** Rows a drain may claim at `now`: never failed, or past their backoff (migration 045). */
function due(now: string) {
  return (eb: ExpressionBuilder<DB, 'derived_outbox'>) => eb.or([eb('retry_at', 'is', null), eb('retry_at', '<=', now)]);
}

/** The text writers held, by hint key, until the drainer uses it; bounded, oldest first out. */
class Hints {
  private readonly texts = new Map<string, string>();
  private chars = 0;

  add(key: string, text: string): void {
    this.take(key);
    this.texts.set(key, text);
    this.chars += text.length;
    for (const [k] of this.texts) {
      if (this.chars <= HINT_CHARS) break;
      this.take(k);
    }
  }

  take(key: string): string | undefined {
    const t = this.texts.get(key);
    if (t !== undefined) {
      this.texts.delete(key);
      this.chars -= t.length;
    }
    return t;
  }
}

/** What one drain transaction writes: documents to index and documents to remove. */
interface Writes {
  docs: SearchDocInput[];
  gone: { kind: string; refId: string; projectId: string }[];
}

/** The latest row of a target (highest seq): its path, title and time are the ones to index under. */
function latest(rows: OutboxRow[]): OutboxRow {
  return rows.reduce((a, b) => (b.seq > a.seq ? b : a));
}

/**
 * A file's entry from its current row — whatever version the outbox rows name — so an older change drained
 * late never overwrites a newer one: a text file up to FILE_INDEX_MAX_BYTES is indexed under its name and
 * contents; a file that is gone, binary or larger has no entry.
 */
async function fileWrites(trx: Q, platform: Platform, hints: Hints, rows: OutboxRow[], out: Writes): Promise<void> {
  const { project_id: projectId, ref_id: fileId, at } = latest(rows);
  const [f] = await fileById(trx, { id: fileId });
  if (!f || !isTextMime(f.mime) || Number(f.size) > FILE_INDEX_MAX_BYTES) {
    out.gone.push({ projectId, kind: FILE_KIND, refId: fileId });
    return;
  }
  const text = hints.take(hintKey('file', fileId, f.version)) ?? (await platform.blobs.read(f.blob_key)).toString('utf8');
  out.docs.push({
    projectId,
    kind: FILE_KIND,
    refId: fileId,
    path: f.path,
    title: baseName(f.path),
    body: indexableText(text),
    visibility: FILE_VISIBILITY,
    updatedAt: at,
  });
}

/**
 * A memory file's blocks from the lowest block its pending changes touched, from its current text; blocks past
 * the text's end (it got shorter) go.
 */
async function memoryWrites(trx: Q, hints: Hints, rows: OutboxRow[], out: Writes): Promise<void> {
  const last = latest(rows);
  const first = Math.min(...rows.map((r) => r.first_block));
  const oldBlocks = Math.max(...rows.map((r) => r.old_blocks));
  const m = await trx.selectFrom('memory_files').select(['version', 'updated_at']).where('id', '=', last.ref_id).executeTakeFirst();
  const text = !m || m.version === 0 ? '' : (hints.take(hintKey('memory', last.ref_id, m.version)) ?? (await versionText(trx, last.ref_id, m.version)) ?? '');
  const doc = { fileId: last.ref_id, path: last.path ?? '', title: last.title ?? '', visibility: last.visibility ?? '', updatedAt: m?.updated_at ?? last.at };
  const { docs, gone } = memoryBlocks(last.project_id, doc, text, Math.min(first, oldBlocks), oldBlocks);
  out.docs.push(...docs);
  for (const refId of gone) out.gone.push({ projectId: last.project_id, kind: 'memory', refId });
}

/**
 * A wiki page's entry from its current row (path, title, text, channel), whatever the outbox rows say: a page
 * saved twice is indexed once, with its last text; a page that is gone (deleted) has no entry.
 */
async function wikiWrites(trx: Q, rows: OutboxRow[], out: Writes): Promise<void> {
  const { project_id: projectId, ref_id: pageId } = latest(rows);
  const page = await trx
    .selectFrom('wiki_pages')
    .select(['id', 'project_id', 'path', 'title', 'body', 'channel_id', 'updated_at'])
    .where('id', '=', pageId)
    .executeTakeFirst();
  if (!page) out.gone.push({ projectId, kind: WIKI_KIND, refId: pageId });
  else out.docs.push(wikiPageDoc(page));
}

/**
 * One drain transaction: claims up to BATCH pending rows (of one project, or of all), writes the index of each
 * row's target from its current state, deletes the rows. On PostgreSQL, rows another server is draining are
 * skipped (`for update skip locked`) or, with `wait`, waited for; the targets are locked by an advisory lock in
 * key order, so two servers draining one file index it one after the other, each from what is current then, and
 * the last to commit holds the newest version. Returns how many rows it drained, and whether more may be pending.
 */
async function drainBatch(platform: Platform, hints: Hints, opts: Claim): Promise<{ drained: number; more: boolean }> {
  const pg = platform.db.dialect === 'postgres';
  return inTx(platform, async (trx) => {
    const shape = (opts.projectId !== undefined ? 1 : 0) | (opts.target ? 2 : 0) | (pg ? (opts.wait ? 4 : 8) : 0);
    const rows = await claimRows(
      trx,
      { now: platform.clock().toISOString(), project: opts.projectId ?? '', kind: opts.target?.kind ?? '', ref: opts.target?.refId ?? '' },
      shape,
    );
    if (rows.length === 0) return { drained: 0, more: false };
    const targets = new Map<string, OutboxRow[]>();
    for (const r of rows) {
      const key = `${r.kind}:${r.ref_id}`;
      targets.set(key, [...(targets.get(key) ?? []), r]);
    }
    const out: Writes = { docs: [], gone: [] };
    const done: OutboxRow[] = [];
    let chars = 0;
    for (const key of [...targets.keys()].sort()) {
      if (chars > BATCH_CHARS) break;
      const group = targets.get(key)!;
      done.push(...group);
      if (pg) await sql`select pg_advisory_xact_lock(hashtextextended(${`stoa.outbox:${key}`}, 0))`.execute(trx);
      const kind = group[0]!.kind;
      if (kind === 'memory') await memoryWrites(trx, hints, group, out);
      else if (kind === 'wiki') await wikiWrites(trx, group, out);
      else await fileWrites(trx, platform, hints, group, out);
      chars = out.docs.reduce((n, d) => n + d.body.length, 0);
    }
    const index: SearchIndex = { kysely: trx, dialect: platform.db.dialect };
    // Removals first: a memory file that shrank and grew again in one batch ends with its new blocks.
    for (const g of out.gone) await removeDoc(index, g);
    await indexDocs(index, out.docs);
    await deleteRows(trx, done);
    return { drained: done.length, more: done.length < rows.length || rows.length === BATCH };
  });
}

/**
 * Keeps a target whose indexing failed on its own: its due rows count one more attempt and wait out a backoff
 * (they are never dropped: the index of an acknowledged write must follow it one day), and a log line says so.
 */
async function markFailed(platform: Platform, target: { kind: string; refId: string }, error: unknown, log: (line: string) => void): Promise<void> {
  const now = platform.clock();
  const db = platform.db.kysely;
  const rows = await db
    .selectFrom('derived_outbox')
    .select(['project_id', 'attempts'])
    .where('kind', '=', target.kind)
    .where('ref_id', '=', target.refId)
    .where(due(now.toISOString()))
    .execute();
  if (rows.length === 0) return;
  const attempts = Math.max(...rows.map((r) => Number(r.attempts))) + 1;
  const delay = retryDelayMs(attempts);
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
  await db
    .updateTable('derived_outbox')
    .set({ attempts, retry_at: new Date(now.getTime() + delay).toISOString(), last_error: message })
    .where('kind', '=', target.kind)
    .where('ref_id', '=', target.refId)
    .where(due(now.toISOString()))
    .execute();
  log(
    `search outbox: indexing ${target.kind} ${target.refId} (project ${rows[0]!.project_id}) failed ${attempts} time(s); kept, next try in ${delay / 1000} s: ${message}`,
  );
}

/**
 * One drain step: a batch, and if the batch fails, each of its targets alone, in a transaction of its own, so
 * one target whose indexing always fails (a poison row) holds back nothing claimed with it; a target that fails
 * alone is marked (markFailed) and skipped until its backoff is over. A failure of the database itself still
 * fails the step: its rows stay pending as they were.
 */
async function drainStep(platform: Platform, hints: Hints, opts: Claim, log: (line: string) => void): Promise<{ drained: number; more: boolean }> {
  try {
    return await drainBatch(platform, hints, opts);
  } catch {
    let q = platform.db.kysely.selectFrom('derived_outbox').select(['kind', 'ref_id']).where(due(platform.clock().toISOString())).orderBy('seq').limit(BATCH);
    if (opts.projectId !== undefined) q = q.where('project_id', '=', opts.projectId);
    const rows = await q.execute();
    const targets = new Map(rows.map((r) => [`${r.kind}:${r.ref_id}`, { kind: r.kind, refId: r.ref_id }]));
    let drained = 0;
    for (const target of targets.values()) {
      try {
        drained += (await drainBatch(platform, hints, { ...opts, target })).drained;
      } catch (e) {
        await markFailed(platform, target, e, log);
      }
    }
    return { drained, more: rows.length === BATCH };
  }
}

/**
 * The platform's drainer. After each commit that enqueued changes it drains everything pending, one pass at a
 * time in the background of this process: the writer is answered at once, and the commits made during a pass or
 * in the `delayMs` before it (STOA_INDEX_DELAY_MS) share it (and one index statement, one transaction, one COMMIT),
 * outside every lock the writes held. `committed` resolves after the first pass that starts after the commit. The
 * wait costs no search its freshness, since every search settles first; it folds a burst of writes — an agent's
 * write, read, write — into one pass (bench/README.md, "Derived data a burst at a time"). `idle` and `drainAll`
 * start a waiting pass at once, so a closing process never sits out the delay. A search
 * first settles its project: rows pending there are drained — or, being drained by another pass or server,
 * waited for — so any search after an acknowledged write sees it. A failed pass leaves its rows pending for the
 * next commit, search, background pass or start; a row whose target fails alone is kept, counts its attempts and
 * waits out a growing backoff (1 s doubling to an hour), and each failure is logged with `log`.
 *
 * @example
 * platform.outbox = createOutboxDrainer(() => platform);
 */
export function createOutboxDrainer(platformOf: () => Platform, opts: { log?: (line: string) => void; delayMs?: number } = {}): OutboxDrainer {
  const log = opts.log ?? ((line: string) => console.error(line));
  const delayMs = opts.delayMs ?? 0;
  const hints = new Hints();
  let running: Promise<void> | null = null;
  let again = false;
  // Passes started and passes finished: a commit waits for the first pass that starts after it, not for the
  // passes later commits ask for (a steady stream of writes never keeps a writer waiting).
  let started = 0;
  let finished = 0;
  const waiters: { pass: number; done: () => void }[] = [];
  const drainRows = async (): Promise<number> => {
    let total = 0;
    for (let more = true; more;) {
      const r = await drainStep(platformOf(), hints, {}, log);
      total += r.drained;
      more = r.more;
    }
    return total;
  };
  // Callers that want a waiting pass to start now (`idle`, `drainAll`), and how to start the one waiting.
  let hurried = 0;
  // Bytes of file contents committed since the last pass began.
  let work = 0;
  let startWaiting: (() => void) | null = null;
  /** The wait before a pass: its delay, or the next turn of the event loop when it is 0 or someone is waiting on it. */
  const beforePass = (): Promise<void> =>
    new Promise<void>((next) => {
      if (delayMs <= 0 || hurried > 0 || work >= START_NOW_BYTES) return void setImmediate(next);
      const start = () => {
        clearTimeout(timer);
        startWaiting = null;
        next();
      };
      const timer = setTimeout(start, delayMs);
      startWaiting = start;
    });
  const hurry = async <T>(fn: () => Promise<T>): Promise<T> => {
    hurried++;
    try {
      startWaiting?.();
      return await fn();
    } finally {
      hurried--;
    }
  };
  const loop = async (): Promise<void> => {
    while (again) {
      again = false;
      work = 0;
      started++;
      // Left pending on failure: the next commit, search, background pass or start drains it again.
      await drainRows().catch(() => undefined);
      finished = started;
      for (let i = waiters.length - 1; i >= 0; i--) if (waiters[i]!.pass <= finished) waiters.splice(i, 1)[0]!.done();
      // The commits made during this pass wait for the next one as the first did: a steady stream of writes is
      // drained a batch at a time, not a pass per write.
      if (again) await beforePass();
    }
  };
  const wake = (): Promise<void> => {
    const pass = started + 1;
    again = true;
    // Never in the committing writer's own chain of promises. With no delay, on the next turn of the event loop: a
    // change the runner answers only after its WAL sync (decision 0022) is then answered after this pass, the
    // sync's callers being gathered on that same turn. With a delay the answer goes first, and the writes of the
    // next moments join the pass (bench/README.md, "Work after the answer" and "Derived data a burst at a time").
    running ??= beforePass()
      .then(loop)
      .finally(() => (running = null));
    return new Promise<void>((done) => waiters.push({ pass, done }));
  };
  return {
    committed(trx) {
      const committed = takeCommitted(trx);
      if (!committed) return Promise.resolve();
      for (const [k, t] of committed.texts) hints.add(k, t);
      work += committed.bytes;
      const passDone = wake();
      if (work >= START_NOW_BYTES) startWaiting?.();
      return passDone;
    },
    wake: () => void wake(),
    async settle(projectId) {
      const platform = platformOf();
      // Rows waiting out a backoff after failures are not waited for: the search answers without them.
      const pending = await platform.db.kysely
        .selectFrom('derived_outbox')
        .select('seq')
        .where('project_id', '=', projectId)
        .where(due(platform.clock().toISOString()))
        .limit(1)
        .executeTakeFirst();
      if (!pending) return;
      // A search still answers if the drain fails (the index is then behind, as before the outbox).
      try {
        for (let more = true; more;) more = (await drainStep(platform, hints, { projectId, wait: true }, log)).more;
      } catch {
        return;
      }
    },
    async drainAll() {
      // A pass of this process holds rows (skipped below): what it is draining is done first.
      if (running) await hurry(wake);
      return drainRows();
    },
    idle: () =>
      hurry(async () => {
        while (running) await running;
      }),
  };
}
