/** A project as operations see it. */
export interface ProjectRow {
  id: string;
  orgId: string;
  name: string;
  /** Project-level quota override; null means the server default (STOA_QUOTA_BYTES). */
  quotaBytes: number | null;
  createdAt: string;
}

export function toProjectRow(r: { id: string; org_id: string; name: string; quota_bytes: number | null; created_at: string }): ProjectRow {
  return { id: r.id, orgId: r.org_id, name: r.name, quotaBytes: r.quota_bytes === null ? null : Number(r.quota_bytes), createdAt: r.created_at };
}
