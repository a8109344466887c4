import { describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { migrateToLatest } from './migrate.js';
import type { StoaDb } from './create-db.js';

/**
 * One contract suite for every database adapter (SQLite and PostgreSQL): the behaviours the core relies on,
 * checked the same way on both — like Hono runs one router suite against every router.
 *
 * @example
 * runDbContract('sqlite', () => createTestDb('sqlite'));
 */
export function runDbContract(name: string, newDb: () => Promise<{ db: StoaDb; cleanup: () => Promise<void> }>): void {
  describe(`database contract: ${name}`, () => {
    const withDb = async (fn: (db: StoaDb) => Promise<void>) => {
      const { db, cleanup } = await newDb();
      try {
        await fn(db);
      } finally {
        await cleanup();
      }
    };

    it('delivers a published message to the subscribers of its channel, and none after they unsubscribe', () =>
      withDb(async (db) => {
        const got: string[] = [];
        const other: string[] = [];
        const stop = await db.subscribe('test_channel', (m) => got.push(m));
        await db.subscribe('other_channel', (m) => other.push(m));
        await db.publish('test_channel', 'первое {"a":1}');
        await vi.waitFor(() => expect(got).toEqual(['первое {"a":1}']), { timeout: 5000 });
        await stop();
        await db.publish('test_channel', 'second');
        await db.publish('other_channel', 'third');
        await vi.waitFor(() => expect(other).toEqual(['third']), { timeout: 5000 });
        expect(got).toEqual(['первое {"a":1}']);
        await expect(db.publish('Bad Channel;', 'x')).rejects.toThrow();
      }));

    it('applies migrations once: running them again changes nothing', () =>
      withDb(async (db) => {
        const before = await db.kysely
          .selectFrom('kysely_migration' as any)
          .select('name' as any)
          .execute();
        await migrateToLatest(db.kysely, db.dialect);
        const after = await db.kysely
          .selectFrom('kysely_migration' as any)
          .select('name' as any)
          .execute();
        expect(after).toEqual(before);
        expect(before.length).toBeGreaterThan(0);
      }));

    it('rolls a failed transaction back whole', () =>
      withDb(async (db) => {
        const now = new Date().toISOString();
        await expect(
          db.kysely.transaction().execute(async (trx) => {
            await trx.insertInto('organizations').values({ id: 'org_a', name: 'A', created_at: now }).execute();
            throw new Error('boom');
          }),
        ).rejects.toThrow('boom');
        const rows = await db.kysely.selectFrom('organizations').selectAll().execute();
        expect(rows).toEqual([]);
      }));

    it('enforces unique paths per project and reports the violation with a recognisable code', () =>
      withDb(async (db) => {
        const now = new Date().toISOString();
        await db.kysely.insertInto('organizations').values({ id: 'org_a', name: 'A', created_at: now }).execute();
        await db.kysely.insertInto('projects').values({ id: 'prj_a', org_id: 'org_a', name: 'p', quota_bytes: null, created_at: now }).execute();
        const file = (id: string) => ({
          id,
          project_id: 'prj_a',
          path: 'a.md',
          dir: '',
          name: 'a.md',
          name_lower: 'a.md',
          size: 1,
          mime: 'text/markdown',
          sha256: 'x',
          blob_key: 'x',
          version: 1,
          created_by_kind: 'user',
          created_by_id: null,
          created_by_label: null,
          created_by_meta: null,
          created_at: now,
          modified_at: now,
          modified_by_kind: 'user',
          modified_by_id: null,
          modified_by_label: null,
        });
        await db.kysely.insertInto('files').values(file('fil_1')).execute();
        const err = await db.kysely
          .insertInto('files')
          .values(file('fil_2'))
          .execute()
          .catch((e) => e);
        expect(['23505', 'SQLITE_CONSTRAINT_UNIQUE']).toContain(err.code);
      }));

    it('updates a counter conditionally and atomically (the quota check is one statement)', () =>
      withDb(async (db) => {
        const now = new Date().toISOString();
        await db.kysely.insertInto('organizations').values({ id: 'org_a', name: 'A', created_at: now }).execute();
        await db.kysely.insertInto('projects').values({ id: 'prj_a', org_id: 'org_a', name: 'p', quota_bytes: 100, created_at: now }).execute();
        const charge = (q: typeof db.kysely, n: number) =>
          q
            .updateTable('projects')
            .set({ used_bytes: sql`used_bytes + ${n}` })
            .where('id', '=', 'prj_a')
            .where(sql<boolean>`used_bytes + ${n} <= 100`)
            .executeTakeFirst();
        const results = await Promise.all(Array.from({ length: 10 }, () => db.kysely.transaction().execute((trx) => charge(trx, 30))));
        const won = results.filter((r) => Number(r.numUpdatedRows) === 1).length;
        expect(won).toBe(3);
        const p = await db.kysely.selectFrom('projects').select('used_bytes').where('id', '=', 'prj_a').executeTakeFirstOrThrow();
        expect(Number(p.used_bytes)).toBe(90);
      }));

    it('returns 64-bit sizes as numbers', () =>
      withDb(async (db) => {
        const now = new Date().toISOString();
        await db.kysely.insertInto('organizations').values({ id: 'org_a', name: 'A', created_at: now }).execute();
        await db.kysely
          .insertInto('projects')
          .values({ id: 'prj_a', org_id: 'org_a', name: 'p', quota_bytes: 5 * 1024 ** 4, created_at: now })
          .execute();
        const p = await db.kysely.selectFrom('projects').select('quota_bytes').executeTakeFirstOrThrow();
        expect(p.quota_bytes).toBe(5 * 1024 ** 4);
      }));
  });
}
