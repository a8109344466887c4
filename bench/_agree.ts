import { createTestDb } from '@stoa/db';
import { sql, type Kysely } from 'kysely';
import { indexDoc, removeDoc, searchDocs, setDocVisibility } from '../packages/core/src/search/index.js';
import { seedProject } from '../packages/core/src/search/test-helpers.js';
const op = process.argv[2];
const doc = (projectId: string, refId: string, title: string, body: string) => ({ projectId, kind: 'wiki', refId, path: `q/${refId}`, title, body, visibility: 'project', updatedAt: 'x' });
for (const kind of ['sqlite', 'postgres'] as const) {
  const t = await createTestDb(kind); const db = t.db.kysely as Kysely<any>;
  await seedProject(db, 'prj_a');
  for (let i = 0; i < 10; i++) await indexDoc(db, kind, doc('prj_a', `d${i}`, 'T', i % 3 === 0 ? `speed boundary ${'filler '.repeat(i)} layer ${i}` : `other text ${i}`));
  if (op === 'replace') await indexDoc(db, kind, doc('prj_a', 'd1', 'Heat', 'Rewritten heat flows boundary layer.'));
  if (op === 'remove') { await indexDoc(db, kind, doc('prj_a', 'tmp', 'Temporary', 'boundary boundary speed layer')); await removeDoc(db, kind, 'prj_a', 'wiki', 'tmp'); }
  if (op === 'vis') await setDocVisibility(db, kind, 'prj_a', 'wiki', 'd3', 'channel:hidden');
  if (op === 'cascade') { await seedProject(db, 'prj_c'); await indexDoc(db, kind, doc('prj_c', 'x1', 'Speed', 'speed of the boundary layer')); await sql`delete from projects where id = 'prj_c'`.execute(db); }
  const h = await searchDocs(db, kind, { projectId: 'prj_a', query: 'speed', visibility: ['project'] });
  console.log(kind, op, h.slice(0, 3).map((x) => `${x.refId}:${x.score.toFixed(6)}`).join(' '));
  await t.cleanup();
}
