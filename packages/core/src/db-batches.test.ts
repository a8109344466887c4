import { describe, expect, it } from 'vitest';
import { inSqlBatches, sqlBatches } from './db-batches.js';

describe('SQL batches (issue 27)', () => {
  it('keeps each batch under the engine limit, in order, losing nothing', async () => {
    const items = Array.from({ length: 100_000 }, (_, i) => i);
    const lite = sqlBatches('sqlite', items, 5);
    expect(lite.every((b) => b.length * 5 < 32766)).toBe(true);
    expect(lite.flat()).toEqual(items);
    const pg = sqlBatches('postgres', items, 5);
    expect(pg.every((b) => b.length * 5 < 65535)).toBe(true);
    expect(pg.length).toBeLessThan(lite.length);
    expect(await inSqlBatches('sqlite', items, async (b) => b.map((n) => n * 2))).toEqual(items.map((n) => n * 2));
    expect(sqlBatches('postgres', [], 5)).toEqual([]);
  });
});
