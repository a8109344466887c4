/**
 * Stoa as the OAuth 2.1 authorization server of its own `/mcp` (migration 030, docs/decisions/0018-mcp-oauth.md):
 * registered clients (RFC 7591), the grants people consent to (one client acting as one agent of one project,
 * for one resource), and the grant's credentials — authorization code, access and refresh tokens — stored only
 * as SHA-256 hashes, as API tokens are.
 */
export function oauthStatements(): string[] {
  return [
    `create table oauth_clients (client_id text primary key, client_name text, redirect_uris text not null,
      metadata text not null, created_at text not null)`,
    `create table oauth_grants (id text primary key, client_id text not null references oauth_clients(client_id) on delete cascade,
      user_id text not null, project_id text not null, agent_id text not null, resource text not null, scope text,
      redirect_uri text not null, code_challenge text not null, created_at text not null, last_used_at text, revoked_at text)`,
    `create index oauth_grants_project on oauth_grants (project_id)`,
    `create table oauth_tokens (token_hash text primary key, grant_id text not null references oauth_grants(id) on delete cascade,
      kind text not null, created_at text not null, expires_at text not null, used_at text)`,
    `create index oauth_tokens_grant on oauth_tokens (grant_id)`,
  ];
}
