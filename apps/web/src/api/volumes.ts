import type { projectRoutes, RouteOutput } from '@stoa/contract';
import { routeIndex } from '@stoa/contract/route-index';
import { call } from './client.js';

/** A volume's scope as the server resolved it for the signed-in person (R1). */
export type VolumeScope = RouteOutput<typeof projectRoutes.openVolume>;
/** A volume reachable from a project, as the picker lists it. */
export type VolumeListing = RouteOutput<typeof projectRoutes.listVolumes>[number];

const pr = routeIndex.projects;

/**
 * The volumes beyond projects in the UI: the ones a person reaches from a project, one by its ID (a link, a
 * reload), and a new knowledge base or skill package.
 *
 * @example
 * const kbs = (await volumesApi.list('default')).filter((v) => v.catalog === 'knowledges');
 */
export const volumesApi = {
  list: (project: string) => call(pr.listVolumes, { project }),
  get: (volume: string) => call(pr.getVolume, { volume }),
  /** Opens the knowledge base or skill package of that name in the project, creating it if there is none. */
  create: (catalog: 'knowledges' | 'skills', project: string, name: string) => call(pr.openVolume, { catalog, project, name }),
  remove: (volume: string) => call(pr.deleteVolume, { volume }),
};
