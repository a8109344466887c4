import type { oauthRoutes, RouteInput, RouteOutput } from '@stoa/contract';
import { routeIndex } from '@stoa/contract/route-index';
import { call } from './client.js';

export type OAuthGrant = RouteOutput<typeof oauthRoutes.listGrants>[number];
type ConsentInput = Omit<RouteInput<typeof oauthRoutes.approve>, 'project'>;

const r = routeIndex.oauth;

/**
 * The consent page and the grants list: applications that act as an agent at /mcp (MCP authorization), as the
 * routes of packages/contract/src/routes/oauth.ts define them.
 *
 * @example
 * const { redirectTo } = await oauthApi.approve('default', { agent, clientId, redirectUri, codeChallenge, codeChallengeMethod: 'S256', resource });
 */
export const oauthApi = {
  client: (client: string, redirectUri: string) => call(r.client, { client, redirectUri }),
  approve: (project: string, input: ConsentInput) => call(r.approve, { project, ...input }),
  grants: (project: string) => call(r.listGrants, { project }),
  revoke: (project: string, id: string) => call(r.revokeGrant, { project, id }),
};

/** Where the sign-in page sends the person back to after signing in (the consent page that sent them there). */
const RETURN_KEY = 'stoa.afterSignIn';

/**
 * Remembers the consent page to come back to, or takes it (once) after signing in; only a consent page is ever
 * returned to, so nothing else can plant a destination.
 *
 * @example
 * navigate(takeReturnPath() ?? '/files', true);
 */
export function rememberReturnPath(path: string): void {
  sessionStorage.setItem(RETURN_KEY, path);
}

export function takeReturnPath(): string | null {
  const path = sessionStorage.getItem(RETURN_KEY);
  sessionStorage.removeItem(RETURN_KEY);
  return path && path.startsWith('/consent?') ? path : null;
}
