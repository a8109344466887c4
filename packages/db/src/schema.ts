import type { Generated } from 'kysely';

/**
 * Row types of every table, one interface per area, joined into `DB`. A migration that adds a table or a column
 * adds it here too, so every query is checked against the real schema and no call site needs a cast.
 *
 * Conventions (see the migrations): timestamps are ISO-8601 UTC text, booleans are 0/1 integers, sizes are 64-bit
 * integers read as numbers. `Generated<T>` marks a column the database fills when an insert leaves it out.
 */

// ---- Foundation (migrations 001, 008): organizations, projects, people, agents, tokens, files, audit ----

export interface OrganizationsTable {
  id: string;
  name: string;
  created_at: string;
}
export interface ProjectsTable {
  id: string;
  org_id: string;
  name: string;
  quota_bytes: number | null;
  used_bytes: Generated<number>;
  reserved_bytes: Generated<number>;
  settings: Generated<string>;
  created_at: string;
  /** Set when a deletion starts (migration 019): the project is gone for every door from then on. */
  deleting_at: Generated<string | null>;
  /** Migration 024 (volumes, R1): 'projects' for a project; else the kind of volume and its typed owners. */
  catalog: Generated<string>;
  volume_key: Generated<string | null>;
  scope_id: Generated<string | null>;
  owner_user_id: Generated<string | null>;
  owner_agent_id: Generated<string | null>;
  parent_project_id: Generated<string | null>;
  label: Generated<string | null>;
}
export interface UsersTable {
  id: string;
  name: string;
  display_name: string | null;
  created_at: string;
}
export interface MembersTable {
  project_id: string;
  user_id: string;
  role: string;
  created_at: string;
}
export interface AgentsTable {
  id: string;
  project_id: string;
  owner_id: string | null;
  name: string;
  instructions: Generated<string>;
  files_enabled: Generated<number>;
  write_scope: Generated<string>;
  read_scope: Generated<string>;
  published_config: string | null;
  published_at: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** Migration 028 (issue 26): set when the owner left the project; the agent acts again once reassigned. */
  suspended_at: Generated<string | null>;
}
export interface TokensTable {
  id: string;
  token_hash: string;
  user_id: string | null;
  agent_id: string | null;
  name: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** Agent tokens created for the agent's publication act with its frozen settings (A7). Migration 002. */
  published: Generated<number>;
  /** Migration 009: the project a token minted inside a project is confined to; null for a person's installation-wide token. */
  project_id: string | null;
  /** 1 only for the installation administrator's own bootstrap/installation tokens (never derived from a name). */
  superuser: Generated<number>;
  /** User who minted the token (null for bootstrap and older tokens). */
  created_by: string | null;
  /** Migration 028 (issue 26): when a login session ends; null for tokens minted on purpose. */
  expires_at: Generated<string | null>;
}
export interface ConversationsTable {
  id: string;
  project_id: string;
  kind: string;
  name: string | null;
  created_at: string;
}
export interface ConversationMembersTable {
  conversation_id: string;
  member_kind: string;
  member_id: string;
}
export interface BlobsTable {
  key: string;
  size: number;
  created_at: string;
}
/** Small blobs kept in the database instead of the blob store (migration 041, decision 0021). */
export interface InlineBlobsTable {
  key: string;
  size: number;
  content: Buffer;
}
export interface FilesTable {
  id: string;
  project_id: string;
  path: string;
  dir: string;
  name: string;
  name_lower: string;
  size: number;
  mime: string;
  sha256: string;
  blob_key: string;
  version: number;
  permissions: Generated<string>;
  created_by_kind: string;
  created_by_id: string | null;
  created_by_label: string | null;
  created_by_meta: string | null;
  created_at: string;
  modified_at: string;
  modified_by_kind: string;
  modified_by_id: string | null;
  modified_by_label: string | null;
  /** Migration 025: the current version's metadata (a JSON object of strings), or null. */
  metadata: Generated<string | null>;
}
export interface FileVersionsTable {
  id: string;
  file_id: string;
  project_id: string;
  path: string;
  version: number;
  size: number;
  mime: string;
  sha256: string;
  blob_key: string;
  author_kind: string;
  author_id: string | null;
  author_label: string | null;
  author_meta: string | null;
  created_at: string;
  /** Migration 025: metadata written with this version (a JSON object of strings), or null. */
  metadata: Generated<string | null>;
}
/** A folder: `file_count` files below it (recursively); `kept` = created on purpose, stays when empty (migration 010). */
export interface DirsTable {
  project_id: string;
  path: string;
  parent: string;
  name: string;
  file_count: number;
  kept: Generated<number>;
}
/** One deletion in a volume's trash (migration 035): a file, or a folder with everything that was in it. */
export interface TrashEntriesTable {
  id: string;
  project_id: string;
  kind: string;
  path: string;
  name: string;
  /** Bytes of the current versions, freed from the quota at the delete and charged again at a restore. */
  size: number;
  /** Bytes of every version kept, what the installation-wide cap counts. */
  stored_bytes: number;
  files: number;
  /** Folders made on purpose inside a deleted folder (a JSON array of paths below it), recreated at a restore. */
  kept_dirs: Generated<string>;
  deleted_at: string;
  deleted_by_kind: string;
  deleted_by_id: string | null;
  deleted_by_label: string | null;
  conversation_id: string | null;
}
/** A deleted file's row, as `files` held it, and the trash entry it went with (migration 035). */
export interface TrashFilesTable extends Omit<FilesTable, 'permissions' | 'metadata'> {
  entry_id: string;
  permissions: string;
  metadata: string | null;
}
/** A deleted file's version, as `file_versions` held it (migration 035). */
export interface TrashVersionsTable extends Omit<FileVersionsTable, 'metadata'> {
  entry_id: string;
  metadata: string | null;
}
/** A WebDAV dead property of a file (migration 010). */
export interface DavPropsTable {
  file_id: string;
  project_id: string;
  ns: string;
  name: string;
  value: string;
}
/** A WebDAV write lock (migration 010); `depth` is "0" or "infinity", `scope` "exclusive" or "shared". */
export interface DavLocksTable {
  token: string;
  project_id: string;
  path: string;
  depth: string;
  scope: string;
  owner: string | null;
  principal: string;
  timeout_seconds: number;
  expires_at: string;
  created_at: string;
}
export interface UploadReservationsTable {
  id: string;
  project_id: string;
  path: string;
  size: number;
  sha256: string | null;
  staging_key: string;
  actor: string;
  status: string;
  created_at: string;
  expires_at: string;
  /** The hash computed while the bytes arrived (migration 008). */
  received_sha256: Generated<string | null>;
  /** Sent in parts of this size (migration 022); null when sent whole. */
  part_size: Generated<number | null>;
  /** The blob store's token for the parts (S3: the multipart upload id). */
  parts_token: Generated<string | null>;
  /** The version the upload must replace, checked at finish (migration 023); null: any. */
  expected_version: Generated<number | null>;
  /** What finishing it answered, as JSON (migration 028): finishing it again answers the same. */
  finished_file: Generated<string | null>;
}
/** A part of a direct upload that arrived whole (migration 022). */
export interface UploadPartsTable {
  upload_id: string;
  part_number: number;
  size: number;
  etag: string;
}
export interface AuditLogTable {
  id: Generated<number>;
  project_id: string;
  at: string;
  actor_kind: string;
  actor_id: string | null;
  actor_label: string | null;
  action: string;
  path: string | null;
  from_path: string | null;
  to_path: string | null;
  size: number | null;
  details: string | null;
}

/** Migration 021: secrets of the installation (e.g. `file-links`, the HMAC key of signed file links), made on first use. */
export interface InstallationSecretsTable {
  name: string;
  value: string;
  created_at: string;
}

/** Installation-wide events that outlive any project, such as a project's deletion (migration 019). */
export interface InstallationAuditTable {
  id: Generated<number>;
  at: string;
  actor_id: string | null;
  actor_label: string | null;
  action: string;
  subject: string;
  details: string | null;
}

/** The change feed (B7, migration 014): every file write, move and delete in commit order. */
export interface FileChangesTable {
  seq: Generated<number>;
  project_id: string;
  kind: string;
  path: string;
  from_path: string | null;
  version: number;
  size: number;
  at: string;
}

/** A change whose derived data (search index) is written after its commit (migration 037, outbox-sql.ts). */
export interface DerivedOutboxTable {
  seq: Generated<number>;
  project_id: string;
  /** 'file', 'wiki' or 'memory'. */
  kind: string;
  /** The file's ID, the wiki page's ID, or the memory file's ID. */
  ref_id: string;
  version: number;
  first_block: Generated<number>;
  old_blocks: Generated<number>;
  path: string | null;
  title: string | null;
  visibility: string | null;
  at: string;
  /** Failed drains of this row so far (migration 045). */
  attempts: Generated<number>;
  /** When a drain may claim the row again after a failure (ISO time); null: at once. */
  retry_at: string | null;
  /** Why the last drain of the row failed. */
  last_error: string | null;
}

export interface BlobDigestsTable {
  sha256: string;
  sha1: string;
  md5: string;
}

export interface LoginCodesTable {
  code_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  superuser: Generated<number>;
}

export interface FoundationDB {
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
  inline_blobs: InlineBlobsTable;
  files: FilesTable;
  file_versions: FileVersionsTable;
  dirs: DirsTable;
  trash_entries: TrashEntriesTable;
  trash_files: TrashFilesTable;
  trash_versions: TrashVersionsTable;
  dav_props: DavPropsTable;
  dav_locks: DavLocksTable;
  upload_reservations: UploadReservationsTable;
  upload_parts: UploadPartsTable;
  audit_log: AuditLogTable;
  file_changes: FileChangesTable;
  derived_outbox: DerivedOutboxTable;
  blob_digests: BlobDigestsTable;
  installation_audit: InstallationAuditTable;
  installation_secrets: InstallationSecretsTable;
}

// ---- Agent file tools (migration 002): write windows (A4), the tool-call trace (F15), file notes ----

export interface AgentWriteWindowsTable {
  project_id: string;
  conversation_key: string;
  agent_id: string;
  window_start: string;
  writes: number;
}
export interface ToolCallsTable {
  seq: Generated<number>;
  id: string;
  project_id: string;
  conversation_id: string | null;
  agent_id: string | null;
  agent_name: string | null;
  tool: string;
  args: string;
  result: string;
  refused: number;
  duration_ms: number;
  path: string | null;
  version: number | null;
  at: string;
  /** The agent's file settings at the call (A1), as JSON; null for calls recorded before migration 034. */
  file_settings: string | null;
}
export interface FileNotesTable {
  file_id: string;
  description: string;
}

export interface AgentToolsDB {
  agent_write_windows: AgentWriteWindowsTable;
  tool_calls: ToolCallsTable;
  file_notes: FileNotesTable;
}

// ---- Search (migrations 003, 006). The FTS5 tables (search_fts, files_name_fts) are read with raw SQL only. ----

export interface SearchDocsTable {
  id: Generated<number>;
  project_id: string;
  kind: string;
  ref_id: string;
  path: string;
  title: string;
  visibility: string;
  updated_at: string;
  ntokens: Generated<number>;
}
/**
 * PostgreSQL only (migrations 040, 049): the postings of one term in a block of up to 128 documents, a row
 * [document − first_doc, title frequency, body frequency, length] each, sorted by document, with the bound points
 * the ranking prunes by. A term's document count is the sum of its blocks' `n` (in all projects).
 */
export interface SearchBlocksTable {
  id: Generated<number>;
  project_id: string;
  term: string;
  first_doc: number;
  last_doc: number;
  n: number;
  bnd: number[][] | null;
  p: number[][];
}
/**
 * PostgreSQL only (migration 052): a word's only posting in a project, in place of a block of one. The ranking reads
 * blocks and singles together through the view `search_all_blocks`.
 */
export interface SearchSinglesTable {
  id: Generated<number>;
  doc: number;
  tt: number;
  tb: number;
  dl: number;
  project_id: string;
  term: string;
}
export interface SearchStatsTable {
  slot: number;
  ndocs: number;
  ntokens: number;
}
export interface SearchBodiesTable {
  doc_id: number;
  body: string;
}
export interface FilesNameIdsTable {
  id: Generated<number>;
  file_id: string;
}

/** Migration 020: the embedding of one search document (or, with `error`, why the provider refused it). */
export interface SearchVectorsTable {
  doc_id: number;
  project_id: string;
  model: string;
  dims: number;
  /** sha256 of the text that was embedded. */
  text_hash: string;
  /** Float32 little-endian, unit length; null when `error` says why there is none. */
  vector: Uint8Array | null;
  error: string | null;
  created_at: string;
}
/** Migration 020: the embedding provider's health per model, for back-off and the status of vectors. */
export interface EmbeddingStateTable {
  model: string;
  failures: Generated<number>;
  next_attempt_at: string | null;
  last_error: string | null;
  updated_at: string;
}

export interface SearchDB {
  search_vectors: SearchVectorsTable;
  embedding_state: EmbeddingStateTable;
  search_docs: SearchDocsTable;
  search_bodies: SearchBodiesTable;
  search_blocks: SearchBlocksTable;
  search_singles: SearchSinglesTable;
  search_stats: SearchStatsTable;
  files_name_ids: FilesNameIdsTable;
}

// ---- Wiki (migration 004) ----

export interface WikiPagesTable {
  id: string;
  project_id: string;
  path: string;
  title: string;
  body: string;
  version: number;
  channel_id: string | null;
  created_at: string;
  created_by_kind: string;
  created_by_id: string | null;
  created_by_label: string | null;
  updated_at: string;
  updated_by_kind: string;
  updated_by_id: string | null;
  updated_by_label: string | null;
}
export interface WikiVersionsTable {
  id: string;
  page_id: string;
  project_id: string;
  version: number;
  path: string;
  title: string;
  body: string;
  channel_id: string | null;
  action: string;
  author_kind: string;
  author_id: string | null;
  author_label: string | null;
  author_meta: string | null;
  created_at: string;
}
export interface WikiLinksTable {
  project_id: string;
  from_page_id: string;
  to_path: string;
  label: string | null;
  heading: string | null;
}

export interface WikiDB {
  wiki_pages: WikiPagesTable;
  wiki_versions: WikiVersionsTable;
  wiki_links: WikiLinksTable;
}

// ---- Memory files (migration 005) ----

export interface MemoryFilesTable {
  id: string;
  project_id: string;
  kind: string;
  scope_id: string;
  version: number;
  updated_at: string;
  author_kind: string | null;
  author_id: string | null;
  author_label: string | null;
  author_meta: string | null;
}
export interface MemoryVersionsTable {
  file_id: string;
  project_id: string;
  version: number;
  /** The whole text, or (delta = 1) only what an append added to the previous version. */
  content: string;
  delta: number;
  chars: number;
  op: string;
  author_kind: string;
  author_id: string | null;
  author_label: string | null;
  author_meta: string | null;
  created_at: string;
}
export interface MemorySeenTable {
  project_id: string;
  agent_id: string;
  conversation_id: string;
  kind: string;
  scope_id: string;
  version: number;
  committed_sha: string | null;
  seen_at: string;
}

export interface MemoryDB {
  memory_files: MemoryFilesTable;
  memory_versions: MemoryVersionsTable;
  memory_seen: MemorySeenTable;
}

// ---- File understanding (migrations 007, 013): one asset per file, its chunks (R6, B4), parse attempts ----

export interface DocAssetsTable {
  id: string;
  project_id: string;
  file_id: string;
  path: string;
  version: number;
  sha256: string;
  parse_mode: string;
  status: string;
  /** Unused since migration 020: the vector status is derived from search_vectors (embeddings/embed-pending.ts). */
  vector_status: string;
  error: string | null;
  chunk_count: Generated<number>;
  text_chars: Generated<number>;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** Parse attempts of the current version (migration 013); after the configured number the asset stays `failed`. */
  attempts: Generated<number>;
  /** Stable code of why parsing failed (too_large, too_complex, timeout, out_of_memory, …), null when not failed. */
  error_code: string | null;
}
export interface DocChunksTable {
  id: string;
  asset_id: string;
  project_id: string;
  path: string;
  version: number;
  idx: number;
  text: string;
  start_offset: number;
  end_offset: number;
  page: number | null;
  content_hash: string;
  created_at: string;
}

export interface UnderstandingDB {
  doc_assets: DocAssetsTable;
  doc_chunks: DocChunksTable;
}

// ---- Access (migration 009): token scope and superuser flag live on tokens; invitations ----

/** A one-time code a person redeems to join a project with a role (and, when new, to get their own token). */
export interface InvitationsTable {
  id: string;
  code_hash: string;
  project_id: string;
  role: string;
  user_name: string | null;
  created_by: string;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  accepted_by: string | null;
}

export interface AccessDB {
  invitations: InvitationsTable;
}

// ---- OAuth for /mcp (migration 030): registered clients, consented grants, their hashed credentials ----

export interface OAuthClientsTable {
  client_id: string;
  client_name: string | null;
  /** JSON array of the registered redirect URIs. */
  redirect_uris: string;
  /** JSON of the client's registration as the server answered it (RFC 7591). */
  metadata: string;
  created_at: string;
}
export interface OAuthGrantsTable {
  id: string;
  client_id: string;
  /** The person who consented; the grant ends when they leave the project. */
  user_id: string;
  project_id: string;
  /** The agent the client acts as. */
  agent_id: string;
  /** The protected resource (RFC 8707) the grant's access tokens are for: the server's `/mcp`. */
  resource: string;
  scope: string | null;
  redirect_uri: string;
  /** PKCE S256 challenge of the authorization request. */
  code_challenge: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}
export interface OAuthTokensTable {
  /** SHA-256 of the credential. */
  token_hash: string;
  grant_id: string;
  kind: 'code' | 'access' | 'refresh';
  created_at: string;
  expires_at: string;
  /** Codes and refresh tokens work once; set when spent. */
  used_at: string | null;
}
export interface OAuthDB {
  oauth_clients: OAuthClientsTable;
  oauth_grants: OAuthGrantsTable;
  oauth_tokens: OAuthTokensTable;
}

// ---- Sign-in of people (migrations 032–034, issue 31) ----

export interface UserPasswordsTable {
  user_id: string;
  /** argon2id in PHC string form (algorithm, parameters and salt with the hash). */
  hash: string;
  updated_at: string;
}
/** A person's passkey (migration 033): `id` is the credential ID (base64url), `public_key` its COSE key (base64url). */
export interface UserPasskeysTable {
  id: string;
  user_id: string;
  public_key: string;
  counter: number;
  /** JSON array of the authenticator's transports, as the browser reported them. */
  transports: string | null;
  name: string | null;
  created_at: string;
  last_used_at: string | null;
}
/** A WebAuthn ceremony in progress: its one-time challenge, for whom (registration) and until when. */
export interface WebauthnCeremoniesTable {
  id: string;
  challenge: string;
  user_id: string | null;
  purpose: 'register' | 'signin';
  created_at: string;
  expires_at: string;
}
/** A person's identity at an OpenID Connect provider (migration 034). */
export interface OidcIdentitiesTable {
  issuer: string;
  subject: string;
  user_id: string;
  email: string | null;
  created_at: string;
}
/** A single sign-on in progress: what the provider's answer must match (state, nonce, PKCE). */
export interface OidcSignInsTable {
  state: string;
  nonce: string;
  verifier: string;
  /** The invitation code the sign-in began from, redeemed when the provider answers. */
  invite: string | null;
  created_at: string;
  expires_at: string;
}
/** A person's starred file, folder or wiki page in a project (migration 036). */
export interface FavouritesTable {
  project_id: string;
  user_id: string;
  /** 'file', 'folder' or 'page'. */
  kind: string;
  /** A file's or page's ID; a folder's path. */
  target: string;
  created_at: string;
}
/** A file or wiki page a person opened in a project, last time only (migration 036). */
export interface RecentItemsTable {
  project_id: string;
  user_id: string;
  kind: string;
  target: string;
  opened_at: string;
}
export interface PersonalDB {
  favourites: FavouritesTable;
  recent_items: RecentItemsTable;
}
/** An expiring share link of a file (migration 038): the link's secret is kept only as its SHA-256. */
export interface ShareLinksTable {
  id: string;
  project_id: string;
  file_id: string;
  token_hash: string;
  /** The person who made it: the link works only while they may still read the file. */
  created_by: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}
export interface SharesDB {
  share_links: ShareLinksTable;
}
export interface SignInDB {
  oidc_identities: OidcIdentitiesTable;
  oidc_sign_ins: OidcSignInsTable;
  user_passwords: UserPasswordsTable;
  user_passkeys: UserPasskeysTable;
  webauthn_ceremonies: WebauthnCeremoniesTable;
}

/** Every table of the database. */
export interface DB extends FoundationDB, AgentToolsDB, SearchDB, WikiDB, MemoryDB, UnderstandingDB, AccessDB, OAuthDB, SignInDB, PersonalDB, SharesDB {}
