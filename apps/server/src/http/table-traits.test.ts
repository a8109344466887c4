import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '@stoa/db/testing';
import {
  createAgent,
  createConversation,
  createFolder,
  createToken,
  deleteFile,
  listTrash,
  lockPath,
  operations,
  putFile,
  putPage,
  toolOperations,
  type Ctx,
  type Operation,
  type ToolOperation,
} from '@stoa/core/testing';
import { createTestApp, type TestApp } from './test-app.js';

/**
 * The runner's steps, generated from the table (issue 26): every operation and every agent tool that an agent's
 * change reaches counts in its write window, is refused in a conversation it does not take part in, is refused
 * under someone else's WebDAV lock when it declares what it touches, and is refused over the quota when it
 * declares what it charges. A new changing operation or tool without a sample here fails the first test.
 */

/** One agent change through a door: the request and what the admin prepares first (unique paths per call). */
interface Sample {
  setup?: (admin: Ctx, base: string, n: number) => Promise<void>;
  /** The path a lock is put on to refuse the change. */
  locked?: (base: string, n: number) => string;
  request: (base: string, n: number) => { method: string; url: string; body?: unknown; raw?: string };
}

const file = (base: string, n: number, name: string) => `${base}/s${n}/${name}`;
const q = (o: Record<string, string>) => '?' + new URLSearchParams(o).toString();
const P = '/projects/default';

/** The trash entry each restore sample made, by its number (a request is built without a database round trip). */
const trashed = new Map<number, string>();

/** Samples of the table's operations an agent's change reaches over HTTP. */
const httpSamples: Record<string, Sample> = {
  'files.upload': {
    locked: (b, n) => file(b, n, 'u.md'),
    request: (b, n) => ({ method: 'PUT', url: `${P}/files/content${q({ path: file(b, n, 'u.md') })}`, raw: 'x' }),
  },
  'files.move': {
    setup: async (a, b, n) => void (await putFile(a, { path: file(b, n, 'm.md'), source: 'x' })),
    locked: (b, n) => file(b, n, 'm.md'),
    request: (b, n) => ({ method: 'POST', url: `${P}/files/move`, body: { from: file(b, n, 'm.md'), to: file(b, n, 'm2.md') } }),
  },
  'files.delete': {
    setup: async (a, b, n) => void (await putFile(a, { path: file(b, n, 'd.md'), source: 'x' })),
    locked: (b, n) => file(b, n, 'd.md'),
    request: (b, n) => ({ method: 'DELETE', url: `${P}/files${q({ path: file(b, n, 'd.md') })}` }),
  },
  'files.restore': {
    setup: async (a, b, n) => {
      await putFile(a, { path: file(b, n, 'r.md'), source: 'one' });
      await putFile(a, { path: file(b, n, 'r.md'), source: 'two' });
    },
    locked: (b, n) => file(b, n, 'r.md'),
    request: (b, n) => ({ method: 'POST', url: `${P}/files/restore`, body: { path: file(b, n, 'r.md'), version: 1 } }),
  },
  'folders.create': {
    locked: (b, n) => `${b}/s${n}`,
    setup: async (a, b, n) => void (await createFolder(a, { path: `${b}/s${n}` })),
    request: (b, n) => ({ method: 'POST', url: `${P}/folders`, body: { path: file(b, n, 'new') } }),
  },
  'folders.move': {
    setup: async (a, b, n) => void (await createFolder(a, { path: file(b, n, 'f') })),
    locked: (b, n) => file(b, n, 'f'),
    request: (b, n) => ({ method: 'POST', url: `${P}/folders/move`, body: { from: file(b, n, 'f'), to: file(b, n, 'g') } }),
  },
  'folders.delete': {
    setup: async (a, b, n) => void (await createFolder(a, { path: file(b, n, 'f') })),
    locked: (b, n) => file(b, n, 'f'),
    request: (b, n) => ({ method: 'DELETE', url: `${P}/folders${q({ path: file(b, n, 'f') })}` }),
  },
  'trash.restore': {
    setup: async (a, b, n) => {
      await putFile(a, { path: file(b, n, 't.md'), source: 'x' });
      await deleteFile(a, { path: file(b, n, 't.md') });
      trashed.set(n, (await listTrash(a)).items.find((i) => i.path === file(b, n, 't.md'))!.id);
    },
    request: (_b, n) => ({ method: 'POST', url: `${P}/trash/${trashed.get(n)}/restore` }),
  },
  'wiki.put': { request: (_b, n) => ({ method: 'PUT', url: `${P}/wiki/page`, body: { path: `w${n}/a`, text: 'x' } }) },
  'wiki.rename': {
    setup: async (a, _b, n) => void (await putPage(a, { path: `w${n}/r`, text: 'x' })),
    request: (_b, n) => ({ method: 'POST', url: `${P}/wiki/rename`, body: { path: `w${n}/r`, title: 'T' } }),
  },
  'wiki.move': {
    setup: async (a, _b, n) => void (await putPage(a, { path: `w${n}/m`, text: 'x' })),
    request: (_b, n) => ({ method: 'POST', url: `${P}/wiki/move`, body: { from: `w${n}/m`, to: `w${n}/m2` } }),
  },
  'wiki.delete': {
    setup: async (a, _b, n) => void (await putPage(a, { path: `w${n}/d`, text: 'x' })),
    request: (_b, n) => ({ method: 'DELETE', url: `${P}/wiki/page${q({ path: `w${n}/d` })}` }),
  },
  'wiki.import': { request: (_b, n) => ({ method: 'POST', url: `${P}/wiki/import`, body: { files: [{ file: 'i.md', text: '# I' }], prefix: `imp${n}` } }) },
  'memory.set': { request: (_b, n) => ({ method: 'PUT', url: `${P}/memory/file`, body: { file: 'MEMORY.md', content: `set ${n}` } }) },
  'memory.append': { request: (_b, n) => ({ method: 'POST', url: `${P}/memory/append`, body: { file: 'MEMORY.md', text: `line ${n}` } }) },
  // Runs after memory.set's sample, which gave the conversation's MEMORY.md a version 1.
  'memory.restore': { request: () => ({ method: 'POST', url: `${P}/memory/restore`, body: { file: 'MEMORY.md', version: 1 } }) },
  'turn.commit': { request: (_b, n) => ({ method: 'POST', url: `${P}/turns/commit`, body: { files: [{ file: 'MEMORY.md', content: `turn ${n}` }] } }) },
};

/**
 * Changes counted where their parts meet the same mutator as a sample above: a direct upload commits like
 * files.upload (its parts are sent first), a form upload is files.upload once per part.
 */
const COVERED_BY = { 'uploads.finish': 'files.upload', 'files.uploadForm': 'files.upload' } as Record<string, string>;

/** Samples of the agent tools that change something, called through the tool route as the model would. */
const toolSamples: Record<string, Sample> = {
  ws_write_file: { locked: (b, n) => file(b, n, 'w.md'), request: (_b, n) => tool('ws_write_file', { path: `s${n}/w.md`, content: 'x' }) },
  create_file: { locked: (b, n) => file(b, n, 'c.md'), request: (_b, n) => tool('create_file', { file_path: `s${n}/c.md`, file_contents: 'x' }) },
  str_replace: {
    setup: async (a, b, n) => void (await putFile(a, { path: file(b, n, 'e.md'), source: 'one' })),
    locked: (b, n) => file(b, n, 'e.md'),
    request: (_b, n) => tool('str_replace', { file_path: `s${n}/e.md`, old_str: 'one', new_str: 'two' }),
  },
  edit_file: {
    setup: async (a, b, n) => void (await putFile(a, { path: file(b, n, 'e.md'), source: 'one two' })),
    locked: (b, n) => file(b, n, 'e.md'),
    request: (_b, n) =>
      tool('edit_file', {
        path: `s${n}/e.md`,
        edits: [
          { old_str: 'one', new_str: '1' },
          { old_str: 'two', new_str: '2' },
        ],
      }),
  },
  restore_version: {
    setup: async (a, b, n) => {
      await putFile(a, { path: file(b, n, 'v.md'), source: 'one' });
      await putFile(a, { path: file(b, n, 'v.md'), source: 'two' });
    },
    locked: (b, n) => file(b, n, 'v.md'),
    request: (_b, n) => tool('restore_version', { path: `s${n}/v.md`, version: 1 }),
  },
  full_file_rewrite: {
    setup: async (a, b, n) => void (await putFile(a, { path: file(b, n, 'f.md'), source: 'one' })),
    locked: (b, n) => file(b, n, 'f.md'),
    request: (_b, n) => tool('full_file_rewrite', { file_path: `s${n}/f.md`, file_contents: 'two' }),
  },
  ws_delete_file: {
    setup: async (a, b, n) => void (await putFile(a, { path: file(b, n, 'd.md'), source: 'x' })),
    locked: (b, n) => file(b, n, 'd.md'),
    request: (_b, n) => tool('ws_delete_file', { path: `s${n}/d.md` }),
  },
  delete_file: {
    setup: async (a, b, n) => void (await putFile(a, { path: file(b, n, 'd.md'), source: 'x' })),
    locked: (b, n) => file(b, n, 'd.md'),
    request: (_b, n) => tool('delete_file', { file_path: `s${n}/d.md` }),
  },
  create_folder: {
    setup: async (a, b, n) => void (await createFolder(a, { path: `${b}/s${n}` })),
    locked: (b, n) => `${b}/s${n}`,
    request: (_b, n) => tool('create_folder', { folder_path: `s${n}/new` }),
  },
  move_file: {
    setup: async (a, b, n) => void (await putFile(a, { path: file(b, n, 'm.md'), source: 'x' })),
    locked: (b, n) => file(b, n, 'm.md'),
    request: (_b, n) => tool('move_file', { from_path: `s${n}/m.md`, to_path: `s${n}/m2.md` }),
  },
  wiki_put: { request: (_b, n) => tool('wiki_put', { path: `t${n}/p`, text: 'x' }) },
  wiki_edit: {
    setup: async (a, _b, n) => void (await putPage(a, { path: `t${n}/e`, text: 'one' })),
    request: (_b, n) => tool('wiki_edit', { path: `t${n}/e`, old_str: 'one', new_str: 'two' }),
  },
  memory_append: { request: () => tool('memory_append', { file: 'MEMORY.md', text: 'x' }) },
  memory_set: { request: () => tool('memory_set', { file: 'MEMORY.md', content: 'x' }) },
  // Runs after memory_set's sample, which leaves MEMORY.md holding "x"; the edit keeps it so.
  memory_edit: { request: () => tool('memory_edit', { file: 'MEMORY.md', old_str: 'x', new_str: 'x' }) },
  docs_understand: {
    setup: async (a, b, n) => void (await putFile(a, { path: file(b, n, 'doc.md'), source: '# Doc' })),
    request: (b, n) => tool('docs_understand', { path: file(b, n, 'doc.md') }),
  },
};

function tool(name: string, args: Record<string, unknown>) {
  return { method: 'POST', url: `${P}/tools/${name}/call`, body: { arguments: args } };
}

const changing = (o: Operation | ToolOperation) => o.traits.mutates && (o.traits.agent === 'change' || o.traits.window !== undefined);

describe.each(testDbKinds())('the runner steps, for every changing operation and tool (%s)', (kind) => {
  let s: TestApp;
  let admin: Ctx;
  let token: string;
  let base: string;
  let own: string;
  let foreign: string;
  let n = 0;

  beforeAll(async () => {
    // One conversation takes every sample's change: its window must not be what refuses them.
    s = await createTestApp(kind, { agentWritesPerConversation: 1000 });
    admin = await s.t.admin();
    // An agent confined to its folder (every file change lands there), in a conversation of its own.
    const agent = await createAgent(admin, { name: 'Writer', files: 'on', write: 'own', read: 'own' });
    base = `agents/${agent.id}`;
    token = (await createToken(admin, { agent: agent.id })).token;
    own = (await createConversation(admin, { members: [agent.id] })).id;
    const other = await createAgent(admin, { name: 'Other', files: 'on' });
    foreign = (await createConversation(admin, { members: [other.id] })).id;
  });
  afterAll(() => s?.close());

  /** Sends a sample as the agent in `conversation`, or as a person with `person`'s token. */
  async function send(sample: Sample, conversation: string, person?: string): Promise<{ status: number; code?: string; body: any }> {
    const i = ++n;
    await sample.setup?.(admin, base, i);
    const r = sample.request(base, i);
    const res = await s.app.inject({
      method: r.method as 'POST',
      url: `/api/v1${r.url}`,
      headers: {
        authorization: `Bearer ${person ?? token}`,
        ...(person ? {} : { 'x-stoa-conversation': conversation }),
        ...(r.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(r.raw !== undefined ? { payload: r.raw } : r.body !== undefined ? { payload: JSON.stringify(r.body) } : {}),
    });
    const body = String(res.headers['content-type'] ?? '').includes('json') ? res.json() : res.body;
    return { status: res.statusCode, code: body?.code, body };
  }

  async function writes(conversation: string): Promise<number> {
    const rows = await s.t.platform.db.kysely.selectFrom('agent_write_windows').select('writes').where('conversation_key', '=', conversation).execute();
    return rows.reduce((sum, r) => sum + Number(r.writes), 0);
  }

  const ok = (r: { status: number; body: any }) => r.status < 300 && r.body?.refused !== true;

  it('has a sample for every operation and tool an agent changes something with', () => {
    const ops = operations.filter((o) => o.scope === 'project' && changing(o));
    for (const o of ops) expect(httpSamples[o.id] ?? httpSamples[COVERED_BY[o.id]!], o.id).toBeDefined();
    for (const t of toolOperations.filter(changing)) expect(toolSamples[t.id], t.id).toBeDefined();
    // Every change an agent makes counts in its window, through every door (§9): memory files and wiki pages too.
    for (const o of [...ops, ...toolOperations.filter(changing)]) expect(o.traits.window, o.id).toBeDefined();
  });

  const cases = [
    ...Object.entries(httpSamples).map(([id, sample]) => ({ id, door: 'HTTP', sample, traits: operations.find((o) => o.id === id)!.traits })),
    ...Object.entries(toolSamples).map(([id, sample]) => ({ id, door: 'tool route', sample, traits: toolOperations.find((o) => o.id === id)!.traits })),
  ];

  // Understanding a file (docs_understand) derives data and changes nothing of the agent's: it declares no window.
  it.each(cases)('$id ($door): counts in the window when it changes something, and is refused in a foreign conversation', async ({ sample, traits }) => {
    const before = await writes(own);
    const r = await send(sample, own);
    expect(ok(r), JSON.stringify(r.body)).toBe(true);
    expect(await writes(own)).toBe(before + (traits.window ? 1 : 0));
    const f = await send(sample, foreign);
    expect(f.code, JSON.stringify(f.body)).toBe('not_in_conversation');
    expect(await writes(foreign)).toBe(0);
  });

  it.each(cases.filter((c) => c.door === 'HTTP' && c.traits.agent === 'change'))(
    "$id ($door): an agent's change is in its conversation's trace",
    async ({ sample }) => {
      const db = s.t.platform.db.kysely;
      const count = async () => (await db.selectFrom('tool_calls').select('id').where('conversation_id', '=', own).execute()).length;
      const before = await count();
      expect(ok(await send(sample, own))).toBe(true);
      expect(await count()).toBe(before + 1);
    },
  );

  it.each(cases.filter((c) => c.traits.audit))("$id ($door): a person's change leaves the audit entry it declares", async ({ sample, traits }) => {
    const db = s.t.platform.db.kysely;
    const count = async () => (await db.selectFrom('audit_log').select('id').where('action', '=', traits.audit!).execute()).length;
    const before = await count();
    expect(ok(await send(sample, own, await s.tokenFor('pat', 'admin')))).toBe(true);
    expect(await count()).toBeGreaterThan(before);
  });

  it.each(cases.filter((c) => c.traits.touches))("$id ($door): is refused under someone else's lock", async ({ sample }) => {
    const i = n + 1;
    await sample.setup?.(admin, base, i);
    await lockPath(admin, { path: sample.locked!(base, i), scope: 'exclusive', depth: 'infinity', owner: null });
    const r = await send({ ...sample, setup: undefined }, own);
    expect(r.code, JSON.stringify(r.body)).toBe('locked');
  });

  it.each(cases.filter((c) => c.traits.charges))('$id ($door): is refused over the quota', async ({ sample }) => {
    const db = s.t.platform.db.kysely;
    await db.updateTable('projects').set({ quota_bytes: 0 }).where('name', '=', 'default').execute();
    try {
      const r = await send(sample, own);
      expect(r.code, JSON.stringify(r.body)).toBe('quota_exceeded');
    } finally {
      await db.updateTable('projects').set({ quota_bytes: null }).where('name', '=', 'default').execute();
    }
  });
});
