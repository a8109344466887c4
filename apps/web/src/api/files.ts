import type { filesRoutes, projectRoutes, RouteOutput } from '@stoa/contract';
import { api, request, seg } from './client.js';

/** Types come from the route contract (type-only imports: nothing of zod reaches the bundle). */
export type FileInfo = RouteOutput<typeof filesRoutes.stat>;
export type FolderPage = RouteOutput<typeof filesRoutes.folder>;
export type Folder = FolderPage['folders'][number];
export type Usage = RouteOutput<typeof filesRoutes.usage>;
export type FileVersion = RouteOutput<typeof filesRoutes.versions>[number];
export type Project = RouteOutput<typeof projectRoutes.listProjects>[number];
export type Me = RouteOutput<typeof projectRoutes.me>;
export type AuditPage = RouteOutput<typeof projectRoutes.audit>;
export type Member = RouteOutput<typeof projectRoutes.listMembers>[number];
export interface PreviewInfo {
  file: FileInfo;
  kind: 'text' | 'image' | 'pdf' | 'none';
  reason: 'too_large' | 'unsupported' | null;
  limit: number | null;
}

const p = (project: string) => `/projects/${seg(project)}`;

/**
 * The Files API of the UI, one function per contract route.
 *
 * @example
 * const page = await filesApi.folder('default', 'reports');
 */
export const filesApi = {
  me: () => api<Me>('GET', '/me'),
  projects: () => api<Project[]>('GET', '/projects'),
  usage: (project: string) => api<Usage>('GET', `${p(project)}/usage`),
  tree: (project: string) => api<Folder[]>('GET', `${p(project)}/folders/tree`),
  // The server caps the page at STOA_UI_MAX_FILES; a nextCursor then means "more than the UI shows" (F5).
  folder: (project: string, folder: string) => api<FolderPage>('GET', `${p(project)}/folders`, { query: { folder, limit: 100000 } }),
  find: (project: string, q: string) => api<{ files: FileInfo[]; truncated: boolean }>('GET', `${p(project)}/files/find`, { query: { q } }),
  stat: (project: string, path: string) => api<FileInfo>('GET', `${p(project)}/files/stat`, { query: { path } }),
  move: (project: string, from: string, to: string) => api<FileInfo>('POST', `${p(project)}/files/move`, { body: { from, to } }),
  createFolder: (project: string, path: string) => api<Folder>('POST', `${p(project)}/folders`, { body: { path } }),
  moveFolder: (project: string, from: string, to: string) => api<Folder>('POST', `${p(project)}/folders/move`, { body: { from, to } }),
  removeFolder: (project: string, path: string) =>
    api<{ path: string; files: number; bytes: number }>('DELETE', `${p(project)}/folders`, { query: { path, recursive: 'true' } }),
  remove: (project: string, path: string) => api<FileInfo>('DELETE', `${p(project)}/files`, { query: { path } }),
  versions: (project: string, path: string) => api<FileVersion[]>('GET', `${p(project)}/files/versions`, { query: { path } }),
  restore: (project: string, path: string, version: number) => api<FileInfo>('POST', `${p(project)}/files/restore`, { body: { path, version } }),
  previewInfo: (project: string, path: string) => api<PreviewInfo>('GET', `${p(project)}/files/preview`, { query: { path, info: 'true' } }),
  /** Preview bytes (text arrives as text/plain, whatever the file type). */
  preview: (project: string, path: string) => request('GET', `${p(project)}/files/preview`, { query: { path } }),
  content: (project: string, path: string, version?: number) => request('GET', `${p(project)}/files/content`, { query: { path, version } }),
  audit: (project: string, before?: number | null) => api<AuditPage>('GET', `${p(project)}/audit`, { query: { limit: 100, before } }),
  deleteProject: (project: string, confirm: string) =>
    api<{ id: string; name: string; deleted: true }>('DELETE', `/projects/${seg(project)}`, { query: { confirm } }),
  members: (project: string) => api<Member[]>('GET', `${p(project)}/members`),
  addMember: (project: string, user: string, role: Member['role']) => api<Member>('POST', `${p(project)}/members`, { body: { user, role } }),
  removeMember: (project: string, user: string) => api<{ ok: true }>('DELETE', `${p(project)}/members/${seg(user)}`),
  createToken: (project: string, s: { user?: string; agent?: string; name?: string }) =>
    api<{ token: string; id: string }>('POST', `${p(project)}/tokens`, { body: s }),
};

/**
 * Saves a file to disk (F12: always a download, never opened in the tab), fetched with the token.
 *
 * @example
 * await downloadFile('default', 'reports/q1.csv', 'q1.csv');
 */
export async function downloadFile(project: string, path: string, name: string, version?: number): Promise<void> {
  const res = await filesApi.content(project, path, version);
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
