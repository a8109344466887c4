import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '@stoa/db/testing';
import { createTestPlatform, type TestPlatform } from './testing.js';
import { hotQuery, hotStatement } from './hot-query.js';
import { putFile } from './files/put-file.js';

const byPath = hotQuery((db, a: { project: string; path: string }) =>
  db.selectFrom('files').select(['path', 'size']).where('project_id', '=', a.project).where('path', '=', a.path),
);
const anyOf = hotQuery((db, a: Record<string, string>, n) =>
  db
    .selectFrom('files')
    .select('path')
    .where('project_id', '=', a.project!)
    .where(
      'path',
      'in',
      Array.from({ length: n }, (_, i) => a[`p${i}`]!),
    )
    .orderBy('path'),
);
const rename = hotStatement((db, a: { project: string; from: string; to: string }) =>
  db.updateTable('files').set({ path: a.to }).where('project_id', '=', a.project).where('path', '=', a.from),
);

describe.each(testDbKinds())('statements built once (%s)', (kind) => {
  let t: TestPlatform;
  let project: string;
  beforeAll(async () => {
    t = await createTestPlatform(kind);
    const admin = await t.admin();
    project = admin.project.id;
    for (const path of ['a.md', 'b.md', 'c.md']) await putFile(admin, { path, source: path });
  });
  afterAll(() => t.cleanup());

  it('runs with each call’s own values, inside and outside a transaction, one build per shape', async () => {
    const db = t.platform.db.kysely;
    expect(await byPath(db, { project, path: 'a.md' })).toEqual([{ path: 'a.md', size: 4 }]);
    expect(await byPath(db, { project, path: 'b.md' })).toEqual([{ path: 'b.md', size: 4 }]);
    expect(await byPath(db, { project: 'prj_other', path: 'a.md' })).toEqual([]);
    expect(await anyOf(db, { project, p0: 'a.md', p1: 'c.md' }, 2)).toEqual([{ path: 'a.md' }, { path: 'c.md' }]);
    expect(await anyOf(db, { project, p0: 'b.md' }, 1)).toEqual([{ path: 'b.md' }]);
    await db.transaction().execute(async (trx) => {
      expect(Number((await rename(trx, { project, from: 'c.md', to: 'd.md' })).numAffectedRows)).toBe(1);
      expect(Number((await rename(trx, { project, from: 'zzz', to: 'y.md' })).numAffectedRows)).toBe(0);
      expect(await byPath(trx, { project, path: 'd.md' })).toHaveLength(1);
    });
  });

  it('refuses text holding NUL as the database guard does, and a stand-in used inside other text', async () => {
    const db = t.platform.db.kysely;
    await expect(byPath(db, { project, path: 'a\u0000.md' })).rejects.toMatchObject({ code: 'invalid_text' });
    const glued = hotQuery((q, a: { path: string }) => q.selectFrom('files').select('path').where('path', 'like', `${a.path}/%`));
    await expect(glued(db, { path: 'x' })).rejects.toThrow(/inside other text/);
  });
});
