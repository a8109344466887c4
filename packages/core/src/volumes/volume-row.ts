import type { Platform } from '../platform.js';
import { toProjectRow, type ProjectRow } from '../projects/project-row.js';

/** Volumes beyond projects are named by IDs of their own prefix, so a door's `project` parameter tells them apart. */
export const VOLUME_PREFIX = 'vol_';

export function isVolumeId(s: string): boolean {
  return s.startsWith(VOLUME_PREFIX) && s.length > VOLUME_PREFIX.length;
}

/** A volume beyond projects by its ID, unless it does not exist or is being deleted. */
export async function liveVolumeById(platform: Platform, id: string): Promise<ProjectRow | undefined> {
  const row = await platform.db.kysely
    .selectFrom('projects')
    .selectAll()
    .where('id', '=', id)
    .where('catalog', '!=', 'projects')
    .where('deleting_at', 'is', null)
    .executeTakeFirst();
  return row ? toProjectRow(row) : undefined;
}
