import type { personalRoutes, RouteOutput } from '@stoa/contract';
import { routeIndex } from '@stoa/contract/route-index';
import { call } from './client.js';

export type PersonalItem = RouteOutput<typeof personalRoutes.favourites>[number];
export type ItemKind = PersonalItem['kind'];

const r = routeIndex.personal;

/**
 * The signed-in person's favourites and recently opened items in a project (their own lists, nobody else's).
 *
 * @example
 * await personalApi.star('default', 'file', 'reports/q1.md');
 */
export const personalApi = {
  favourites: (project: string) => call(r.favourites, { project }),
  star: (project: string, kind: ItemKind, path: string) => call(r.star, { project, kind, path }),
  unstar: (project: string, kind: ItemKind, path: string) => call(r.unstar, { project, kind, path }),
  recent: (project: string) => call(r.recent, { project, limit: 20 }),
  /** Noted when the UI shows a file or page; a failure changes nothing the person sees, so it is dropped. */
  opened: (project: string, kind: 'file' | 'page', path: string) => void call(r.opened, { project, kind, path }).catch(() => undefined),
};
