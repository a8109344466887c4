import { Readable } from 'node:stream';
import type { RouteDef } from '@stoa/contract';
import { StoaError } from '@stoa/contract/errors';
import { routeIndex } from '@stoa/contract/route-index';
import type { RouteRef } from '@stoa/contract/route-ref';
import { StoaClient } from '@stoa/sdk/client';
import { uploadInParts } from '@stoa/sdk/part-upload';
import { jsonFetch } from './json-http.js';
import { uploadResumeStore } from './upload-resume.js';
import type { Api } from './api.js';

/** Files above this go through a direct upload (STOA_DIRECT_UPLOAD_BYTES on the client side too). */
function directThreshold(env: NodeJS.ProcessEnv): number {
  const n = Number(env.STOA_DIRECT_UPLOAD_BYTES);
  return Number.isInteger(n) && n > 0 ? n : 26214400;
}

/** Counts bytes as they pass, for the progress bar. */
function counting(source: Readable, onProgress?: (n: number) => void): Readable {
  if (!onProgress) return source;
  let sent = 0;
  source.on('data', (c: Buffer) => onProgress((sent += c.length)));
  return source;
}

/** The file at `path` now, or null. */
async function currentFile(client: StoaClient, project: string, path: string) {
  try {
    return await client.call(routeIndex.files.stat, { project, path });
  } catch (e) {
    if (e instanceof StoaError && e.code === 'not_found') return null;
    throw e;
  }
}

/**
 * The file an earlier run committed when it was killed while finishing `uploadId`, or null to go on. Finishing
 * again ends an upload whose finish never reached the server; an upload already finished is told by the file: a
 * version after the one finishing started from, of the uploaded size.
 */
async function finishedEarlier(client: StoaClient, project: string, path: string, size: number, uploadId: string, from: number) {
  try {
    return await client.call(routeIndex.files.finishUpload, { project, uploadId });
  } catch (e) {
    if (!(e instanceof StoaError) || e.code !== 'not_found') throw e;
  }
  const now = await currentFile(client, project, path);
  return now && now.version > from && now.size === size ? now : null;
}

/** Remote mode: the same commands over HTTP with --url and --token (§7). */
export function openRemoteApi(opts: {
  url: string;
  token?: string;
  project?: string;
  conversation?: string;
  env: NodeJS.ProcessEnv;
}): Api & { client: StoaClient } {
  const client = new StoaClient({ url: opts.url, token: opts.token, conversationId: opts.conversation });
  // JSON calls without the global fetch: see json-http.ts (a short command's start-up).
  const json = new StoaClient({ url: opts.url, token: opts.token, conversationId: opts.conversation, fetch: jsonFetch });
  const project = opts.project ?? 'default';
  return {
    mode: 'remote',
    project,
    client,
    call: (route: RouteDef | RouteRef<any>, input: any) => json.call(route, input) as Promise<any>,
    async upload(path, source, size, o = {}) {
      if (size <= directThreshold(opts.env)) {
        return client.send(routeIndex.files.upload, { project, path, expectedVersion: o.expectedVersion }, counting(source(), o.onProgress), { size });
      }
      // Large files go in parts: a failed part is sent again alone, and an interrupted upload of the same local
      // file resumes from the parts that arrived when the command is run again.
      const saved = o.resumeKey ? uploadResumeStore(opts.env).forUpload([client.url, project, path, o.resumeKey]) : undefined;
      const note = await saved?.load();
      // Killed while finishing: that finish may have made the version already, and then nothing is sent again.
      const earlier = note?.finishingFrom !== undefined ? await finishedEarlier(client, project, path, size, note.uploadId, note.finishingFrom) : null;
      if (earlier) {
        o.onProgress?.(size);
        await saved?.forget();
        return earlier;
      }
      const file = await uploadInParts(client, {
        project,
        path,
        size,
        expectedVersion: o.expectedVersion,
        openPart: (offset, n) => (n === 0 ? Readable.from([]) : source({ start: offset, end: offset + n - 1 })),
        resume: note?.uploadId,
        onStarted: (id) => saved?.save(id),
        onFinishing: async (id) => saved?.save(id, (await currentFile(client, project, path))?.version ?? 0),
        onProgress: o.onProgress,
      });
      await saved?.forget();
      return file;
    },
    async download(path, o = {}) {
      const res = await client.open(routeIndex.files.download, { project, path, version: o.version });
      const size = Number(res.headers.get('content-length') ?? 0);
      return { stream: Readable.fromWeb(res.body as any), size, name: path.slice(path.lastIndexOf('/') + 1) };
    },
    close: async () => undefined,
  };
}
