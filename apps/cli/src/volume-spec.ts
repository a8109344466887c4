import type { projectRoutes, RouteInput } from '@stoa/contract';
import { UsageError } from './output.js';

type VolumeRequest = RouteInput<typeof projectRoutes.openVolume>;

/**
 * Reads `--volume`: `users` (your own files), `xperts[:AGENT_ID]` (an agent's; an agent token may leave out its
 * own ID), `user-xperts:AGENT_ID` (your files with a private agent), `knowledges:NAME` or `skills:NAME` (in the
 * --project). The server resolves the scope from the token (R1); this only says which volume is meant.
 *
 * @example
 * volumeRequest('knowledges:Team handbook', 'default') // { catalog: 'knowledges', project: 'default', name: 'Team handbook' }
 */
export function volumeRequest(spec: string, project: string | undefined): VolumeRequest {
  const i = spec.indexOf(':');
  const catalog = i < 0 ? spec : spec.slice(0, i);
  const arg = i < 0 ? undefined : spec.slice(i + 1);
  switch (catalog) {
    case 'users':
      if (arg !== undefined) break;
      return { catalog };
    case 'xperts':
    case 'user-xperts':
      if (arg === '' || (catalog === 'user-xperts' && arg === undefined)) break;
      return { catalog, ...(arg ? { agent: arg } : {}) };
    case 'knowledges':
    case 'skills':
      if (!arg) break;
      return { catalog, project: project ?? 'default', name: arg };
  }
  throw new UsageError(
    `--volume "${spec}" is not a volume: give users, xperts[:AGENT_ID], user-xperts:AGENT_ID, knowledges:NAME or skills:NAME (the last two in --project)`,
  );
}
