import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoaError } from '@stoa/contract';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import { contextFor, localAdminPrincipal } from '../context.js';
import type { Principal } from '../projects/tokens.js';
import { createProjectFor, listProjectsFor } from '../projects/projects.js';
import { addMember } from '../projects/members.js';
import { createAgent } from '../agents/agents.js';
import { putFile } from '../files/put-file.js';
import { deleteFile } from '../files/delete-file.js';
import { readFileBytes, statFile } from '../files/read-file.js';
import { listFilesRecursive } from '../files/list-files.js';
import { searchAll } from '../unified-search/search-all.js';
import { listAudit } from '../audit/audit.js';
import { declaredType, fileMetadata } from '../files/file-metadata.js';
import { runOperation } from '../operations/run-operation.js';
import { openVolume } from './open-volume.js';
import { listVolumes } from './list-volumes.js';
import { deleteProject } from '../projects/delete-project.js';
import { allTools } from '../tools/all-tools.js';
import { callTool } from '../operations/tool-ops.js';

const kinds = process.env.STOA_TEST_PG === '1' ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);

/** The code a promise is refused with. */
async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof StoaError) return e.code;
    throw e;
  }
  return 'ok';
}

describe.each(kinds)('volumes beyond projects (R1–R3, %s)', (kind) => {
  let t: TestPlatform;
  let root: Principal;
  let n = 0;

  beforeAll(async () => {
    t = await createTestPlatform(kind, { quotaBytes: 1000 });
    root = await localAdminPrincipal(t.platform);
  });
  afterAll(async () => t?.cleanup());

  /** A person with an installation-wide token, a member of a fresh project with `role`. */
  async function person(project: string, role: 'admin' | 'editor' | 'viewer'): Promise<Principal & { kind: 'user' }> {
    const admin = await contextFor(t.platform, root, { project });
    const m = await addMember(admin, { user: `p${++n}-${role}`, role });
    return { kind: 'user', userId: m.userId, name: `p${n}-${role}`, superuser: false };
  }
  async function project(): Promise<string> {
    const name = `proj-${++n}`;
    await createProjectFor(t.platform, root, { name });
    return name;
  }
  const agentPrincipal = async (agentId: string): Promise<Principal> => {
    const row = await t.platform.db.kysely.selectFrom('agents').select('project_id').where('id', '=', agentId).executeTakeFirstOrThrow();
    return { kind: 'agent', agentId, projectId: row.project_id };
  };
  const ctxOf = (p: Principal, volumeId: string) => contextFor(t.platform, p, { project: volumeId });

  it("a person's own volume: theirs alone — another person, the installation administrator and a made-up ID all get not_found", async () => {
    const name = await project();
    const alice = await person(name, 'editor');
    const bob = await person(name, 'editor');
    const scope = await openVolume(t.platform, alice, { catalog: 'users' });
    expect(scope).toMatchObject({ catalog: 'users', scopeId: alice.userId, userId: alice.userId, xpertId: null, projectId: null, access: 'admin' });
    expect(scope.volumeId).toMatch(/^vol_/);
    // Opening again is the same volume; the scope is typed fields, never one string built from them.
    expect((await openVolume(t.platform, alice, { catalog: 'users' })).volumeId).toBe(scope.volumeId);
    const mine = await ctxOf(alice, scope.volumeId);
    await putFile(mine, { path: 'notes/diary.md', source: 'zanzibar secret of alice' });
    expect((await readFileBytes(mine, 'notes/diary.md')).bytes.toString()).toBe('zanzibar secret of alice');

    const errs: string[] = [];
    for (const who of [bob, root]) {
      const e = await ctxOf(who, scope.volumeId).catch((x: StoaError) => x);
      expect(e).toBeInstanceOf(StoaError);
      errs.push((e as StoaError).message);
    }
    const ghost = await ctxOf(bob, 'vol_doesNotExist000').catch((x: StoaError) => x);
    // One answer for "someone else's" and "none": nothing tells bob that alice's volume exists.
    expect(new Set([...errs, (ghost as StoaError).message]).size).toBe(1);
    expect((ghost as StoaError).code).toBe('not_found');

    // Bob's own volume is another one, and his search there finds nothing of alice's.
    const bobs = await openVolume(t.platform, bob, { catalog: 'users' });
    expect(bobs.volumeId).not.toBe(scope.volumeId);
    const bobCtx = await ctxOf(bob, bobs.volumeId);
    await putFile(bobCtx, { path: 'b.md', source: 'bob writes here' });
    expect(await searchAll(bobCtx, { query: 'zanzibar' })).toEqual([]);
    expect((await searchAll(mine, { query: 'zanzibar' })).map((h) => h.path)).toEqual(['notes/diary.md']);
    // Nor does a search of the project, nor the lists of projects, show a volume.
    expect(await searchAll(await contextFor(t.platform, root, { project: name }), { query: 'zanzibar' })).toEqual([]);
    for (const who of [alice, bob, root]) {
      const ids = (await listProjectsFor(t.platform, who)).map((p) => p.id);
      expect(ids).not.toContain(scope.volumeId);
      expect(ids).not.toContain(bobs.volumeId);
    }
    // Its audit log is its own, and its owner reads it.
    const audit = await listAudit(mine, {});
    expect(audit.entries.map((a) => [a.action, a.path])).toEqual([
      ['file.upload', 'notes/diary.md'],
      ['volume.create', null],
    ]);
    expect(audit.entries[1]!.details).toMatchObject({ catalog: 'users', volumeId: scope.volumeId });
    // Every token of the person opens it, one minted inside a project too (issue 29); agents have none.
    expect((await openVolume(t.platform, { ...alice, projectId: 'prj_x' }, { catalog: 'users' })).volumeId).toBe(scope.volumeId);
    const agent = await createAgent(await contextFor(t.platform, root, { project: name }), { name: 'a', files: 'on' });
    expect(await code(openVolume(t.platform, await agentPrincipal(agent.id), { catalog: 'users' }))).toBe('not_found');
    expect(await code(ctxOf(await agentPrincipal(agent.id), scope.volumeId))).toBe('not_found');
  });

  it('each volume has its own quota', async () => {
    const name = await project();
    const alice = await person(name, 'editor');
    const projectCtx = await contextFor(t.platform, alice, { project: name });
    await putFile(projectCtx, { path: 'big.bin', source: Buffer.alloc(900) });
    const vol = await ctxOf(alice, (await openVolume(t.platform, alice, { catalog: 'users' })).volumeId);
    await putFile(vol, { path: 'v.bin', source: Buffer.alloc(900) });
    expect(await code(putFile(vol, { path: 'w.bin', source: Buffer.alloc(200) }))).toBe('quota_exceeded');
  });

  it("an agent's own volume (xperts): the agent reads, writes and deletes; its owner and project admins read; nobody else sees it", async () => {
    const name = await project();
    const owner = await person(name, 'editor');
    const admin = await person(name, 'admin');
    const other = await person(name, 'editor');
    const agent = await createAgent(await contextFor(t.platform, owner, { project: name }), { name: 'helper', files: 'on' });
    const peer = await createAgent(await contextFor(t.platform, owner, { project: name }), { name: 'peer', files: 'on' });
    const me = await agentPrincipal(agent.id);
    const scope = await openVolume(t.platform, me, { catalog: 'xperts' });
    expect(scope).toMatchObject({
      catalog: 'xperts',
      scopeId: agent.id,
      xpertId: agent.id,
      userId: null,
      access: 'write',
      actor: { kind: 'agent', id: agent.id },
    });
    const a = await ctxOf(me, scope.volumeId);
    // Anywhere in it, not only an agents/<id> folder, and delete too.
    await putFile(a, { path: 'work/out.txt', source: 'agent output' });
    await putFile(a, { path: 'tmp.txt', source: 'x' });
    await deleteFile(a, { path: 'tmp.txt' });

    for (const reader of [owner, admin]) {
      const c = await ctxOf(reader, scope.volumeId);
      expect((await readFileBytes(c, 'work/out.txt')).bytes.toString()).toBe('agent output');
      expect(await code(putFile(c, { path: 'x.txt', source: 'no' }))).toBe('forbidden');
    }
    expect((await openVolume(t.platform, owner, { catalog: 'xperts', agent: agent.id })).access).toBe('viewer');
    expect(await code(ctxOf(other, scope.volumeId))).toBe('not_found');
    expect(await code(openVolume(t.platform, other, { catalog: 'xperts', agent: agent.id }))).toBe('not_found');
    expect(await code(ctxOf(await agentPrincipal(peer.id), scope.volumeId))).toBe('not_found');
    // File access off stays off in its own volume too.
    await t.platform.db.kysely.updateTable('agents').set({ files_enabled: 0 }).where('id', '=', agent.id).execute();
    expect(await code(putFile(await ctxOf(me, scope.volumeId), { path: 'y.txt', source: 'y' }))).toBe('forbidden');
  });

  it("a person's private agent (user-xperts): one volume per person and agent, the person kept apart from the agent", async () => {
    const name = await project();
    const owner = await person(name, 'editor');
    const bob = await person(name, 'editor');
    const viewer = await person(name, 'viewer');
    const agent = await createAgent(await contextFor(t.platform, owner, { project: name }), { name: 'mine', files: 'on' });
    const ownerScope = await openVolume(t.platform, owner, { catalog: 'user-xperts', agent: agent.id });
    expect(ownerScope).toMatchObject({ catalog: 'user-xperts', scopeId: agent.id, xpertId: agent.id, userId: owner.userId, access: 'admin' });
    // Someone else's agent gives no more than one's project role (issue 26): an editor edits theirs, a viewer cannot make one.
    const bobScope = await openVolume(t.platform, bob, { catalog: 'user-xperts', agent: agent.id });
    expect(bobScope).toMatchObject({ scopeId: agent.id, userId: bob.userId, access: 'editor' });
    expect(await code(openVolume(t.platform, viewer, { catalog: 'user-xperts', agent: agent.id }))).toBe('not_found');
    expect(bobScope.volumeId).not.toBe(ownerScope.volumeId);
    await putFile(await ctxOf(bob, bobScope.volumeId), { path: 'b.txt', source: 'bob only' });
    expect(await code(ctxOf(owner, bobScope.volumeId))).toBe('not_found');
    expect(await code(ctxOf(bob, ownerScope.volumeId))).toBe('not_found');
    // The agent works in its owner's volume, not in bob's.
    const me = await agentPrincipal(agent.id);
    expect((await openVolume(t.platform, me, { catalog: 'user-xperts' })).volumeId).toBe(ownerScope.volumeId);
    await putFile(await ctxOf(me, ownerScope.volumeId), { path: 'a.txt', source: 'for the owner' });
    expect(await code(ctxOf(me, bobScope.volumeId))).toBe('not_found');
    // A token confined to another project does not reach it, though its person owns the agent.
    expect(await code(ctxOf({ ...owner, projectId: 'prj_elsewhere0000' }, ownerScope.volumeId))).toBe('not_found');
    // An outsider of the agent's project has no such volume.
    const outsider = await person(await project(), 'admin');
    expect(await code(openVolume(t.platform, outsider, { catalog: 'user-xperts', agent: agent.id }))).toBe('not_found');
  });

  it("knowledge bases and skill packages take their project's roles; outsiders get not_found", async () => {
    const name = await project();
    const editor = await person(name, 'editor');
    const viewer = await person(name, 'viewer');
    const outsider = await person(await project(), 'admin');
    // A viewer cannot bring one into being; an editor can, by name.
    expect(await code(openVolume(t.platform, viewer, { catalog: 'knowledges', project: name, name: 'Handbook' }))).toBe('not_found');
    const kb = await openVolume(t.platform, editor, { catalog: 'knowledges', project: name, name: 'Handbook' });
    expect(kb).toMatchObject({ catalog: 'knowledges', knowledgeId: kb.volumeId, scopeId: kb.volumeId, name: 'Handbook', access: 'editor' });
    const skill = await openVolume(t.platform, editor, { catalog: 'skills', project: name, name: 'Handbook' });
    expect(skill.volumeId).not.toBe(kb.volumeId);
    // Their creation is in the project's audit log, once, with who made them (opening again records nothing).
    await openVolume(t.platform, editor, { catalog: 'knowledges', project: name, name: 'Handbook' });
    const projectAudit = await listAudit(await contextFor(t.platform, root, { project: name }), { action: 'volume.create' });
    expect(projectAudit.entries.map((a) => [a.actor.name, a.details])).toEqual([
      [editor.name, { catalog: 'skills', volumeId: skill.volumeId, name: 'Handbook' }],
      [editor.name, { catalog: 'knowledges', volumeId: kb.volumeId, name: 'Handbook' }],
    ]);
    expect(skill.skillId).toBe(skill.volumeId);
    await putFile(await ctxOf(editor, kb.volumeId), { path: 'policy.md', source: 'refunds within 30 days' });
    const v = await ctxOf(viewer, (await openVolume(t.platform, viewer, { catalog: 'knowledges', project: name, name: 'Handbook' })).volumeId);
    expect((await statFile(v, 'policy.md')).size).toBe(22);
    expect(await code(putFile(v, { path: 'x.md', source: 'no' }))).toBe('forbidden');
    expect(await code(openVolume(t.platform, outsider, { catalog: 'knowledges', project: name, name: 'Handbook' }))).toBe('not_found');
    expect(await code(ctxOf(outsider, kb.volumeId))).toBe('not_found');
    // Agents of the project: read with project-wide reading, nothing when confined to their own folder.
    const reader = await createAgent(await contextFor(t.platform, editor, { project: name }), { name: 'r', files: 'on' });
    const confined = await createAgent(await contextFor(t.platform, editor, { project: name }), { name: 'c', files: 'on', read: 'own' });
    const rc = await ctxOf(await agentPrincipal(reader.id), kb.volumeId);
    expect((await listFilesRecursive(rc, {})).files.map((f) => f.path)).toEqual(['policy.md']);
    expect(await code(putFile(rc, { path: 'y.md', source: 'no' }))).toBe('forbidden');
    expect(await code(statFile(await ctxOf(await agentPrincipal(confined.id), kb.volumeId), 'policy.md'))).toBe('forbidden');
    // Listed for the project's readers; an agent confined to its folder sees none; an outsider reaches no list.
    const listed = await listVolumes(t.platform, viewer, { project: name });
    expect(listed.map((v) => [v.catalog, v.name])).toEqual([
      ['knowledges', 'Handbook'],
      ['skills', 'Handbook'],
    ]);
    expect(await listVolumes(t.platform, await agentPrincipal(confined.id), { project: name })).toEqual([]);
    expect(await code(contextFor(t.platform, outsider, { project: name }))).toBe('not_found');
    // A volume holds files only: no members, tokens, agents, wiki or memory of its own, nor their tools.
    const ec = await ctxOf(editor, kb.volumeId);
    for (const [id, input] of [
      ['members.add', { user: 'x', role: 'admin' }],
      ['tokens.create', {}],
      ['agents.create', { name: 'x' }],
      ['wiki.put', { path: 'p', body: 'x' }],
      ['memory.get', { file: 'AGENTS.md' }],
    ] as const)
      expect([id, await code(runOperation(ec, id, { project: kb.volumeId, ...input }))]).toEqual([id, 'forbidden']);
    expect(allTools(ec).map((x) => x.name)).not.toContain('wiki_put');
    expect((await callTool(rc, 'wiki_list', {})).refused).toBe(true);
    // Hostile names are refused with a stable code.
    for (const bad of ['../x', '', ' ', 'a/b', 'x'.repeat(101)])
      expect(await code(openVolume(t.platform, editor, { catalog: 'skills', project: name, name: bad }))).toBe('bad_request');
  });

  it("deleting a project deletes its knowledge bases, skill packages and its agents' volumes, not its people's own", async () => {
    const name = await project();
    const editor = await person(name, 'editor');
    const agent = await createAgent(await contextFor(t.platform, editor, { project: name }), { name: 'doomed', files: 'on' });
    const kb = await openVolume(t.platform, editor, { catalog: 'knowledges', project: name, name: 'KB' });
    const ax = await openVolume(t.platform, await agentPrincipal(agent.id), { catalog: 'xperts' });
    const ux = await openVolume(t.platform, editor, { catalog: 'user-xperts', agent: agent.id });
    const own = await openVolume(t.platform, editor, { catalog: 'users' });
    for (const v of [kb, ax, ux, own])
      await putFile(await ctxOf(v === ax ? await agentPrincipal(agent.id) : editor, v.volumeId), { path: 'f.txt', source: 'x' });
    await deleteProject(t.platform, root, { project: name, confirm: name });
    for (const v of [kb, ax, ux]) {
      expect(await code(ctxOf(editor, v.volumeId))).toBe('not_found');
      expect(await t.platform.db.kysely.selectFrom('files').select('id').where('project_id', '=', v.volumeId).execute()).toEqual([]);
      expect(await t.platform.db.kysely.selectFrom('projects').select('id').where('id', '=', v.volumeId).execute()).toEqual([]);
    }
    expect((await statFile(await ctxOf(editor, own.volumeId), 'f.txt')).size).toBe(1);
  });

  it('metadata is stored with the version and comes back with the file; a later version without it has none', async () => {
    const ctx = await t.admin();
    const r = await putFile(ctx, { path: 'meta/a.txt', source: 'a', metadata: { job: '42', source: 'report' } });
    expect(r.file.metadata).toEqual({ job: '42', source: 'report' });
    expect((await statFile(ctx, 'meta/a.txt')).metadata).toEqual({ job: '42', source: 'report' });
    await putFile(ctx, { path: 'meta/a.txt', source: 'b' });
    expect((await statFile(ctx, 'meta/a.txt')).metadata).toBeNull();
    expect(fileMetadata('{"a":"1"}')).toEqual({ a: '1' });
    expect(fileMetadata('{}')).toBeNull();
    for (const bad of [
      '[1]',
      '"s"',
      '{"a":1}',
      '{"a b":"1"}',
      'not json',
      `{"a":"${'x'.repeat(5000)}"}`,
      '{"a":"\\u0000"}',
      JSON.stringify(Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, 'v']))),
    ])
      expect(() => fileMetadata(bad)).toThrow(StoaError);
  });

  it("a declared type is checked against the name: the name's own, or an inert one for a name that says nothing", () => {
    expect(declaredType('a.csv', 'text/csv; charset=utf-8')).toBe('text/csv');
    expect(declaredType('out/report', 'text/csv')).toBe('text/csv');
    expect(declaredType('out/picture', 'image/png')).toBe('image/png');
    expect(declaredType('a.csv', undefined)).toBeUndefined();
    for (const [path, type] of [
      ['a.png', 'text/html'],
      ['out/page', 'text/html'],
      ['out/drawing', 'image/svg+xml'],
      ['a.txt', 'application/pdf'],
      ['x', 'text/javascript'],
    ])
      expect(() => declaredType(path!, type)).toThrow(StoaError);
  });
});
