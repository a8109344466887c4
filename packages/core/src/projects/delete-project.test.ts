import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import { contextFor, localAdminPrincipal } from '../context.js';
import { authenticate, createToken, type Principal } from './tokens.js';
import { createProjectFor, findProject } from './projects.js';
import { addMember } from './members.js';
import { createAgent } from '../agents/agents.js';
import { createConversation } from '../conversations/conversations.js';
import { putFile } from '../files/put-file.js';
import { readFileBytes } from '../files/read-file.js';
import { putPage } from '../wiki/put-page.js';
import { setMemory } from '../memory/memory.js';
import { deleteProject, listInstallationAudit, PROJECT_TABLES, resumeProjectDeletions } from './delete-project.js';
import type { Platform } from '../platform.js';

const kinds = process.env.STOA_TEST_PG === '1' ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);

/** Tables of the schema that have a project_id column. */
async function tablesWithProjectId(platform: Platform): Promise<string[]> {
  if (platform.db.dialect === 'postgres') {
    // Tables only: a view (search_all_blocks) holds no rows of its own.
    const r = await sql<{ table_name: string }>`select c.table_name from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
      where c.column_name = 'project_id' and c.table_schema = current_schema()`.execute(platform.db.kysely);
    return r.rows.map((x) => x.table_name).sort();
  }
  const r = await sql<{ name: string }>`select m.name from sqlite_master m, pragma_table_info(m.name) c
    where m.type = 'table' and c.name = 'project_id'`.execute(platform.db.kysely);
  return r.rows.map((x) => x.name).sort();
}

/** Rows the project still has in every table that names it. */
async function rowsLeft(platform: Platform, projectId: string): Promise<Record<string, number>> {
  const left: Record<string, number> = {};
  for (const table of await tablesWithProjectId(platform)) {
    const r = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)} where project_id = ${projectId}`.execute(platform.db.kysely);
    if (Number(r.rows[0]!.n) > 0) left[table] = Number(r.rows[0]!.n);
  }
  const p = await platform.db.kysely.selectFrom('projects').select('id').where('id', '=', projectId).execute();
  if (p.length) left.projects = p.length;
  return left;
}

describe.each(kinds)('deleting a project (%s)', (kind) => {
  let t: TestPlatform;
  let root: Principal;

  /** A project with something in every area: files, wiki, memory, an agent with a token, a member with a token. */
  async function fullProject(name: string, sharedText: string) {
    await createProjectFor(t.platform, root, { name });
    const ctx = await contextFor(t.platform, root, { project: name });
    await putFile(ctx, { path: 'docs/shared.txt', source: sharedText });
    await putFile(ctx, { path: 'docs/own.md', source: `only in ${name}` });
    await putFile(ctx, { path: 'docs/own.md', source: `only in ${name}, second version` });
    await putPage(ctx, { path: 'handbook/start', title: 'Start', text: `Welcome to ${name}. See [[handbook/next]].` });
    await setMemory(ctx, { file: 'AGENTS.md' }, 'Rule 1\n', { base: 0 });
    const agent = await createAgent(ctx, { name: 'Scribe', files: 'on', write: 'project', read: 'project' });
    const conv = await createConversation(ctx, { members: [agent.id] });
    const agentToken = (await createToken(ctx, { agent: agent.id })).token;
    await addMember(ctx, { user: `member-of-${name}`, role: 'editor' });
    const memberToken = (await createToken(ctx, { user: `member-of-${name}` })).token;
    return { ctx, agentToken, memberToken, conv };
  }

  beforeAll(async () => {
    t = await createTestPlatform(kind);
    root = await localAdminPrincipal(t.platform);
  }, 60_000);
  afterAll(() => t.cleanup());

  it('lists every table that holds project rows (a new one must be added to PROJECT_TABLES)', async () => {
    const listed = new Set(PROJECT_TABLES.map((x) => x.table));
    const missing = (await tablesWithProjectId(t.platform)).filter((name) => !listed.has(name));
    expect(missing).toEqual([]);
  });

  it('refuses anyone but the installation administrator, and a confirmation that is not the name', async () => {
    const { ctx } = await fullProject('guarded', 'guarded text');
    await addMember(ctx, { user: 'boss', role: 'admin' });
    const boss = await authenticate(t.platform, (await createToken(ctx, { user: 'boss' })).token);
    await expect(deleteProject(t.platform, boss, { project: 'guarded', confirm: 'guarded' })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(deleteProject(t.platform, root, { project: 'guarded', confirm: 'Guarded' })).rejects.toMatchObject({ code: 'bad_request' });
    await expect(deleteProject(t.platform, root, { project: 'nothing-here', confirm: 'nothing-here' })).rejects.toMatchObject({ code: 'not_found' });
    expect((await findProject(t.platform, 'guarded')).name).toBe('guarded');
  });

  it('removes everything of the project, stops its tokens, keeps content another project shares, and records it', async () => {
    const kept = await fullProject('kept', 'the same bytes in two projects');
    const doomed = await fullProject('doomed', 'the same bytes in two projects');
    const doomedId = doomed.ctx.project.id;

    const r = await deleteProject(t.platform, root, { project: 'doomed', confirm: 'doomed' });
    expect(r).toEqual({ id: doomedId, name: 'doomed', deleted: true });

    expect(await rowsLeft(t.platform, doomedId)).toEqual({});
    await expect(findProject(t.platform, 'doomed')).rejects.toMatchObject({ code: 'not_found' });
    await expect(contextFor(t.platform, root, { project: 'doomed' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(authenticate(t.platform, doomed.agentToken)).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(authenticate(t.platform, doomed.memberToken)).rejects.toMatchObject({ code: 'unauthorized' });

    // The other project, and the content it shares with the deleted one, are untouched.
    const keptAgent = await authenticate(t.platform, kept.agentToken);
    expect(keptAgent.kind).toBe('agent');
    expect((await readFileBytes(kept.ctx, 'docs/shared.txt')).bytes.toString()).toBe('the same bytes in two projects');
    expect(await rowsLeft(t.platform, kept.ctx.project.id)).not.toEqual({});

    const audit = await listInstallationAudit(t.platform, root, {});
    expect(audit[0]).toMatchObject({ action: 'project.delete', subject: 'doomed' });
    // The name is free again.
    expect((await createProjectFor(t.platform, root, { name: 'doomed' })).name).toBe('doomed');
  });

  it('hides a project at once when its deletion starts, and finishes an interrupted deletion at the next start', async () => {
    const half = await fullProject('half', 'half text');
    // As if the process died right after the deletion was marked: rows are still there.
    await t.platform.db.kysely.updateTable('projects').set({ deleting_at: new Date().toISOString() }).where('id', '=', half.ctx.project.id).execute();
    await expect(contextFor(t.platform, root, { project: 'half' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(contextFor(t.platform, await authenticate(t.platform, half.agentToken), {})).rejects.toMatchObject({ code: 'not_found' });
    expect(await rowsLeft(t.platform, half.ctx.project.id)).not.toEqual({});

    expect(await resumeProjectDeletions(t.platform)).toBe(1);
    expect(await rowsLeft(t.platform, half.ctx.project.id)).toEqual({});
  });
});
