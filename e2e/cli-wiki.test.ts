import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStoa, stoaJson } from './helpers/run-stoa.js';
import { startStoaServer, type StoaServer } from './helpers/serve.js';

const tmp = mkdtempSync(join(tmpdir(), 'stoa-cli-wiki-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// A story: each step builds on what the steps before it made, so the steps keep their order under --sequence.shuffle.
describe('stoa wiki (local mode, the real binary)', { timeout: 180_000, shuffle: false }, () => {
  const data = join(tmp, 'data');
  const stoa = (...args: string[]) => runStoa(['--data', data, ...args]);
  const json = (...args: string[]) => stoaJson(['--data', data, ...args, '--json']);

  it('put @file and put - (stdin), get --json and list --json in the §7 shapes', async () => {
    const file = join(tmp, 'refunds.md');
    writeFileSync(file, '# Refunds\nRefunds take 5 days. Billing: see [[handbook/billing|billing]] and [[handbook/gone]].\n');
    const put = await json('wiki', 'put', 'handbook/refunds', `@${file}`, '--title', 'Refunds');
    expect(put).toMatchObject({ path: 'handbook/refunds', title: 'Refunds', version: 1, created: true });
    const piped = await runStoa(['--data', data, 'wiki', 'put', 'handbook/billing', '-'], {
      input: 'Invoices go out monthly. Ask about refunds.\nSee [[handbook/refunds]].',
    });
    expect([piped.code, piped.stdout]).toEqual([0, 'Created handbook/billing — "Billing", version 1\n']);
    const page = await json('wiki', 'get', 'handbook/refunds');
    expect(page).toMatchObject({
      path: 'handbook/refunds',
      title: 'Refunds',
      version: 1,
      text: '# Refunds\nRefunds take 5 days. Billing: see [[handbook/billing|billing]] and [[handbook/gone]].\n',
      linkedHere: [{ path: 'handbook/billing', title: 'Billing' }],
    });
    expect(page.links).toEqual([
      { path: 'handbook/billing', label: 'billing', heading: null, missing: false },
      { path: 'handbook/gone', label: null, heading: null, missing: true },
    ]);
    const list = await json('wiki', 'list');
    expect(list.map((p: any) => ({ path: p.path, title: p.title, version: p.version }))).toEqual([
      { path: 'handbook/billing', title: 'Billing', version: 1 },
      { path: 'handbook/refunds', title: 'Refunds', version: 1 },
    ]);
  });

  it('wiki search --json finds Chinese and Russian pages best first with snippets', async () => {
    await json('wiki', 'put', 'docs/db', '我们使用的数据库每天备份。', '--title', '数据库指南');
    await json('wiki', 'put', 'ru/hello', 'Первая страница нашей вики.', '--title', 'Привет, мир');
    const zh = await json('wiki', 'search', '数据库');
    expect(zh.map((h: any) => h.path)).toEqual(['docs/db']);
    expect(zh[0]).toMatchObject({ path: 'docs/db', title: '数据库指南', snippet: expect.stringContaining('数据库'), score: expect.any(Number) });
    const ru = await json('wiki', 'search', 'привет');
    expect(ru.map((h: any) => h.path)).toEqual(['ru/hello']);
    expect((await json('wiki', 'search', 'страницы')).map((h: any) => h.path)).toEqual(['ru/hello']);
    const en = await json('wiki', 'search', 'refund');
    expect(en.map((h: any) => h.path)).toEqual(['handbook/refunds', 'handbook/billing']);
    expect(en[0].score).toBeGreaterThanOrEqual(en[1].score);
  });

  it('--base: a save on an outdated version fails with version_conflict and exit 1', async () => {
    expect((await json('wiki', 'put', 'handbook/refunds', 'Refunds take 7 days.', '--base', '1')).version).toBe(2);
    const late = await stoa('wiki', 'put', 'handbook/refunds', 'Refunds take 9 days.', '--base', '1');
    expect(late.code).toBe(1);
    expect(late.stderr).toMatch(/^error version_conflict: page "handbook\/refunds" is at version 2, not 1/);
    expect((await json('wiki', 'get', 'handbook/refunds')).text).toBe('Refunds take 7 days.');
  });

  it('history, show and diff', async () => {
    const hist = await json('wiki', 'history', 'handbook/refunds');
    expect(hist.map((v: any) => [v.version, v.author, v.action])).toEqual([
      [2, 'admin', 'edit'],
      [1, 'admin', 'create'],
    ]);
    expect(hist[0].time).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await json('wiki', 'show', 'handbook/refunds', '1')).text).toContain('5 days');
    const diff = await stoa('wiki', 'diff', 'handbook/refunds', '1', '2');
    expect(diff.code).toBe(0);
    expect(diff.stdout).toContain('-Refunds take 5 days.');
    expect(diff.stdout).toContain('+Refunds take 7 days.');
  });

  it('mv --dry-run lists moves and broken links; mv moves nested pages; rm keeps nested pages', async () => {
    await json('wiki', 'put', 'handbook', 'The handbook. Start with [[handbook/refunds]].', '--title', 'Handbook');
    const dry = await json('wiki', 'mv', 'handbook', 'guide', '--dry-run');
    expect(dry.moved).toEqual([
      { from: 'handbook', to: 'guide' },
      { from: 'handbook/billing', to: 'guide/billing' },
      { from: 'handbook/refunds', to: 'guide/refunds' },
    ]);
    expect(dry.brokenLinks.map((b: any) => `${b.page}→${b.target}`)).toEqual(['handbook→handbook/refunds', 'handbook/billing→handbook/refunds']);
    expect((await json('wiki', 'list')).map((p: any) => p.path)).toContain('handbook/refunds');
    await json('wiki', 'mv', 'handbook', 'guide');
    const paths = (await json('wiki', 'list')).map((p: any) => p.path);
    expect(paths).toEqual(expect.arrayContaining(['guide', 'guide/billing', 'guide/refunds']));
    expect(paths).not.toContain('handbook');
    expect((await json('wiki', 'get', 'guide')).links).toEqual([{ path: 'handbook/refunds', label: null, heading: null, missing: true }]);
    const rm = await stoa('wiki', 'rm', 'guide');
    expect([rm.code, rm.stdout]).toEqual([0, 'Deleted guide\n']);
    const gone = await stoa('wiki', 'get', 'guide');
    expect([gone.code, gone.stderr]).toEqual([1, 'error not_found: page "guide" does not exist\n']);
    expect((await json('wiki', 'get', 'guide/refunds')).version).toBe(2);
  });

  it('rejects paths that are not lowercase words', async () => {
    const bad = await stoa('wiki', 'put', 'notes/what?', 'x');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^error path_invalid: segment "what\?" may contain only lowercase letters/);
    expect((await json('wiki', 'put', 'Notes/Today', 'x')).path).toBe('notes/today');
  });

  it('wiki import DIR turns a folder of .md files into pages', async () => {
    const dir = join(tmp, 'old-wiki');
    mkdirSync(join(dir, 'Team'), { recursive: true });
    mkdirSync(join(dir, '.git'), { recursive: true });
    writeFileSync(join(dir, 'Team', 'On Call.md'), '# On-call rota\nWho is on call.');
    writeFileSync(join(dir, 'README.md'), 'No heading here.');
    writeFileSync(join(dir, 'notes.txt'), 'not markdown');
    writeFileSync(join(dir, '.git', 'x.md'), 'ignored');
    const r = await json('wiki', 'import', dir);
    expect(r.imported.map((i: any) => [i.file, i.path, i.title])).toEqual([
      ['README.md', 'readme', 'Readme'],
      ['Team/On Call.md', 'team/on-call', 'On-call rota'],
    ]);
    expect(r.skipped).toEqual([]);
    expect((await json('wiki', 'get', 'team/on-call')).text).toBe('# On-call rota\nWho is on call.');
  });
});

// A story: each step builds on what the steps before it made, so the steps keep their order under --sequence.shuffle.
describe('stoa wiki (remote mode): roles', { timeout: 180_000, shuffle: false }, () => {
  let server: StoaServer;
  let admin: string[];
  beforeAll(async () => {
    server = await startStoaServer();
    admin = ['--url', server.url, '--token', server.adminToken];
  }, 120_000);
  afterAll(() => server.stop(), 120_000);

  it('viewers read pages but may not change them; editors save; conflicts are 409 version_conflict', async () => {
    await stoaJson([...admin, 'members', 'add', 'vera', '--role', 'viewer', '--json']);
    await stoaJson([...admin, 'members', 'add', 'ed', '--role', 'editor', '--json']);
    const vera = ['--url', server.url, '--token', (await stoaJson([...admin, 'tokens', 'create', '--user', 'vera', '--json'])).token];
    const ed = ['--url', server.url, '--token', (await stoaJson([...admin, 'tokens', 'create', '--user', 'ed', '--json'])).token];
    expect((await stoaJson([...ed, 'wiki', 'put', 'faq', 'Questions and answers.', '--json'])).version).toBe(1);
    expect((await stoaJson([...vera, 'wiki', 'get', 'faq', '--json'])).text).toBe('Questions and answers.');
    const denied = await runStoa([...vera, 'wiki', 'put', 'faq', 'mine']);
    expect([denied.code, denied.stderr]).toEqual([1, 'error forbidden: viewers may read the wiki but not change it; an editor or admin can\n']);
    await stoaJson([...ed, 'wiki', 'put', 'faq', 'v2', '--base', '1', '--json']);
    const res = await fetch(`${server.url}/api/v1/projects/default/wiki/page`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ path: 'faq', text: 'late', base: 1 }),
    });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'version_conflict', currentVersion: 2 });
  });
});
