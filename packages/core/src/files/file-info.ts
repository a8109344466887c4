import type { FilesTable } from '@stoa/db';
import { createdByTag } from '../actors.js';

/** A file as every door presents it. `type`/`modified`/`createdBy` are the §7 JSON names. */
export interface FileInfo {
  id: string;
  path: string;
  name: string;
  size: number;
  type: string;
  modified: string;
  created: string;
  /** "agent: <name>" for agent-written files, "agent" when unmapped, "" for people (F6). */
  createdBy: string;
  /** Who created it, in full (the F6 tooltip: process, node and conversation IDs of an unmapped agent write). */
  creator: { kind: string; id: string | null; label: string | null; meta: Record<string, unknown> | null };
  modifiedBy: { kind: string; id: string | null; label: string | null };
  version: number;
  sha256: string;
  permissions: string;
  /** The metadata written with the current version (R5 `writeRuntimeBuffer`), or null. */
  metadata: Record<string, string> | null;
}

/** A file row; `metadata` (migration 025) is absent where a query did not select it. */
export type FileRow = Omit<FilesTable, 'permissions' | 'metadata'> & { permissions: string; metadata?: string | null };

export function toFileInfo(r: FileRow): FileInfo {
  return {
    id: r.id,
    path: r.path,
    name: r.name,
    size: Number(r.size),
    type: r.mime,
    modified: r.modified_at,
    created: r.created_at,
    createdBy: createdByTag(r.created_by_kind, r.created_by_label),
    creator: { kind: r.created_by_kind, id: r.created_by_id, label: r.created_by_label, meta: r.created_by_meta ? JSON.parse(r.created_by_meta) : null },
    modifiedBy: { kind: r.modified_by_kind, id: r.modified_by_id, label: r.modified_by_label },
    version: r.version,
    sha256: r.sha256,
    permissions: r.permissions,
    metadata: r.metadata ? (JSON.parse(r.metadata) as Record<string, string>) : null,
  };
}
