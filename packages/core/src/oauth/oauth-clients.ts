import { StoaError } from '@stoa/contract';
import type { Platform } from '../platform.js';

/** A registered client as the authorization server keeps it: the registration answer (RFC 7591) as given back. */
export interface OAuthClientRecord {
  client_id: string;
  redirect_uris: string[];
  client_name?: string;
  [field: string]: unknown;
}

/**
 * Keeps a client that registered itself (RFC 7591). Stoa registers public clients only (no secret: PKCE binds
 * the code to the client instance), so there is nothing secret to store.
 */
export async function saveOAuthClient(platform: Platform, client: OAuthClientRecord): Promise<void> {
  await platform.db.kysely
    .insertInto('oauth_clients')
    .values({
      client_id: client.client_id,
      client_name: typeof client.client_name === 'string' ? client.client_name : null,
      redirect_uris: JSON.stringify(client.redirect_uris),
      metadata: JSON.stringify(client),
      created_at: platform.clock().toISOString(),
    })
    .execute();
}

/** The registered client with this ID, or undefined. */
export async function findOAuthClient(platform: Platform, clientId: string): Promise<OAuthClientRecord | undefined> {
  const row = await platform.db.kysely.selectFrom('oauth_clients').select(['metadata']).where('client_id', '=', clientId).executeTakeFirst();
  return row ? (JSON.parse(row.metadata) as OAuthClientRecord) : undefined;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Does a requested redirect URI match a registered one? Exactly, or — for loopback URIs of native clients — in
 * everything but the port (RFC 8252 §7.3), as the MCP SDK's authorization handler decides it too.
 */
export function redirectUriMatches(requested: string, registered: string): boolean {
  if (requested === registered) return true;
  let req: URL, reg: URL;
  try {
    req = new URL(requested);
    reg = new URL(registered);
  } catch {
    return false;
  }
  if (!LOOPBACK.has(req.hostname) || !LOOPBACK.has(reg.hostname)) return false;
  return req.protocol === reg.protocol && req.hostname === reg.hostname && req.pathname === reg.pathname && req.search === reg.search;
}

/**
 * The client and the redirect URI of an authorization request, checked against its registration. Anything
 * unregistered is refused here, before any redirect: a consent must never send a code to an address the client
 * did not register.
 */
export async function checkedClient(platform: Platform, clientId: string, redirectUri: string): Promise<{ client: OAuthClientRecord; redirectUri: string }> {
  const client = await findOAuthClient(platform, clientId);
  if (!client) throw new StoaError('not_found', 'this application is not registered (its client_id is unknown)');
  if (!client.redirect_uris.some((r) => redirectUriMatches(redirectUri, r)))
    throw new StoaError('bad_request', 'this redirect URI is not registered for the application');
  return { client, redirectUri };
}

/** What the consent page shows a person of a client: its ID, its self-declared name and the checked redirect URI. */
export async function describeOAuthClient(
  platform: Platform,
  principal: { kind: 'user' | 'agent' },
  clientId: string,
  redirectUri: string,
): Promise<{ id: string; name: string | null; redirectUri: string }> {
  if (principal.kind !== 'user') throw new StoaError('forbidden', 'only a person can consent to an application');
  const { client } = await checkedClient(platform, clientId, redirectUri);
  return { id: client.client_id, name: typeof client.client_name === 'string' ? client.client_name : null, redirectUri };
}
