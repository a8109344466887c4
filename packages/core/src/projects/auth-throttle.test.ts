import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDb } from '@stoa/db';
import { createFsBlobStore } from '@stoa/blob';
import { testDbKinds } from '@stoa/db/testing';
import { join } from 'node:path';
import { assemblePlatform } from '../open-platform.js';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import { assertNotThrottled, recordAuthFailure, shareAuthFailures } from './auth-throttle.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function platformOf(kind: 'sqlite' | 'postgres'): Promise<TestPlatform> {
  const t = await createTestPlatform(kind);
  cleanups.push(t.cleanup);
  return t;
}

describe('failed credentials are counted per client address', () => {
  it('refuses an address once it used up its attempts in the window, and no other address', async () => {
    const { platform } = await platformOf('sqlite');
    const limit = platform.config.auth?.failures ?? 30;
    for (let i = 0; i < limit; i++) recordAuthFailure(platform, '203.0.113.7');
    expect(() => assertNotThrottled(platform, '203.0.113.7')).toThrow(expect.objectContaining({ code: 'rate_limited' }));
    expect(() => assertNotThrottled(platform, '203.0.113.8')).not.toThrow();
  });

  // Two servers over one PostgreSQL database: without sharing, each would give an address the whole allowance.
  it.runIf(testDbKinds().includes('postgres'))('servers sharing a PostgreSQL database count the failures together', async () => {
    const a = await platformOf('postgres');
    const database = a.platform.config.database;
    if (database.kind !== 'postgres') throw new Error('expected PostgreSQL');
    const db = await openDb(database);
    const b = assemblePlatform({ db, blobs: createFsBlobStore({ root: join(a.dataDir, 'blobs') }), config: a.platform.config });
    cleanups.push(() => db.close());
    cleanups.push(await shareAuthFailures(a.platform));
    cleanups.push(await shareAuthFailures(b));
    const limit = a.platform.config.auth?.failures ?? 30;
    for (let i = 0; i < limit; i++) recordAuthFailure(a.platform, '198.51.100.9');
    await vi.waitFor(() => expect(() => assertNotThrottled(b, '198.51.100.9')).toThrow(expect.objectContaining({ code: 'rate_limited' })), {
      timeout: 10_000,
    });
    expect(() => assertNotThrottled(b, '198.51.100.10')).not.toThrow();
  });
});
