import type { filesRoutes, RouteOutput } from '@stoa/contract';
import { api, apiUrl, sendWithProgress, seg } from './client.js';
import type { FileInfo } from './files.js';

type Ticket = RouteOutput<typeof filesRoutes.startUpload>;

/**
 * STOA_DIRECT_UPLOAD_BYTES default (25 MB). The server does not publish its setting, so the UI uses the default;
 * a smaller server setting still works, since the server accepts any size through PUT for new files.
 */
export const DIRECT_UPLOAD_BYTES = 26214400;

/**
 * The path of a file uploaded into a folder, keeping its name (F8).
 *
 * @example
 * joinPath('reports', 'q1.csv') // "reports/q1.csv"
 */
export function joinPath(folder: string, name: string): string {
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
  const base = `/projects/${seg(project)}`;
  if (file.size <= threshold) {
    const r = await sendWithProgress<{ file: FileInfo }>('PUT', apiUrl(`${base}/files/content`, { path }), file, octets, onProgress);
    return r.file;
  }
  const ticket = await api<Ticket>('POST', `${base}/uploads`, { body: { path, size: file.size } });
  try {
    if (ticket.url) await sendWithProgress('PUT', ticket.url, file, ticket.headers, onProgress, true);
    else await sendWithProgress('PUT', apiUrl(`${base}/uploads/${seg(ticket.uploadId)}`), file, octets, onProgress);
    return await api<FileInfo>('POST', `${base}/uploads/${seg(ticket.uploadId)}/finish`);
  } catch (e) {
    // Give the reserved space back at once instead of waiting for the reservation to expire.
    await api('DELETE', `${base}/uploads/${seg(ticket.uploadId)}`).catch(() => undefined);
    throw e;
  }
}
