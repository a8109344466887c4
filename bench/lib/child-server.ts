/**
 * Entry point that runs one comparison server in its own process, so each server compared gets a process of
 * its own as Stoa does. Prints "listening on <url>".
 *
 *   node --import tsx bench/lib/child-server.ts bare DIR [--fsync]
 *   node --import tsx bench/lib/child-server.ts s3rver DIR        (bucket "bench", path-style, no auth)
 */
import type { AddressInfo } from 'node:net';
import { createBareServer } from './bare-server.js';

const [kind, dir, flag] = process.argv.slice(2);
if (!kind || !dir) {
  process.stderr.write('usage: child-server.ts bare|s3rver DIR [--fsync]\n');
  process.exit(2);
}
if (kind === 'bare') {
  const server = createBareServer({ root: dir, fsync: flag === '--fsync' });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`));
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
} else if (kind === 's3rver') {
  const { default: S3rver } = await import('s3rver');
  const s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: 'bench', configs: [] }] });
  const addr = (await s3.run()) as AddressInfo;
  process.stdout.write(`listening on http://127.0.0.1:${addr.port}\n`);
  process.once('SIGTERM', () => void s3.close().then(() => process.exit(0)));
} else {
  process.stderr.write(`unknown server kind ${kind}\n`);
  process.exit(2);
}
