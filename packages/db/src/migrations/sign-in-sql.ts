/**
 * How people sign in besides login links and API tokens (issue 31): a password per person, stored only as an
 * argon2id hash (migration 032).
 */
export function passwordStatements(): string[] {
  return [`create table user_passwords (user_id text primary key references users(id) on delete cascade, hash text not null, updated_at text not null)`];
}

/**
 * Passkeys (WebAuthn, migration 033): each person's registered credentials (public keys only; the signature
 * counter is kept to notice a cloned authenticator), and the one-time challenges of ceremonies in progress.
 */
export function passkeyStatements(): string[] {
  return [
    `create table user_passkeys (id text primary key, user_id text not null references users(id) on delete cascade,
      public_key text not null, counter integer not null, transports text, name text, created_at text not null, last_used_at text)`,
    `create index user_passkeys_user on user_passkeys (user_id)`,
    `create table webauthn_ceremonies (id text primary key, challenge text not null, user_id text, purpose text not null,
      created_at text not null, expires_at text not null)`,
  ];
}

/**
 * Single sign-on through an OpenID Connect provider (migration 034): which person an identity at a provider
 * (issuer and subject) is, and the sign-ins in progress (state, nonce and PKCE verifier, kept until the provider
 * sends the browser back; an invitation's code when the sign-in began from one).
 */
export function oidcStatements(): string[] {
  return [
    `create table oidc_identities (issuer text not null, subject text not null, user_id text not null references users(id) on delete cascade,
      email text, created_at text not null, primary key (issuer, subject))`,
    `create index oidc_identities_user on oidc_identities (user_id)`,
    `create table oidc_sign_ins (state text primary key, nonce text not null, verifier text not null, invite text,
      created_at text not null, expires_at text not null)`,
  ];
}
