import type { filesRoutes, RouteOutput } from '@stoa/contract';
import { routeIndex } from '@stoa/contract/route-index';
import { routeUrl, sendWithProgress } from './client.js';

type Uploaded = RouteOutput<typeof filesRoutes.upload>;

/**
 * Saves a text file edited in the browser as a new version, only if the file is still at `expectedVersion`:
 * otherwise the server refuses with version_conflict (409) and nothing is written.
 *
 * @example
 * await saveText('default', 'notes/plan.md', '# Plan\n', 3);
 */
export async function saveText(project: string, path: string, text: string, expectedVersion: number): Promise<Uploaded['file']> {
  const url = routeUrl(routeIndex.files.upload, { project, path, expectedVersion });
  const body = new Blob([text], { type: 'application/octet-stream' });
  return (await sendWithProgress<Uploaded>('PUT', url, body, { 'Content-Type': 'application/octet-stream' })).file;
}
