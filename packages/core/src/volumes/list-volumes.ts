import { StoaError } from '@stoa/contract';
import { contextFor } from '../context.js';
import type { Platform } from '../platform.js';
import type { VolumeOwners } from '../projects/project-row.js';
import { toProjectRow } from '../projects/project-row.js';
import type { Principal } from '../projects/tokens.js';
import { accessOf, volumeName, type VolumeScope } from './open-volume.js';
import { volumeActor } from './volume-access.js';

type VolumeCatalog = VolumeOwners['catalog'];

/** One volume as the list shows it: its typed scope (R1), what the caller may do there, and its usage. */
interface VolumeListing {
  volumeId: string;
  catalog: VolumeCatalog;
  name: string;
  scopeId: string;
  userId: string | null;
  projectId: string | null;
  knowledgeId: string | null;
  skillId: string | null;
  xpertId: string | null;
  access: VolumeScope['access'];
  agentName: string | null;
  /** An agent's volume whose agent was deleted (decision 0016): read-only, and its people may delete it. */
  agentDeleted: boolean;
  createdAt: string;
  usedBytes: number;
  quotaBytes: number;
}

const ORDER: VolumeCatalog[] = ['users', 'knowledges', 'skills', 'xperts', 'user-xperts'];

/**
 * The volumes beyond projects the caller reaches from a project (R1): its knowledge bases and skill packages, its
 * agents' volumes and private-agent volumes the caller may read, and the caller's own files. Each candidate is
 * put through `volumeActor`, the one rule of who reaches a volume, so the list never shows what opening it would
 * refuse; an outsider to the project gets its not_found.
 *
 * @example
 * await listVolumes(platform, principal, { project: 'default' }) // [{ catalog: 'knowledges', name: 'Handbook', access: 'editor', … }]
 */
export async function listVolumes(platform: Platform, principal: Principal, input: { project: string; catalog?: VolumeCatalog }): Promise<VolumeListing[]> {
  const ctx = await contextFor(platform, principal, { project: input.project });
  if (ctx.project.volume) throw new StoaError('forbidden', 'a volume holds files only: it has no volumes of its own');
  const person = principal.kind === 'user' ? principal.userId : null;
  const rows = await platform.db.kysely
    .selectFrom('projects')
    .selectAll()
    .where('deleting_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb.and([eb('parent_project_id', '=', ctx.project.id), eb('catalog', 'in', ['knowledges', 'skills', 'xperts', 'user-xperts'])]),
        ...(person ? [eb.and([eb('catalog', '=', 'users'), eb('owner_user_id', '=', person)])] : []),
      ]),
    )
    .$if(input.catalog !== undefined, (q) => q.where('catalog', '=', input.catalog!))
    .execute();
  const agentIds = [...new Set(rows.map((r) => r.owner_agent_id).filter((id): id is string => !!id))];
  const agents = agentIds.length
    ? await platform.db.kysely.selectFrom('agents').select(['id', 'name', 'deleted_at']).where('id', 'in', agentIds).execute()
    : [];
  const agentById = new Map(agents.map((a) => [a.id, a]));
  const out: VolumeListing[] = [];
  for (const r of rows) {
    const v = toProjectRow(r).volume!;
    let access: VolumeScope['access'];
    try {
      access = accessOf(await volumeActor(platform, principal, v));
    } catch (e) {
      if (e instanceof StoaError && e.code === 'not_found') continue;
      throw e;
    }
    if (access === 'none') continue;
    const agent = v.xpertId ? agentById.get(v.xpertId) : undefined;
    out.push({
      volumeId: r.id,
      catalog: v.catalog,
      name: volumeName(v, agent?.name),
      scopeId: v.scopeId,
      userId: v.userId,
      projectId: v.parentProjectId,
      knowledgeId: v.catalog === 'knowledges' ? r.id : null,
      skillId: v.catalog === 'skills' ? r.id : null,
      xpertId: v.xpertId,
      access,
      agentName: agent?.name ?? null,
      agentDeleted: !!agent?.deleted_at,
      createdAt: r.created_at,
      usedBytes: Number(r.used_bytes),
      quotaBytes: r.quota_bytes === null ? platform.config.limits.quotaBytes : Number(r.quota_bytes),
    });
  }
  return out.sort((a, b) => ORDER.indexOf(a.catalog) - ORDER.indexOf(b.catalog) || a.name.localeCompare(b.name));
}
