import { StoaError } from '@stoa/contract';
import { newId, newToken } from '../ids.js';
import type { Platform } from '../platform.js';
import { hashToken } from './bootstrap.js';
import { createLoginCode } from './login.js';
import { isInstallationAdminPrincipal, type Principal } from './tokens.js';

function requireInstallationAdmin(principal: Principal, what: string): asserts principal is Extract<Principal, { kind: 'user' }> {
  if (!isInstallationAdminPrincipal(principal)) throw new StoaError('forbidden', `only an installation administrator may ${what}`);
}

/**
 * A fresh one-time login link for the web UI, for the installation administrator asking (issue 32): the way in
 * without restarting the server. Returns the path to open on the server's address; the code lasts 15 minutes.
 *
 * @example
 * const { path } = await createLoginLink(platform, principal); // '/login?code=…'
 */
export async function createLoginLink(platform: Platform, principal: Principal): Promise<{ path: string; expiresInSeconds: number }> {
  requireInstallationAdmin(principal, 'create a login link');
  const expiresInSeconds = 900;
  const code = await createLoginCode(platform, principal.userId, { superuser: true, ttlSeconds: expiresInSeconds });
  return { path: `/login?code=${encodeURIComponent(code)}`, expiresInSeconds };
}

/**
 * A new token of the installation administrator: not confined to a project, so it runs installation-wide
 * commands (doctor, project deletion) from anywhere — what `serve` tells a newcomer to create when the first
 * token was shown once and is lost (issues 28, 32). Returned once; only its hash is stored.
 *
 * @example
 * const { token } = await createInstallationToken(platform, principal, { name: 'laptop' });
 */
export async function createInstallationToken(platform: Platform, principal: Principal, opts: { name?: string } = {}): Promise<{ token: string; id: string }> {
  requireInstallationAdmin(principal, 'create an installation administrator token');
  const token = newToken();
  const id = newId('tok');
  await platform.db.kysely
    .insertInto('tokens')
    .values({
      id,
      token_hash: hashToken(token),
      user_id: principal.userId,
      agent_id: null,
      name: opts.name ?? 'installation administrator',
      created_at: platform.clock().toISOString(),
      last_used_at: null,
      revoked_at: null,
      superuser: 1,
      created_by: principal.userId,
    })
    .execute();
  return { token, id };
}
