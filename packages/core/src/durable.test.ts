import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb, sql, type WalSync } from '@stoa/db';
import { durableCommits } from './durable.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/**
 * A SQLite database whose WAL syncs are held until the test lets them go, each noting the rows committed when it
 * began (what it makes durable) and whether it failed.
 */
async function heldSyncs() {
  const dir = mkdtempSync(join(tmpdir(), 'stoa-durable-'));
  const syncs: Array<{ covers: number; release: (err?: Error) => void; done: boolean }> = [];
  let committed = 0;
  const syncWal: WalSync = async (fh) => {
    const err = await new Promise<Error | undefined>((release) => syncs.push({ covers: committed, release, done: false }));
    const me = syncs.at(-1)!;
    me.done = true;
    if (err) throw err;
    await fh.datasync();
  };
  const db = await openDb({ kind: 'sqlite', file: join(dir, 'stoa.db') }, { syncWal });
  cleanups.push(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const commit = async () => {
    await sql`insert into installation_secrets (name, value, created_at) values (${`k${++committed}`}, 'v', 'now')`.execute(db.kysely);
    return committed;
  };
  /** Waits until `n` syncs have begun. */
  const begun = async (n: number) => {
    while (syncs.length < n) await new Promise((r) => setTimeout(r, 1));
  };
  return { db, syncs, commit, begun };
}

/** Calls `durable` after a commit, noting when it was answered. */
function ask(durable: () => Promise<void>, commit: number) {
  const r = { commit, answered: false, error: undefined as unknown };
  const p = durable().then(
    () => void (r.answered = true),
    (e: unknown) => void (r.error = e),
  );
  return Object.assign(r, { settled: p });
}

const tick = () => new Promise((r) => setImmediate(r));

describe('group commit of the database (decision 0022)', () => {
  it('answers concurrent callers with one sync, and one who asks while it runs only after the next, which began after its commit', async () => {
    const { db, syncs, commit, begun } = await heldSyncs();
    const durable = durableCommits(db);

    const first = await Promise.all([commit(), commit(), commit()]);
    const wave1 = first.map((c) => ask(durable, c));
    await begun(1);
    expect(syncs[0]!.covers).toBe(Math.max(...first));
    // Committed while the first sync runs: that sync may have started before this commit reached the WAL.
    const late = ask(durable, await commit());
    const late2 = ask(durable, await commit());
    await tick();
    expect(syncs).toHaveLength(1);

    syncs[0]!.release();
    await Promise.all(wave1.map((w) => w.settled));
    await tick();
    expect(wave1.every((w) => w.answered)).toBe(true);
    expect(late.answered).toBe(false);

    await begun(2);
    expect(syncs[1]!.covers).toBeGreaterThanOrEqual(late2.commit);
    syncs[1]!.release();
    await Promise.all([late.settled, late2.settled]);
    expect(late.answered && late2.answered).toBe(true);
    // Five callers, two syncs: never more than one at a time.
    expect(syncs).toHaveLength(2);
  });

  it('fails exactly the callers of a sync that failed, and syncs again for the next caller', async () => {
    const { db, syncs, commit, begun } = await heldSyncs();
    const durable = durableCommits(db);

    const failing = [ask(durable, await commit()), ask(durable, await commit())];
    await begun(1);
    const next = ask(durable, await commit());
    syncs[0]!.release(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    await Promise.all(failing.map((f) => f.settled));
    expect(failing.map((f) => (f.error as { code?: string })?.code)).toEqual(['EIO', 'EIO']);
    expect(next.error).toBeUndefined();

    await begun(2);
    syncs[1]!.release();
    await next.settled;
    expect(next.answered).toBe(true);

    const later = ask(durable, await commit());
    await begun(3);
    syncs[2]!.release();
    await later.settled;
    expect(later.answered).toBe(true);
  });

  it('answers at once where a commit is durable by itself (PostgreSQL, SQLite in memory)', async () => {
    const memory = await openDb({ kind: 'sqlite', file: ':memory:' });
    cleanups.push(() => memory.close());
    await expect(durableCommits(memory)()).resolves.toBeUndefined();
    await expect(durableCommits({ syncCommits: null })()).resolves.toBeUndefined();
  });
});
