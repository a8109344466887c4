import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createTestDb, testDbKinds } from '@stoa/db/testing';
import { loadConfig } from './config.js';
import { contextFor, localAdminPrincipal } from './context.js';
import { appendMemory, getMemory, searchMemory } from './memory/index.js';
import { openPlatform } from './open-platform.js';
import type { Ctx, Platform } from './platform.js';
import { bootstrap } from './projects/bootstrap.js';

// Several servers on one PostgreSQL: each keeps its own pool of STOA_DB_POOL_SIZE connections and no state of
// its own (nothing cached across requests), so what one writes the other reads at once, and appends from both
// to one file all land.
describe.skipIf(!testDbKinds().includes('postgres'))('two platforms on one PostgreSQL database', () => {
  let dir: string;
  let url: string;
  let drop: () => Promise<void>;
  const platforms: Platform[] = [];
  const admins: Ctx[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'stoa-two-'));
    const t = await createTestDb('postgres');
    await t.db.close();
    url = t.url!;
    drop = t.cleanup;
    for (const node of ['a', 'b']) {
      const config = loadConfig({ dataDir: join(dir, node), env: { STOA_DATABASE_URL: url, STOA_DB_POOL_SIZE: '3' } });
      expect(config.database).toMatchObject({ kind: 'postgres', poolSize: 3 });
      platforms.push(await openPlatform(config));
    }
    await bootstrap(platforms[0]!);
    for (const p of platforms) admins.push(await contextFor(p, await localAdminPrincipal(p), {}));
  });
  afterAll(async () => {
    for (const p of platforms) await p.close();
    await drop?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it('agree on memory and search, and stay within their pools', async () => {
    const ref = { file: 'AGENTS.md' as const };
    await Promise.all(Array.from({ length: 24 }, (_, i) => appendMemory(admins[i % 2]!, ref, `note ${i} from server ${'ab'[i % 2]} zebra${i}`)));
    const [a, b] = await Promise.all(admins.map((ctx) => getMemory(ctx, ref)));
    expect(a).toEqual(b);
    expect(a!.version).toBe(24);
    const lines = a!.content.split('\n').filter((l) => l !== '');
    expect(new Set(lines).size).toBe(24);
    // Written on a, found on b (and the reverse), with no invalidation step in between.
    expect((await searchMemory(admins[1]!, { query: 'zebra4' })).length).toBe(1);
    expect((await searchMemory(admins[0]!, { query: 'zebra7' })).length).toBe(1);

    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      const { rows } = await c.query<{ n: number }>(
        'select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
      );
      expect(rows[0]!.n).toBeLessThanOrEqual(6);
    } finally {
      await c.end();
    }
  });
});
