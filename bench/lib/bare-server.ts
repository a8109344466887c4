import http from 'node:http';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, stat } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { dirname, join, normalize } from 'node:path';
import { pipeline } from 'node:stream/promises';

/**
 * The practical limit for small files over HTTP: a bare node:http server that writes each PUT body to a file
 * (temp file → rename, optionally fsync first) and streams GETs from disk. No auth, no database, no hashing.
 *
 * @example
 * const server = createBareServer({ root: '/tmp/bare', fsync: false });
 * server.listen(0);
 */
export function createBareServer(opts: { root: string; fsync?: boolean }): http.Server {
  const tmpDir = join(opts.root, '.tmp');
  const made = new Set<string>();
  const ensureDir = async (d: string): Promise<void> => {
    if (made.has(d)) return;
    await mkdir(d, { recursive: true });
    made.add(d);
  };
  return http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const rel = normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.(\/|$))+/, '');
      const file = join(opts.root, 'files', rel);
      try {
        if (req.method === 'PUT') {
          await ensureDir(tmpDir);
          await ensureDir(dirname(file));
          const tmp = join(tmpDir, randomUUID());
          await pipeline(req, createWriteStream(tmp));
          if (opts.fsync) {
            const fh = await open(tmp, 'r+');
            await fh.sync();
            await fh.close();
          }
          await rename(tmp, file);
          res.writeHead(201, { 'content-type': 'application/json' }).end('{"ok":true}');
        } else if (req.method === 'GET') {
          const st = await stat(file);
          res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(st.size) });
          await pipeline(createReadStream(file), res);
        } else {
          res.writeHead(405).end();
        }
      } catch (e) {
        if (!res.headersSent) res.writeHead((e as NodeJS.ErrnoException).code === 'ENOENT' ? 404 : 500).end();
        else res.destroy();
      }
    })();
  });
}
