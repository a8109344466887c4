import { z } from 'zod';
import { defineRoute, projectParam } from '../route.js';

/** A grant a person consented to: one OAuth client acting as one agent of the project at one resource (`/mcp`). */
export const OAuthGrantSchema = z.object({
  id: z.string(),
  client: z.object({ id: z.string(), name: z.string().nullable() }),
  user: z.string().nullable().describe('Who consented'),
  agent: z.string().describe('The agent the client acts as'),
  resource: z.string().describe('Where its access tokens work (RFC 8707): this server’s /mcp'),
  scope: z.string().nullable(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});

/**
 * The web UI's side of Stoa's OAuth authorization server for `/mcp` (docs/agents.md): what the consent page shows,
 * the consent itself, and the grants people see and revoke. The protocol endpoints (`/oauth/register`,
 * `/oauth/authorize`, `/oauth/token`, `/oauth/revoke`) are OAuth's own, outside `/api/v1`.
 */
export const oauthRoutes = {
  client: defineRoute({
    id: 'oauth.client',
    method: 'GET',
    path: '/oauth/clients/{client}',
    summary: 'A registered OAuth client as the consent page shows it, and whether it registered this redirect URI',
    input: z.object({
      client: z.string().min(1).max(200),
      redirectUri: z.string().min(1).max(2000).describe('The redirect URI of the authorization request'),
    }),
    output: z.object({ id: z.string(), name: z.string().nullable(), redirectUri: z.string().describe('The redirect URI, checked against the registration') }),
  }),
  approve: defineRoute({
    id: 'oauth.approve',
    method: 'POST',
    path: '/projects/{project}/oauth/grants',
    status: 201,
    summary: 'Consent: let an OAuth client act as an agent of this project at /mcp; answers where to send the browser (with a one-time code)',
    input: z.object({
      project: projectParam,
      agent: z.string().min(1).max(100).describe('The agent the client acts as (you must be allowed to mint its tokens)'),
      clientId: z.string().min(1).max(200),
      redirectUri: z.string().min(1).max(2000),
      codeChallenge: z.string().min(43).max(128).describe('PKCE challenge (S256) of the authorization request'),
      codeChallengeMethod: z.literal('S256'),
      resource: z.string().min(1).max(2000).describe('The protected resource (RFC 8707): this server’s /mcp'),
      scope: z.string().max(1000).optional(),
      state: z.string().max(2000).optional(),
    }),
    output: z.object({ id: z.string(), redirectTo: z.string().describe('The client’s redirect URI with code, state and iss') }),
  }),
  listGrants: defineRoute({
    id: 'oauth.grants.list',
    method: 'GET',
    path: '/projects/{project}/oauth/grants',
    summary: 'OAuth grants you may revoke: your own, your agents’, and (project admins) every grant of this project',
    input: z.object({ project: projectParam }),
    output: z.array(OAuthGrantSchema),
  }),
  revokeGrant: defineRoute({
    id: 'oauth.grants.revoke',
    method: 'DELETE',
    path: '/projects/{project}/oauth/grants/{id}',
    summary: 'Revoke an OAuth grant: its access and refresh tokens stop working at once',
    input: z.object({ project: projectParam, id: z.string().min(1).max(100) }),
    output: z.object({ ok: z.literal(true) }),
  }),
};
