import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import type { startFauxqs } from 'fauxqs';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

const options: Parameters<typeof startFauxqs>[0] = { port: 0, logger: false, host: '127.0.0.1' };
const START = `import('fauxqs').then(async (m) => { const s = await m.startFauxqs(${JSON.stringify(options)}); console.log(s.address); })`;

/**
 * Starts fauxqs, a second S3 implementation besides s3rver (it takes requests of at most 11 MiB, like stores
 * behind a proxy with a body limit), in a process of its own with one empty bucket, and returns the environment
 * a Stoa server needs to keep its blobs there and how to stop it.
 *
 * @example
 * const { env, stop } = await startFauxqsBucket('stoa', 'prod');
 */
export async function startFauxqsBucket(bucket: string, prefix: string): Promise<{ env: Record<string, string>; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--no-warnings', '--input-type=module', '-e', START], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [endpoint] = (await Promise.race([once(createInterface({ input: child.stdout! }), 'line'), once(child, 'exit').then(() => [''])])) as string[];
  if (!endpoint?.startsWith('http://')) throw new Error('fauxqs did not start');
  const credentials = { accessKeyId: 'FAUXQS', secretAccessKey: 'FAUXQS' };
  const admin = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials });
  await admin.send(new CreateBucketCommand({ Bucket: bucket }));
  admin.destroy();
  return {
    env: {
      STOA_STORAGE_URL: `s3://${bucket}/${prefix}`,
      STOA_S3_ENDPOINT: endpoint,
      STOA_S3_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.kill();
      await once(child, 'exit');
    },
  };
}
