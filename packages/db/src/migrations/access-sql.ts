/**
 * Migration 009, the access model (F, A2, §10 "Tokens"), written once for both back ends:
 * - a token minted inside a project works only there (`tokens.project_id`);
 * - the installation's superuser power is a property of the token (`tokens.superuser`), never of a user name;
 * - who minted a token (`tokens.created_by`), so a project admin can see and revoke its project's tokens;
 * - invitations: a one-time code a person redeems for their own membership (and token).
 */
export function accessStatements(): string[] {
  return [
    `alter table tokens add column project_id text references projects(id) on delete cascade`,
    `alter table tokens add column superuser integer not null default 0`,
    `alter table tokens add column created_by text`,
    `create index tokens_project on tokens(project_id)`,
    `create index tokens_user on tokens(user_id)`,
    // Before 009 every token of the user named "admin" was installation-wide. Keep that only for the token the
    // bootstrap made (created with the first project, named "bootstrap" or "STOA_ADMIN_TOKEN"); any other token
    // of that user (e.g. one a project admin minted "for" it) loses the power.
    `update tokens set superuser = 1
      where agent_id is null and name in ('bootstrap', 'STOA_ADMIN_TOKEN')
        and user_id in (select id from users where name = 'admin')
        and created_at = (select min(created_at) from projects)`,
    `alter table login_codes add column superuser integer not null default 0`,
    `create table invitations (
      id text primary key, code_hash text not null unique,
      project_id text not null references projects(id) on delete cascade,
      role text not null, user_name text, created_by text not null, created_at text not null,
      expires_at text not null, accepted_at text, accepted_by text)`,
    `create index invitations_project on invitations(project_id)`,
  ];
}
