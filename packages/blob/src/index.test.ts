import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const entry = pathToFileURL(fileURLToPath(new URL('./index.ts', import.meta.url))).href;

describe('@stoa/blob entry point', () => {
  it('does not load the AWS SDK until an S3 store is used', async () => {
    // A fresh process: the test runner itself may already have the SDK loaded.
    const script = `
      import { createRequire } from 'node:module';
      const blob = await import(${JSON.stringify(entry)});
      const cache = () => Object.keys(createRequire(import.meta.url).cache).filter((k) => k.includes('@aws-sdk')).length;
      const before = cache();
      blob.createS3BlobStore({ bucket: 'stoa' });
      const afterCreate = cache();
      await (await blob.openS3BlobStore({ bucket: 'stoa' })).close();
      const afterOpen = cache();
      process.stdout.write(JSON.stringify({ before, afterCreate, afterOpen, exports: Object.keys(blob).sort() }));
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', tsxLoader, '--input-type=module', '-e', script]);
    const out = JSON.parse(stdout) as { before: number; afterCreate: number; afterOpen: number; exports: string[] };
    expect(out.before).toBe(0);
    expect(out.afterCreate).toBe(0);
    expect(out.afterOpen).toBeGreaterThan(0); // proves the probe sees the SDK once it is loaded
    for (const name of [
      'createFsBlobStore',
      'createS3BlobStore',
      'parseS3Url',
      'BlobTooLargeError',
      'BlobNotFoundError',
      'BlobHashMismatchError',
      'BlobSizeMismatchError',
    ]) {
      expect(out.exports).toContain(name);
    }
  });
});
