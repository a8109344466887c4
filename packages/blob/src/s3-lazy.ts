import type { S3BlobStore, S3BlobStoreOptions } from './s3-store.js';
import { normalizePrefix } from './s3-url.js';
import type { BlobStore } from './types.js';

/** What the root entry point's `createS3BlobStore` returns: the whole BlobStore, without the SDK client. */
export type LazyS3BlobStore = BlobStore & { readonly kind: 's3'; sweepTemp(olderThanMs: number): Promise<number> };

/**
 * An S3 blob store that loads the AWS SDK on its first operation, not at import: the SDK takes a noticeable
 * time to load, and commands working on the local disk (the default) should not pay for it. Options are
 * checked at once, so a bad prefix still fails at start-up. `@stoa/blob/s3` has the eager store with `.client`.
 *
 * @example
 * const store = createS3BlobStore({ bucket: 'stoa', endpoint: process.env.STOA_S3_ENDPOINT });
 * await store.put('hello'); // the SDK is loaded here
 */
export function createLazyS3BlobStore(opts: S3BlobStoreOptions): LazyS3BlobStore {
  normalizePrefix(opts.prefix ?? '');
  let loading: Promise<S3BlobStore> | undefined;
  const load = (): Promise<S3BlobStore> => (loading ??= import('./s3-store.js').then((m) => m.createS3BlobStore(opts)));
  return {
    kind: 's3',
    put: async (source, o) => (await load()).put(source, o),
    get: async (key, range) => (await load()).get(key, range),
    read: async (key) => (await load()).read(key),
    stat: async (key) => (await load()).stat(key),
    delete: async (key) => (await load()).delete(key),
    async *list() {
      yield* (await load()).list();
    },
    presignStagingPut: async (id, size, expires) => (await load()).presignStagingPut(id, size, expires),
    presignGet: async (key, expires, as) => (await load()).presignGet(key, expires, as),
    writeStaging: async (id, source, maxBytes) => (await load()).writeStaging(id, source, maxBytes),
    promoteStaging: async (id, expected) => (await load()).promoteStaging(id, expected),
    deleteStaging: async (id) => (await load()).deleteStaging(id),
    startStagingParts: async (id, size) => (await load()).startStagingParts(id, size),
    presignStagingPart: async (id, token, part, expires) => (await load()).presignStagingPart(id, token, part, expires),
    writeStagingPart: async (id, token, part, source) => (await load()).writeStagingPart(id, token, part, source),
    completeStagingParts: async (id, token, parts) => (await load()).completeStagingParts(id, token, parts),
    abortStagingParts: async (id, token) => (await load()).abortStagingParts(id, token),
    sweepTemp: async (ms) => (await load()).sweepTemp(ms),
    close: async () => {
      if (loading) await (await loading).close();
    },
  };
}
