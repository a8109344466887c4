/** The kinds of volume (R1): a project's files, and the volumes beyond projects. */
export type Catalog = 'projects' | 'users' | 'knowledges' | 'skills' | 'xperts' | 'user-xperts';

/**
 * What makes a row of the container table a volume beyond a project (R1): its kind and its typed owners. The
 * person of a private agent's volume is kept beside the agent, never concatenated with it.
 */
export interface VolumeOwners {
  catalog: Exclude<Catalog, 'projects'>;
  /** The catalog's own key: the person (users), the agent (xperts, user-xperts), the volume itself (knowledges, skills). */
  scopeId: string;
  /** The person who owns it: users, user-xperts. */
  userId: string | null;
  /** The agent it belongs to: xperts, user-xperts. */
  xpertId: string | null;
  /** The project it belongs to: knowledges, skills, and an agent's project for xperts and user-xperts. */
  parentProjectId: string | null;
  /** A knowledge base's or skill package's name in its project. */
  label: string | null;
}

/** A project — or a volume beyond projects, which operations treat as a project of its own — as operations see it. */
export interface ProjectRow {
  id: string;
  orgId: string;
  name: string;
  /** Project-level quota override; null means the server default (STOA_QUOTA_BYTES). */
  quotaBytes: number | null;
  createdAt: string;
  /** Set for a volume beyond projects (never for a project). */
  volume?: VolumeOwners;
}

interface ContainerRow {
  id: string;
  org_id: string;
  name: string;
  quota_bytes: number | null;
  created_at: string;
  catalog?: string;
  scope_id?: string | null;
  owner_user_id?: string | null;
  owner_agent_id?: string | null;
  parent_project_id?: string | null;
  label?: string | null;
}

export function toProjectRow(r: ContainerRow): ProjectRow {
  const row: ProjectRow = {
    id: r.id,
    orgId: r.org_id,
    name: r.name,
    quotaBytes: r.quota_bytes === null ? null : Number(r.quota_bytes),
    createdAt: r.created_at,
  };
  if (r.catalog && r.catalog !== 'projects') {
    row.volume = {
      catalog: r.catalog as VolumeOwners['catalog'],
      scopeId: r.scope_id ?? r.id,
      userId: r.owner_user_id ?? null,
      xpertId: r.owner_agent_id ?? null,
      parentProjectId: r.parent_project_id ?? null,
      label: r.label ?? null,
    };
  }
  return row;
}
