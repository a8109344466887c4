import type { filesRoutes, RouteOutput } from '@stoa/contract';
import { api, request, seg } from './client.js';
import type { FileInfo } from './files.js';

type Ticket = RouteOutput<typeof filesRoutes.startUpload>;

/**
 * STOA_DIRECT_UPLOAD_BYTES default (25 MB). The server does not publish its setting, so the UI uses the default;
 * a smaller server setting still works, since the server accepts any size through PUT for new files.
 */
export const DIRECT_UPLOAD_BYTES = 26214400;

/** The path of a file uploaded into a folder, keeping its name (F8). */
export function joinPath(folder: string, name: string): string {
  const n = name.normalize('NFC');
  return folder ? `${folder}/${n}` : n;
}

/**
 * Uploads one file into a folder: through the server up to 25 MB (replacing silently), straight to storage
 * above (start → send → finish; fails with already_exists when the file exists). The way is chosen here.
 *
 * @example
 * await uploadFile('default', 'reports', file);
 */
export async function uploadFile(project: string, folder: string, file: File, threshold = DIRECT_UPLOAD_BYTES): Promise<FileInfo> {
  const path = joinPath(folder, file.name);
  const base = `/projects/${seg(project)}`;
  if (file.size <= threshold) {
    const r = await api<{ file: FileInfo }>('PUT', `${base}/files/content`, { query: { path }, raw: file, headers: { 'Content-Type': 'application/octet-stream' } });
    return r.file;
  }
  const ticket = await api<Ticket>('POST', `${base}/uploads`, { body: { path, size: file.size } });
  try {
    if (ticket.url) {
      const res = await fetch(ticket.url, { method: 'PUT', headers: ticket.headers, body: file });
      if (!res.ok) throw new Error(`object storage answered ${res.status}`);
    } else {
      await request('PUT', `${base}/uploads/${seg(ticket.uploadId)}`, { raw: file, headers: { 'Content-Type': 'application/octet-stream' } });
    }
    return await api<FileInfo>('POST', `${base}/uploads/${seg(ticket.uploadId)}/finish`);
  } catch (e) {
    // Give the reserved space back at once instead of waiting for the reservation to expire.
    await api('DELETE', `${base}/uploads/${seg(ticket.uploadId)}`).catch(() => undefined);
    throw e;
  }
}
