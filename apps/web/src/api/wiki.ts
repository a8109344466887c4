import type { RouteOutput, wikiRoutes } from '@stoa/contract';
import { routeIndex } from '@stoa/contract/route-index';
import { call } from './client.js';

export type WikiSummary = RouteOutput<typeof wikiRoutes.list>[number];
export type WikiPageData = RouteOutput<typeof wikiRoutes.get>;
export type WikiHit = RouteOutput<typeof wikiRoutes.search>[number];
export type WikiVersion = RouteOutput<typeof wikiRoutes.history>[number];
export type WikiVersionText = RouteOutput<typeof wikiRoutes.version>;
export type WikiDiff = RouteOutput<typeof wikiRoutes.diff>;
interface WikiSave {
  path: string;
  text: string;
  title?: string;
  base?: number;
  channel?: string | null;
}

const r = routeIndex.wiki;

/**
 * The wiki (W1–W7) through packages/contract/src/routes/wiki.ts.
 *
 * @example
 * await wikiApi.put('default', { path: 'handbook/refunds', text: 'See [[handbook]]', base: 0 });
 */
export const wikiApi = {
  list: (project: string) => call(r.list, { project }),
  get: (project: string, path: string) => call(r.get, { project, path }),
  put: (project: string, s: WikiSave) => call(r.put, { project, ...s }),
  history: (project: string, path: string) => call(r.history, { project, path }),
  version: (project: string, path: string, version: number) => call(r.version, { project, path, version }),
  /** What changed from version `from` to the current one. */
  diff: (project: string, path: string, from: number) => call(r.diff, { project, path, from }),
  /** A new title, saved as a new version; `base` refuses it over a newer save. */
  rename: (project: string, path: string, title: string, base: number) => call(r.rename, { project, path, title, base }),
  move: (project: string, from: string, to: string) => call(r.move, { project, from, to }),
  remove: (project: string, path: string, base: number) => call(r.remove, { project, path, base }),
  search: (project: string, q: string) => call(r.search, { project, q, limit: 20 }),
};

/**
 * The client URL of a page.
 *
 * @example
 * wikiHref('handbook/refunds') // "/wiki/handbook/refunds"
 */
export const wikiHref = (path: string): string => `/wiki/${path.split('/').map(encodeURIComponent).join('/')}`;
