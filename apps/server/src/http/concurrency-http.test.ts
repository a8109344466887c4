import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeViolations } from '@stoa/core/testing';
import { createTestApp, type TestApp } from './test-app.js';

const kinds = process.env.STOA_TEST_PG === '1' ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);

/** How many requests run at once on one target: enough for PostgreSQL's pool to run them side by side. */
const N = 10;

/**
 * Issue 26: every mutating file and folder operation, N times in parallel on one target through the real HTTP
 * server, then the doctor's invariants (usage equals the files' sum, folders consistent) and no lost acknowledged
 * change (every 2xx is in the final state). SQLite serialises writers; PostgreSQL runs them side by side, so there
 * the row locks of the file mutator decide who wins.
 */
describe.each(kinds)('N parallel changes of one target (%s)', (kind) => {
  let s: TestApp;
  let editor: string;

  beforeAll(async () => {
    s = await createTestApp(kind);
    editor = await s.tokenFor('racer', 'editor');
  });
  afterAll(async () => s?.close());

  const api = (method: string, url: string, body?: unknown) => s.api(method, url, editor, body);
  const put = (path: string, bytes: string, query = '') =>
    s.api('PUT', `/projects/default/files/content?path=${encodeURIComponent(path)}${query}`, editor, bytes, { 'content-type': 'application/octet-stream' });
  const parallel = <T>(f: (i: number) => Promise<T>) => Promise.all(Array.from({ length: N }, (_, i) => f(i)));
  const ok = <T extends { status: number }>(rs: T[]) => rs.filter((r) => r.status >= 200 && r.status < 300);
  /** Every answer is a success or one of the refusals a race may give, never a 500. */
  const expectOnly = (rs: { status: number }[], allowed: number[]) => expect(rs.filter((r) => !(r.status < 300 || allowed.includes(r.status)))).toEqual([]);
  const invariants = async () => expect(await storeViolations(await s.t.admin())).toEqual([]);
  const exists = async (path: string) => (await api('GET', `/projects/default/files/stat?path=${encodeURIComponent(path)}`)).status === 200;
  const folderExists = async (path: string) => (await api('GET', `/projects/default/folders/stat?path=${encodeURIComponent(path)}`)).status === 200;
  /** A folder of three files (10 bytes each) and a subfolder. */
  const seedFolder = async (dir: string) => {
    for (const f of ['a.txt', 'b.txt', 'sub/c.txt']) expect((await put(`${dir}/${f}`, '0123456789')).status).toBeLessThan(300);
  };

  it('uploads replacing one file: every 2xx is a version', async () => {
    const rs = await parallel((i) => put('up/same.txt', `version from writer ${i}`));
    expectOnly(rs, [409]);
    const versions = await api('GET', '/projects/default/files/versions?path=up/same.txt');
    expect(versions.body.length).toBe(ok(rs).length);
    await invariants();
  });

  it('uploads creating one file: exactly one wins, the others get already_exists', async () => {
    const rs = await parallel((i) => put('up/new.txt', `creator ${i}`, '&create=true'));
    expectOnly(rs, [409]);
    expect(ok(rs)).toHaveLength(1);
    await invariants();
  });

  it('restores of one file: every 2xx is a version', async () => {
    await put('up/restore.txt', 'first');
    await put('up/restore.txt', 'second');
    const rs = await parallel(() => api('POST', '/projects/default/files/restore', { path: 'up/restore.txt', version: 1 }));
    expectOnly(rs, [409]);
    const versions = await api('GET', '/projects/default/files/versions?path=up/restore.txt');
    expect(versions.body.length).toBe(2 + ok(rs).length);
    await invariants();
  });

  it('deletes of one file: exactly one wins, usage stays exact', async () => {
    await put('del/one.txt', '0123456789');
    const rs = await parallel(() => api('DELETE', '/projects/default/files?path=del/one.txt'));
    expectOnly(rs, [404]);
    expect(ok(rs)).toHaveLength(1);
    expect(await exists('del/one.txt')).toBe(false);
    await invariants();
  });

  it('restores of one trash entry, and purges racing them: exactly one wins, the file comes back once or not at all', async () => {
    await put('bin/one.txt', '0123456789');
    expect((await api('DELETE', '/projects/default/files?path=bin/one.txt')).status).toBe(200);
    const entry = (await api('GET', '/projects/default/trash')).body.items.find((i: { path: string }) => i.path === 'bin/one.txt');
    const rs = await parallel(() => api('POST', `/projects/default/trash/${entry.id}/restore`));
    expectOnly(rs, [404]);
    expect(ok(rs)).toHaveLength(1);
    expect(await exists('bin/one.txt')).toBe(true);
    expect(await exists('bin/one (restored).txt')).toBe(false);
    expect((await api('DELETE', '/projects/default/files?path=bin/one.txt')).status).toBe(200);
    const again = (await api('GET', '/projects/default/trash')).body.items.find((i: { path: string }) => i.path === 'bin/one.txt');
    const mixed = await parallel((i) =>
      i % 2 ? api('POST', `/projects/default/trash/${again.id}/restore`) : s.api('DELETE', `/projects/default/trash/${again.id}`, s.adminToken),
    );
    expectOnly(mixed, [404]);
    expect(ok(mixed)).toHaveLength(1);
    await invariants();
  });

  it('moves of one file to different targets: exactly one wins and the file is where it said', async () => {
    await put('mv/file.txt', 'moving');
    const rs = await parallel((i) => api('POST', '/projects/default/files/move', { from: 'mv/file.txt', to: `mv/to-${i}.txt` }));
    expectOnly(rs, [404]);
    expect(ok(rs)).toHaveLength(1);
    expect(await exists(ok(rs)[0]!.body.path)).toBe(true);
    await invariants();
  });

  it('moves of different files to one target: exactly one wins, nothing is overwritten', async () => {
    for (let i = 0; i < N; i++) await put(`mv2/src-${i}.txt`, `source ${i}`);
    const rs = await parallel((i) => api('POST', '/projects/default/files/move', { from: `mv2/src-${i}.txt`, to: 'mv2/target.txt' }));
    expectOnly(rs, [409]);
    expect(ok(rs)).toHaveLength(1);
    expect((await api('GET', '/projects/default/folders/stat?path=mv2')).body.fileCount).toBe(N);
    await invariants();
  });

  it('creating one folder: exactly one wins', async () => {
    const rs = await parallel(() => api('POST', '/projects/default/folders', { path: 'fc/new' }));
    expectOnly(rs, [409]);
    expect(ok(rs)).toHaveLength(1);
    expect(await folderExists('fc/new')).toBe(true);
    await invariants();
  });

  it('deletes of one folder: exactly one wins, usage is freed once', async () => {
    await seedFolder('fd/doomed');
    const before = (await api('GET', '/projects/default/usage')).body.used as number;
    const rs = await parallel(() => api('DELETE', '/projects/default/folders?path=fd/doomed&recursive=true'));
    expectOnly(rs, [404]);
    expect(ok(rs)).toHaveLength(1);
    expect(ok(rs)[0]!.body).toMatchObject({ files: 3, bytes: 30 });
    expect((await api('GET', '/projects/default/usage')).body.used).toBe(before - 30);
    expect(await folderExists('fd/doomed')).toBe(false);
    await invariants();
  });

  it('moves of one folder to different targets: exactly one wins and the files are where it said', async () => {
    await seedFolder('fm/src');
    const rs = await parallel((i) => api('POST', '/projects/default/folders/move', { from: 'fm/src', to: `fm/to-${i}` }));
    expectOnly(rs, [404]);
    expect(ok(rs)).toHaveLength(1);
    const won = ok(rs)[0]!.body.path as string;
    expect(await exists(`${won}/sub/c.txt`)).toBe(true);
    expect(await folderExists('fm/src')).toBe(false);
    for (const r of rs) if (r.status === 200) expect(r.body.fileCount).toBe(3);
    await invariants();
  });

  it('renames of different folders to one target: exactly one wins, nothing is merged', async () => {
    for (let i = 0; i < N; i++) await put(`fr/src-${i}/f.txt`, `folder ${i}`);
    const rs = await parallel((i) => api('POST', '/projects/default/folders/move', { from: `fr/src-${i}`, to: 'fr/target' }));
    expectOnly(rs, [409]);
    expect(ok(rs)).toHaveLength(1);
    expect((await api('GET', '/projects/default/folders/stat?path=fr/target')).body.fileCount).toBe(1);
    await invariants();
  });

  it('a folder deleted while it is moved: one of them wins, the files are either gone or moved', async () => {
    await seedFolder('fx/src');
    const rs = await parallel((i) =>
      i % 2 === 0
        ? api('DELETE', '/projects/default/folders?path=fx/src&recursive=true')
        : api('POST', '/projects/default/folders/move', { from: 'fx/src', to: `fx/to-${i}` }),
    );
    expectOnly(rs, [404]);
    expect(ok(rs)).toHaveLength(1);
    const won = ok(rs)[0]!.body.path as string;
    expect(await exists(`${won}/a.txt`)).toBe(won !== 'fx/src');
    await invariants();
  });

  it('direct uploads of one path finished at once: every finish is a version, reservations all released', async () => {
    const body = 'direct bytes';
    const starts: string[] = [];
    for (let i = 0; i < N; i++)
      starts.push((await api('POST', '/projects/default/uploads', { path: 'direct/one.bin', size: body.length })).body.uploadId as string);
    for (const id of starts)
      expect((await s.api('PUT', `/projects/default/uploads/${id}`, editor, body, { 'content-type': 'application/octet-stream' })).status).toBeLessThan(300);
    const rs = await parallel((i) => api('POST', `/projects/default/uploads/${starts[i]}/finish`));
    expectOnly(rs, [409]);
    expect((await api('GET', '/projects/default/files/versions?path=direct/one.bin')).body.length).toBe(ok(rs).length);
    await invariants();
  });

  it('direct uploads that must create: exactly one wins, the others give their space back', async () => {
    const starts: string[] = [];
    for (let i = 0; i < N; i++)
      starts.push((await api('POST', '/projects/default/uploads', { path: 'direct/new.bin', size: 5, expectedVersion: 0 })).body.uploadId as string);
    for (const id of starts) await s.api('PUT', `/projects/default/uploads/${id}`, editor, 'abcde', { 'content-type': 'application/octet-stream' });
    const rs = await parallel((i) => api('POST', `/projects/default/uploads/${starts[i]}/finish`));
    expectOnly(rs, [409]);
    expect(ok(rs)).toHaveLength(1);
    expect((await api('GET', '/projects/default/usage')).body.reserved).toBe(0);
    await invariants();
  });

  it('agent file tools on one file: every write is a version, exactly one delete wins', async () => {
    const tool = (name: string, args: Record<string, unknown>) => api('POST', `/projects/default/tools/${name}/call`, { arguments: args });
    const writes = await parallel((i) => tool('ws_write_file', { path: 'tools/one.md', content: `write ${i}` }));
    expectOnly(writes, []);
    const written = writes.filter((r) => !String(r.body.text).startsWith('Refused'));
    expect((await api('GET', '/projects/default/files/versions?path=tools/one.md')).body.length).toBe(written.length);
    const deletes = await parallel(() => tool('ws_delete_file', { path: 'tools/one.md' }));
    expectOnly(deletes, []);
    expect(deletes.filter((r) => !String(r.body.text).startsWith('Refused'))).toHaveLength(1);
    expect(await exists('tools/one.md')).toBe(false);
    await invariants();
  });

  it('WebDAV MOVE and DELETE of one folder: exactly one wins each time', async () => {
    await seedFolder('dav/src');
    const dav = (method: string, path: string, headers: Record<string, string> = {}) =>
      s.app.inject({ method: method as 'GET', url: `/dav/${path}`, headers: { ...s.auth(editor), ...headers } });
    const moves = await parallel((i) => dav('MOVE', 'dav/src', { destination: `/dav/dav/to-${i}` }));
    expect(moves.filter((r) => ![201, 404, 409].includes(r.statusCode))).toEqual([]);
    const won = moves.findIndex((r) => r.statusCode === 201);
    expect(moves.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(await exists(`dav/to-${won}/sub/c.txt`)).toBe(true);
    const deletes = await parallel(() => dav('DELETE', `dav/to-${won}`));
    expect(deletes.filter((r) => ![204, 404].includes(r.statusCode))).toEqual([]);
    expect(deletes.filter((r) => r.statusCode === 204)).toHaveLength(1);
    await invariants();
  });

  it('uploads into a folder while it is deleted: every acknowledged upload is still there', async () => {
    await seedFolder('fu/busy');
    const rs = await parallel((i) =>
      i === 0 ? api('DELETE', '/projects/default/folders?path=fu/busy&recursive=true') : put(`fu/busy/new-${i}.txt`, `new ${i}`),
    );
    expectOnly(rs, [404, 409]);
    expect(rs[0]!.status).toBe(200);
    await invariants();
  });
});
