import { CreateBucketCommand, paginateListObjectsV2, S3Client } from '@aws-sdk/client-s3';
import type { startFauxqs } from 'fauxqs';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll } from 'vitest';
import { runBlobContract } from './blob-contract.js';
import { createS3BlobStore } from './s3-store.js';

// The same contract as s3rver, against a second S3 implementation nobody here wrote (issue 28): what one
// emulator forgives, the other may not. fauxqs keeps objects in memory, so it runs in a process of its own, as a
// real store would: the contract's memory checks then measure the store client, not the emulator.
const credentials = { accessKeyId: 'FAUXQS', secretAccessKey: 'FAUXQS' };
const options: Parameters<typeof startFauxqs>[0] = { port: 0, logger: false, host: '127.0.0.1' };
const START = `import('fauxqs').then(async (m) => { const s = await m.startFauxqs(${JSON.stringify(options)}); console.log(s.address); })`;
let server: ChildProcess;
let endpoint: string;
let admin: S3Client;
let n = 0;

beforeAll(async () => {
  server = spawn(process.execPath, ['--no-warnings', '--input-type=module', '-e', START], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: server.stdout! });
  const [first] = (await Promise.race([once(lines, 'line'), once(server, 'exit').then(() => [''])])) as string[];
  if (!first?.startsWith('http://')) throw new Error('fauxqs did not start');
  endpoint = first;
  admin = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials });
}, 60_000);

afterAll(async () => {
  admin?.destroy();
  if (server && server.exitCode === null) {
    server.kill();
    await once(server, 'exit');
  }
});

async function keysUnder(bucket: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const page of paginateListObjectsV2({ client: admin }, { Bucket: bucket })) for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key);
  return keys;
}

runBlobContract('s3 (fauxqs)', async () => {
  const bucket = `stoa-fauxqs-${process.pid}-${++n}`;
  await admin.send(new CreateBucketCommand({ Bucket: bucket }));
  const store = createS3BlobStore({ bucket, prefix: '/tenant/a/', endpoint, credentials });
  return {
    store,
    // fauxqs ignores response-content-disposition on a presigned GET (S3, MinIO and s3rver apply it).
    lacks: ['response-overrides'],
    cleanup: async () => undefined,
    leftovers: async () => (await keysUnder(bucket)).filter((k) => !k.startsWith('tenant/a/blobs/')),
  };
});
