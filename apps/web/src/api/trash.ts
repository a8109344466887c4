import type { RouteOutput, trashRoutes } from '@stoa/contract';
import { routeIndex } from '@stoa/contract/route-index';
import { call } from './client.js';

export type TrashList = RouteOutput<typeof trashRoutes.list>;
export type TrashItem = TrashList['items'][number];

/** The trash of the current project or volume (issue 29). */
export const trashApi = {
  list: (project: string) => call(routeIndex.trash.list, { project, limit: 1000 }),
  restore: (project: string, id: string) => call(routeIndex.trash.restore, { project, id }),
  purge: (project: string, id: string) => call(routeIndex.trash.purge, { project, id }),
};
