/**
 * How people sign in besides login links and API tokens (issue 31): a password per person, stored only as an
 * argon2id hash (migration 032).
 */
export function passwordStatements(): string[] {
  return [`create table user_passwords (user_id text primary key references users(id) on delete cascade, hash text not null, updated_at text not null)`];
}
