import { Readable } from 'node:stream';
import { filesRoutes, type RouteDef } from '@stoa/contract';
import { StoaClient } from '@stoa/sdk';
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

/** Remote mode: the same commands over HTTP with --url and --token (§7). */
export function openRemoteApi(opts: {
  url: string;
  token?: string;
  project?: string;
  conversation?: string;
  env: NodeJS.ProcessEnv;
}): Api & { client: StoaClient } {
  const client = new StoaClient({ url: opts.url, token: opts.token, conversationId: opts.conversation });
  const project = opts.project ?? 'default';
  return {
    mode: 'remote',
    project,
    client,
    call: (route: RouteDef, input: any) => client.call(route, input) as Promise<any>,
    async upload(path, source, size, o = {}) {
      if (size <= directThreshold(opts.env)) {
        return client.send(filesRoutes.upload, { project, path, expectedVersion: o.expectedVersion }, counting(source(), o.onProgress), { size });
      }
      const ticket = await client.call(filesRoutes.startUpload, { project, path, size });
      try {
        if (ticket.url) {
          const res = await fetch(ticket.url, {
            method: 'PUT',
            headers: { ...ticket.headers, 'content-length': String(size) },
            body: Readable.toWeb(counting(source(), o.onProgress)) as any,
            duplex: 'half',
          } as RequestInit);
          if (!res.ok) throw new Error(`object storage refused the upload (HTTP ${res.status})`);
        } else {
          await client.send(filesRoutes.sendUpload, { project, uploadId: ticket.uploadId }, counting(source(), o.onProgress), { size });
        }
        return await client.call(filesRoutes.finishUpload, { project, uploadId: ticket.uploadId });
      } catch (e) {
        await client.call(filesRoutes.abortUpload, { project, uploadId: ticket.uploadId }).catch(() => undefined);
        throw e;
      }
    },
    async download(path, o = {}) {
      const res = await client.open(filesRoutes.download, { project, path, version: o.version });
      const size = Number(res.headers.get('content-length') ?? 0);
      return { stream: Readable.fromWeb(res.body as any), size, name: path.slice(path.lastIndexOf('/') + 1) };
    },
    close: async () => undefined,
  };
}
