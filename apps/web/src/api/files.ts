import type { filesRoutes, lockRoutes, projectRoutes, RouteOutput } from '@stoa/contract';
import { routeIndex } from '@stoa/contract/route-index';
import { call, open } from './client.js';

/** Types come from the route contract (type-only imports: nothing of zod reaches the bundle). */
export type FolderPage = RouteOutput<typeof filesRoutes.folder>;
/** A file as the UI shows it: a folder page's (without the hash and metadata the UI never shows) or a stat's. */
export type FileInfo = FolderPage['files'][number];
export type Folder = FolderPage['folders'][number];
export type Usage = RouteOutput<typeof filesRoutes.usage>;
export type FileVersion = RouteOutput<typeof filesRoutes.versions>[number];
export type Project = RouteOutput<typeof projectRoutes.listProjects>[number];
export type Me = RouteOutput<typeof projectRoutes.me>;
export type AuditPage = RouteOutput<typeof projectRoutes.audit>;
export type Member = RouteOutput<typeof projectRoutes.listMembers>[number];
export type LockInfo = RouteOutput<typeof lockRoutes.list>[number];
export interface PreviewInfo {
  file: FileInfo;
  kind: 'text' | 'image' | 'pdf' | 'none';
  reason: 'too_large' | 'unsupported' | null;
  limit: number | null;
}

const r = routeIndex.files;
/** Rows of a folder's first page: more than a tall screen shows. */
const FIRST_PAGE = 100;
/** Rows of each later page. */
const NEXT_PAGE = 1000;
const pr = routeIndex.projects;

/**
 * The Files API of the UI, one function per contract route.
 *
 * @example
 * const page = await filesApi.folder('default', 'reports');
 */
export const filesApi = {
  me: () => call(pr.me, {}),
  logout: () => call(routeIndex.system.logout, {}),
  projects: () => call(pr.listProjects, {}),
  /** Your own files (R1): the server resolves the volume for the signed-in person and creates it on first use. */
  myFiles: () => call(pr.openVolume, { catalog: 'users' }),
  usage: (project: string) => call(r.usage, { project }),
  tree: (project: string) => call(r.tree, { project }),
  /** What changed after `cursor` (`now`: only where the feed stands), for live updates (B7). */
  changes: (project: string, cursor: string) => call(r.changes, { project, cursor }),
  /**
   * A page of a folder: the first one (no cursor) small, so the first screen is drawn from a small answer; those
   * after it larger, fetched in the background (folder-listing.ts).
   */
  folder: (project: string, folder: string, cursor?: string) =>
    call(r.folder, cursor ? { project, folder, cursor, limit: NEXT_PAGE } : { project, folder, limit: FIRST_PAGE }),
  find: (project: string, q: string) => call(r.find, { project, q }),
  stat: (project: string, path: string) => call(r.stat, { project, path }),
  move: (project: string, from: string, to: string) => call(r.move, { project, from, to }),
  createFolder: (project: string, path: string) => call(r.createFolder, { project, path }),
  moveFolder: (project: string, from: string, to: string) => call(r.moveFolder, { project, from, to }),
  removeFolder: (project: string, path: string) => call(r.deleteFolder, { project, path, recursive: 'true' }),
  remove: (project: string, path: string) => call(r.remove, { project, path }),
  versions: (project: string, path: string) => call(r.versions, { project, path }),
  restore: (project: string, path: string, version: number) => call(r.restore, { project, path, version }),
  previewInfo: async (project: string, path: string) => (await (await open(r.preview, { project, path, info: 'true' })).json()) as PreviewInfo,
  /** Preview bytes (text arrives as text/plain, whatever the file type). */
  preview: (project: string, path: string) => open(r.preview, { project, path }),
  // A page's script cannot read from a bucket that does not allow its origin: the bytes come from the server.
  content: (project: string, path: string, version?: number) => open(r.download, { project, path, version, redirect: 'false' }),
  audit: (project: string, before?: number | null, filter: { action?: string; path?: string } = {}) =>
    call(pr.audit, { project, limit: 100, before: before ?? undefined, action: filter.action || undefined, path: filter.path || undefined }),
  deleteProject: (project: string, confirm: string) => call(pr.deleteProject, { project, confirm }),
  members: (project: string) => call(pr.listMembers, { project }),
  addMember: (project: string, user: string, role: Member['role']) => call(pr.addMember, { project, user, role }),
  removeMember: (project: string, user: string) => call(pr.removeMember, { project, user }),
  locks: (project: string) => call(routeIndex.locks.list, { project }),
  releaseLock: (project: string, token: string) => call(routeIndex.locks.release, { project, token }),
  createToken: (project: string, s: { user?: string; agent?: string; name?: string }) => call(pr.createToken, { project, ...s }),
};

/**
 * Saves a file to disk (F12: always a download, never opened in the tab), fetched with the token.
 *
 * @example
 * await downloadFile('default', 'reports/q1.csv', 'q1.csv');
 */
export async function downloadFile(project: string, path: string, name: string, version?: number): Promise<void> {
  saveBlob(await (await filesApi.content(project, path, version)).blob(), name);
}

/**
 * Saves ticked files, or a whole folder, as one zip (the server checks every file before it sends a byte).
 *
 * @example
 * await downloadZip('default', { paths: ['a.txt', 'docs/b.md'] }, 'default.zip');
 */
export async function downloadZip(project: string, what: { paths?: string[]; folder?: string }, name: string): Promise<void> {
  saveBlob(await (await open(r.archive, { project, ...what })).blob(), name);
}

function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
