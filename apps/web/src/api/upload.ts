import type { filesRoutes, RouteOutput } from '@stoa/contract';
import { routeIndex } from '@stoa/contract/route-index';
import { call, routeUrl, sendWithProgress } from './client.js';
import type { FileInfo } from './files.js';

type Ticket = RouteOutput<typeof filesRoutes.startUpload>;

/**
 * STOA_DIRECT_UPLOAD_BYTES default (25 MB). The server does not publish its setting, so the UI uses the default;
 * a smaller server setting still works, since the server accepts any size through PUT for new files.
 */
const DIRECT_UPLOAD_BYTES = 26214400;

/**
 * The path of a file uploaded into a folder, keeping its name (F8).
 *
 * @example
 * joinPath('reports', 'q1.csv') // "reports/q1.csv"
 */
function joinPath(folder: string, name: string): string {
  const n = name.normalize('NFC');
  return folder ? `${folder}/${n}` : n;
}

const octets = { 'Content-Type': 'application/octet-stream' };

/**
 * Uploads one file into a folder: through the server up to 25 MB (replacing silently), straight to storage
 * above (start → send → finish; fails with already_exists when the file exists). The way is chosen here.
 * `onProgress` gets the bytes sent so far.
 *
 * @example
 * await uploadFile('default', 'reports', file, (n) => setSent(n));
 */
export async function uploadFile(
  project: string,
  folder: string,
  file: File,
  onProgress?: (sent: number) => void,
  threshold = DIRECT_UPLOAD_BYTES,
): Promise<FileInfo> {
  const path = joinPath(folder, file.name);
  const r = routeIndex.files;
  if (file.size <= threshold) {
    const put = routeUrl(r.upload, { project, path });
    return (await sendWithProgress<RouteOutput<typeof filesRoutes.upload>>('PUT', put, file, octets, onProgress)).file;
  }
  const ticket: Ticket = await call(r.startUpload, { project, path, size: file.size });
  const upload = { project, uploadId: ticket.uploadId };
  try {
    if (ticket.url) await sendWithProgress('PUT', ticket.url, file, ticket.headers, onProgress, true);
    else await sendWithProgress('PUT', routeUrl(r.sendUpload, upload), file, octets, onProgress);
    return await call(r.finishUpload, upload);
  } catch (e) {
    // Give the reserved space back at once instead of waiting for the reservation to expire.
    await call(r.abortUpload, upload).catch(() => undefined);
    throw e;
  }
}
