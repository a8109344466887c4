import type { Generated } from 'kysely';

/** Row types of the foundation tables. Areas that add tables extend `DB` in their own schema file. */
export interface OrganizationsTable { id: string; name: string; created_at: string }
export interface ProjectsTable {
  id: string; org_id: string; name: string; quota_bytes: number | null; used_bytes: Generated<number>;
  reserved_bytes: Generated<number>; settings: Generated<string>; created_at: string;
}
export interface UsersTable { id: string; name: string; display_name: string | null; created_at: string }
export interface MembersTable { project_id: string; user_id: string; role: string; created_at: string }
export interface AgentsTable {
  id: string; project_id: string; owner_id: string | null; name: string; instructions: Generated<string>;
  files_enabled: Generated<number>; write_scope: Generated<string>; read_scope: Generated<string>;
  published_config: string | null; published_at: string | null; created_at: string; updated_at: string;
  deleted_at: string | null;
}
export interface TokensTable {
  id: string; token_hash: string; user_id: string | null; agent_id: string | null; name: string | null;
  created_at: string; last_used_at: string | null; revoked_at: string | null;
  /** Agent tokens created for the agent's publication act with its frozen settings (SPEC A7). */
  published: Generated<number>;
}
export interface ConversationsTable { id: string; project_id: string; kind: string; name: string | null; created_at: string }
export interface ConversationMembersTable { conversation_id: string; member_kind: string; member_id: string }
export interface BlobsTable { key: string; size: number; created_at: string }
export interface FilesTable {
  id: string; project_id: string; path: string; dir: string; name: string; name_lower: string; size: number;
  mime: string; sha256: string; blob_key: string; version: number; permissions: Generated<string>;
  created_by_kind: string; created_by_id: string | null; created_by_label: string | null; created_by_meta: string | null;
  created_at: string; modified_at: string; modified_by_kind: string; modified_by_id: string | null;
  modified_by_label: string | null;
}
export interface FileVersionsTable {
  id: string; file_id: string; project_id: string; path: string; version: number; size: number; mime: string;
  sha256: string; blob_key: string; author_kind: string; author_id: string | null; author_label: string | null;
  author_meta: string | null; created_at: string;
}
export interface DirsTable { project_id: string; path: string; parent: string; name: string; file_count: number }
export interface UploadReservationsTable {
  id: string; project_id: string; path: string; size: number; sha256: string | null; staging_key: string;
  actor: string; status: string; created_at: string; expires_at: string; received_sha256: string | null;
}
export interface AuditLogTable {
  id: Generated<number>; project_id: string; at: string; actor_kind: string; actor_id: string | null;
  actor_label: string | null; action: string; path: string | null; from_path: string | null; to_path: string | null;
  size: number | null; details: string | null;
}

/** A file registered for understanding (SPEC R6): parse status of its current version. */
export interface DocAssetsTable {
  id: string; project_id: string; file_id: string; path: string; version: number; sha256: string; parse_mode: string;
  status: string; vector_status: string; error: string | null; chunk_count: Generated<number>; text_chars: Generated<number>;
  created_at: string; updated_at: string; deleted_at: string | null;
  /** Parse attempts of the current version; after the configured number the asset stays `failed`. */
  attempts: Generated<number>;
  /** Stable code of why parsing failed (too_large, too_complex, timeout, out_of_memory, …), null when not failed. */
  error_code: string | null;
}

export interface LoginCodesTable { code_hash: string; user_id: string; created_at: string; expires_at: string; used_at: string | null }

export interface DB {
  login_codes: LoginCodesTable;
  organizations: OrganizationsTable;
  projects: ProjectsTable;
  users: UsersTable;
  members: MembersTable;
  agents: AgentsTable;
  tokens: TokensTable;
  conversations: ConversationsTable;
  conversation_members: ConversationMembersTable;
  blobs: BlobsTable;
  files: FilesTable;
  file_versions: FileVersionsTable;
  dirs: DirsTable;
  upload_reservations: UploadReservationsTable;
  audit_log: AuditLogTable;
  doc_assets: DocAssetsTable;
  // Tables owned by other areas are typed in their modules; `any`-typed access goes through `db.kysely as Kysely<any>`.
  [table: string]: any;
}
