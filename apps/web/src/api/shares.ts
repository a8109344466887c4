import type { RouteOutput, shareRoutes } from '@stoa/contract';
import { routeIndex } from '@stoa/contract/route-index';
import { call } from './client.js';

export type ShareLink = RouteOutput<typeof shareRoutes.list>[number];
export type NewShareLink = RouteOutput<typeof shareRoutes.create>;

const r = routeIndex.shares;

/**
 * A file's expiring share links (packages/contract/src/routes/shares.ts).
 *
 * @example
 * const link = await sharesApi.create('default', 'reports/q1.pdf', 86400); // link.url
 */
export const sharesApi = {
  create: (project: string, path: string, expiresIn: number) => call(r.create, { project, path, expiresIn }),
  list: (project: string, path: string) => call(r.list, { project, path }),
  revoke: (project: string, id: string) => call(r.revoke, { project, id }),
};

/**
 * The address to give out: the server's answer is absolute with STOA_PUBLIC_URL, else below this server.
 *
 * @example
 * absoluteLink('/api/v1/share-links/abc') // "https://stoa.example/api/v1/share-links/abc"
 */
export const absoluteLink = (url: string): string => (/^https?:\/\//.test(url) ? url : `${location.origin}${url}`);
