import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { errorCodes } from '@stoa/contract';
import { createTestApp, type TestApp } from './test-app.js';

/** Sends raw bytes and collects everything until the server closes the connection (or `timeoutMs` passes). */
function rawExchange(
  port: number,
  head: string,
  body: Buffer | string = '',
  opts: { keepSending?: number; timeoutMs?: number } = {},
): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    const sock = connect(port, '127.0.0.1');
    let text = '';
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      sock.destroy();
      resolve({ text, closed });
    };
    const timer = setTimeout(() => finish(false), opts.timeoutMs ?? 15_000);
    sock.on('data', (c) => (text += c.toString('latin1')));
    sock.on('close', () => finish(true));
    sock.on('error', () => finish(true));
    sock.write(head);
    if (body.length) sock.write(body);
    // A client that keeps streaming after the refusal, as a large upload would, until the socket is gone.
    let left = opts.keepSending ?? 0;
    const pump = () => {
      while (left > 0 && !sock.destroyed) {
        left -= 64 * 1024;
        if (!sock.write(Buffer.alloc(64 * 1024, 7))) return void sock.once('drain', pump);
      }
    };
    pump();
  });
}

function statusOf(text: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
}

function codeOf(text: string): string | undefined {
  const body = text.slice(text.indexOf('\r\n\r\n') + 4);
  try {
    return JSON.parse(body).code;
  } catch {
    return /"code":"([a-z_]+)"/.exec(body)?.[1];
  }
}

describe('malformed HTTP gets a 4xx with a stable code (issue 9 §4)', () => {
  let s: TestApp;
  let port: number;
  let auth: string;
  beforeAll(async () => {
    s = await createTestApp('sqlite', { quotaBytes: 1_000_000 });
    await s.app.listen({ port: 0, host: '127.0.0.1' });
    port = (s.app.server.address() as { port: number }).port;
    auth = `Authorization: Bearer ${s.adminToken}\r\n`;
  });
  afterAll(() => s.close());

  const req = (method: string, target: string, headers: Record<string, string>, body?: string | Buffer) =>
    fetch(`http://127.0.0.1:${port}${target}`, {
      method,
      headers: { authorization: `Bearer ${s.adminToken}`, ...headers },
      body: body as BodyInit | undefined,
    });

  async function expectRefusal(res: Response, status?: number): Promise<string> {
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    if (status) expect(res.status).toBe(status);
    const body = (await res.json()) as { code: string };
    expect(Object.keys(errorCodes)).toContain(body.code);
    return body.code;
  }

  it('multipart with no boundary, an overlong boundary or a broken body', async () => {
    const url = '/api/v1/projects/default/files/upload';
    await expectRefusal(await req('POST', url, { 'content-type': 'multipart/form-data' }, 'x'), 400);
    const long = 'b'.repeat(200);
    await expectRefusal(
      await req(
        'POST',
        url,
        { 'content-type': `multipart/form-data; boundary=${long}` },
        `--${long}\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n\r\nhi\r\n--${long}--\r\n`,
      ),
      400,
    );
    await expectRefusal(await req('POST', url, { 'content-type': 'multipart/form-data; boundary=xyz' }, 'not multipart at all'), 400);
    await expectRefusal(await req('POST', url, { 'content-type': `multipart/form-data; boundary=${'c'.repeat(300)}` }, 'x'), 400);
    // A part named like a path is stored under its last segment, inside the project.
    const escape = await req(
      'POST',
      url,
      { 'content-type': 'multipart/form-data; boundary=xyz' },
      '--xyz\r\nContent-Disposition: form-data; name="f"; filename="../../etc/passwd"\r\n\r\nhi\r\n--xyz--\r\n',
    );
    if (escape.status === 201) expect(((await escape.json()) as { files: Array<{ path: string }> }).files.map((f) => f.path)).toEqual(['passwd']);
    else await expectRefusal(escape, 400);
  });

  it('NUL and bad percent-encoding in query strings and paths', async () => {
    expect(await expectRefusal(await req('GET', '/api/v1/projects/default/files/find?q=%00', {}), 400)).toMatch(/invalid_text|bad_request|path_invalid/);
    await expectRefusal(await req('GET', '/api/v1/projects/default/files/stat?path=%E0%A4%A', {}), 400);
    await expectRefusal(await req('GET', '/api/v1/projects/default/files/stat?path=%ZZ', {}), 400);
    await expectRefusal(await req('GET', '/api/v1/projects/%E0%A4%A/usage', {}), 400);
    await expectRefusal(await req('GET', '/api/v1/projects/default/files/stat?path=a%00b', {}), 400);
    await expectRefusal(await req('GET', '/api/v1/projects/default/wiki/pages/%FF', {}));
  });

  it('malformed JSON bodies and wrong types', async () => {
    const url = '/api/v1/projects/default/files/move';
    expect(await expectRefusal(await req('POST', url, { 'content-type': 'application/json' }, '{"from": "a",'), 400)).toBe('bad_request');
    await expectRefusal(await req('POST', url, { 'content-type': 'application/json' }, '[]'), 400);
    await expectRefusal(await req('POST', url, { 'content-type': 'application/json' }, '{"from": {"$gt": 1}, "to": []}'), 400);
    await expectRefusal(await req('POST', url, { 'content-type': 'application/json' }, '{"__proto__": {"admin": true}}'), 400);
    const r = await rawExchange(port, `POST ${url} HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: abc\r\n\r\n{}`);
    expect(statusOf(r.text)).toBe(400);
  });

  it('a refused streamed upload answers and then ends the connection instead of hanging', async () => {
    const head = `PUT /api/v1/projects/default/files/content?path=big.bin HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/octet-stream\r\nContent-Length: 50000000\r\n\r\n`;
    const r = await rawExchange(port, head, Buffer.alloc(2_000_000, 1), { keepSending: 48_000_000 });
    expect(statusOf(r.text)).toBe(413);
    expect(codeOf(r.text)).toBe('quota_exceeded');
    expect(r.closed).toBe(true);
    // The server still answers afterwards.
    expect((await req('GET', '/api/v1/health', {})).status).toBe(200);
  });

  it('a request line or headers past 16 KB, or a request that is not HTTP, get problem+json with a stable code', async () => {
    const long = await rawExchange(port, `GET /api/v1/projects/default/search?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n${auth}\r\n`);
    expect(statusOf(long.text)).toBe(431);
    expect(long.text).toMatch(/content-type: application\/problem\+json/i);
    expect(codeOf(long.text)).toBe('headers_too_large');
    expect(long.closed).toBe(true);
    const header = await rawExchange(port, `GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Filler: ${'b'.repeat(20_000)}\r\n\r\n`);
    expect([statusOf(header.text), codeOf(header.text)]).toEqual([431, 'headers_too_large']);
    const garbage = await rawExchange(port, 'NOT HTTP AT ALL\r\n\r\n');
    expect([statusOf(garbage.text), codeOf(garbage.text)]).toEqual([400, 'bad_request']);
    // The server still answers everyone else.
    expect((await req('GET', '/api/v1/health', {})).status).toBe(200);
  });

  it('a chunked upload refused at the quota ends too', async () => {
    const head = `PUT /api/v1/projects/default/files/content?path=big2.bin HTTP/1.1\r\nHost: x\r\n${auth}Transfer-Encoding: chunked\r\n\r\n`;
    const chunk = Buffer.concat([Buffer.from((64 * 1024).toString(16) + '\r\n'), Buffer.alloc(64 * 1024, 2), Buffer.from('\r\n')]);
    const r = await rawExchange(port, head, Buffer.concat(Array.from({ length: 40 }, () => chunk)));
    expect(statusOf(r.text)).toBe(413);
    expect(r.closed).toBe(true);
  });
});
