import type { filesRoutes, RouteOutput } from '@stoa/contract';
import { routeIndex } from '@stoa/contract/route-index';
import { call, routeUrl, sendWithProgress } from './client.js';
import type { FileInfo } from './files.js';

type Ticket = RouteOutput<typeof filesRoutes.startUpload>;

let threshold: Promise<number> | null = null;

/**
 * Up to which size a file goes through the server: the server's STOA_DIRECT_UPLOAD_BYTES, asked once
 * (`GET /api/v1/limits`, issue 29). Asked again after a failure rather than guessing.
 */
function directUploadBytes(signal?: AbortSignal): Promise<number> {
  threshold ??= call(routeIndex.system.limits, {}, signal).then(
    (l) => l.directUploadBytes,
    (e: unknown) => {
      threshold = null;
      throw e;
    },
  );
  return threshold;
}

/**
 * The path of a file uploaded into a folder, keeping its name (F8).
 *
 * @example
 * joinPath('reports', 'q1.csv') // "reports/q1.csv"
 */
function joinPath(folder: string, name: string): string {
  const n = name.normalize('NFC');
  return folder ? `${folder.normalize('NFC')}/${n}` : n;
}

const octets = { 'Content-Type': 'application/octet-stream' };

/**
 * Uploads one file into a folder: through the server up to the server's STOA_DIRECT_UPLOAD_BYTES (25 MB by
 * default), straight to storage above (start → send → finish). The way is chosen here, by the server's setting
 * unless `threshold` is given. `name` stores it under another name than its own ("report (1).pdf").
 * `expectedVersion` is checked by the server in the write's transaction (at start and at finish for a direct
 * upload): 0 creates only, N replaces only version N, and anything else fails with version_conflict (its
 * `currentVersion` says what is there), so a file that appeared meanwhile is never overwritten unasked.
 * `onProgress` gets the bytes sent so far; aborting `signal` stops the transfer (and gives a direct upload's
 * reserved space back).
 *
 * @example
 * await uploadFile('default', 'reports', file, { onProgress: (n) => setSent(n), signal: controller.signal });
 */
export async function uploadFile(
  project: string,
  folder: string,
  file: File,
  opts: { onProgress?: (sent: number) => void; signal?: AbortSignal; threshold?: number; name?: string; expectedVersion?: number } = {},
): Promise<FileInfo> {
  const { onProgress, signal, expectedVersion } = opts;
  const path = joinPath(folder, opts.name ?? file.name);
  const r = routeIndex.files;
  if (file.size <= (opts.threshold ?? (await directUploadBytes(signal)))) {
    const put = routeUrl(r.upload, { project, path, expectedVersion });
    return (await sendWithProgress<RouteOutput<typeof filesRoutes.upload>>('PUT', put, file, octets, onProgress, false, signal)).file;
  }
  const ticket: Ticket = await call(r.startUpload, { project, path, size: file.size, expectedVersion }, signal);
  const upload = { project, uploadId: ticket.uploadId };
  try {
    if (ticket.url) await sendWithProgress('PUT', ticket.url, file, ticket.headers, onProgress, true, signal);
    else await sendWithProgress('PUT', routeUrl(r.sendUpload, upload), file, octets, onProgress, false, signal);
    return await call(r.finishUpload, upload);
  } catch (e) {
    // Give the reserved space back at once instead of waiting for the reservation to expire.
    await call(r.abortUpload, upload).catch(() => undefined);
    throw e;
  }
}
