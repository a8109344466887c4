import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb, sql, type StoaDb } from './create-db.js';

const dirs: string[] = [];
const dbs: StoaDb[] = [];
const others: Database.Database[] = [];
afterEach(async () => {
  for (const o of others.splice(0)) o.close();
  await Promise.all(dbs.splice(0).map((d) => d.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A SQLite database on a file, and a second connection to it (as another process would open it). */
async function twoConnections() {
  const dir = mkdtempSync(join(tmpdir(), 'stoa-group-commit-'));
  dirs.push(dir);
  const file = join(dir, 'stoa.db');
  const db = await openDb({ kind: 'sqlite', file });
  dbs.push(db);
  const other = new Database(file, { readonly: true });
  others.push(other);
  const names = () => (other.prepare('select name from installation_secrets order by name').all() as Array<{ name: string }>).map((r) => r.name);
  const insert = (q: StoaDb['kysely'], name: string) => sql`insert into installation_secrets (name, value, created_at) values (${name}, 'v', 'now')`.execute(q);
  return { db, names, insert };
}

describe('transactions of one moment committed together (SQLite, decision 0033)', () => {
  it('answers each transaction only once its change is committed for every reader', async () => {
    const { db, names, insert } = await twoConnections();
    const seen = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        db.kysely
          .transaction()
          .execute((trx) => insert(trx, `k${i}`))
          .then(() => names().includes(`k${i}`)),
      ),
    );
    expect(seen).toEqual(Array(8).fill(true));
  });

  it('rolls back only the transaction that failed; those beside it keep their work', async () => {
    const { db, names, insert } = await twoConnections();
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) =>
        db.kysely.transaction().execute(async (trx) => {
          await insert(trx, `k${i}`);
          if (i === 2) throw new Error('refused');
          // The same name twice: the unique key refuses it, and only this transaction's own work goes.
          if (i === 4) await insert(trx, 'k0');
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled']);
    expect(names()).toEqual(['k0', 'k1', 'k3', 'k5']);
  });

  it('a statement outside a transaction while others are open is durable by the next sync, and small blobs still go to the table', async () => {
    const { db, names, insert } = await twoConnections();
    const blob = Buffer.alloc(4096, 7);
    const done = await Promise.all([
      db.kysely.transaction().execute((trx) => insert(trx, 'a')),
      insert(db.kysely, 'b'),
      db.inlineBlobs.insert('c'.repeat(64), blob),
      db.kysely.transaction().execute((trx) => insert(trx, 'd')),
    ]);
    expect(done[2]).toBe(true);
    await db.syncCommits!();
    expect(names()).toEqual(['a', 'b', 'd']);
    expect(await db.inlineBlobs.get('c'.repeat(64))).toEqual(blob);
  });
});
