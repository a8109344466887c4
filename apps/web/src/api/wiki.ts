import type { RouteOutput, wikiRoutes } from '@stoa/contract';
import { api, seg } from './client.js';

export type WikiSummary = RouteOutput<typeof wikiRoutes.list>[number];
export type WikiPageData = RouteOutput<typeof wikiRoutes.get>;
export type WikiHit = RouteOutput<typeof wikiRoutes.search>[number];
export type WikiVersion = RouteOutput<typeof wikiRoutes.history>[number];
export type WikiVersionText = RouteOutput<typeof wikiRoutes.version>;
export interface WikiSave {
  path: string;
  text: string;
  title?: string;
  base?: number;
  channel?: string | null;
}

const p = (project: string) => `/projects/${seg(project)}/wiki`;

/**
 * The wiki (W1–W7) through packages/contract/src/routes/wiki.ts.
 *
 * @example
 * await wikiApi.put('default', { path: 'handbook/refunds', text: 'See [[handbook]]', base: 0 });
 */
export const wikiApi = {
  list: (project: string) => api<WikiSummary[]>('GET', `${p(project)}/pages`),
  get: (project: string, path: string) => api<WikiPageData>('GET', `${p(project)}/page`, { query: { path } }),
  put: (project: string, s: WikiSave) => api<WikiSummary & { created: boolean; changed: boolean }>('PUT', `${p(project)}/page`, { body: s }),
  history: (project: string, path: string) => api<WikiVersion[]>('GET', `${p(project)}/history`, { query: { path } }),
  version: (project: string, path: string, version: number) => api<WikiVersionText>('GET', `${p(project)}/version`, { query: { path, version } }),
  move: (project: string, from: string, to: string) => api<RouteOutput<typeof wikiRoutes.move>>('POST', `${p(project)}/move`, { body: { from, to } }),
  remove: (project: string, path: string, base: number) => api<WikiSummary>('DELETE', `${p(project)}/page`, { query: { path, base } }),
  search: (project: string, q: string) => api<WikiHit[]>('GET', `${p(project)}/search`, { query: { q, limit: 20 } }),
};

/**
 * The client URL of a page.
 *
 * @example
 * wikiHref('handbook/refunds') // "/wiki/handbook/refunds"
 */
export const wikiHref = (path: string): string => `/wiki/${path.split('/').map(encodeURIComponent).join('/')}`;
