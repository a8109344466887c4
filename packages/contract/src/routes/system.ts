import { z } from 'zod';
import { inputMax } from '../limits.js';
import { defineRoute } from '../route.js';

/**
 * Routes of the server itself rather than of a project: health, this API's description, redeeming a login
 * link and opening a signed file link. Public (no token). The server answers them directly; they are listed so the OpenAPI document covers them.
 */
export const systemRoutes = {
  health: defineRoute({
    id: 'system.health',
    method: 'GET',
    path: '/health',
    summary: 'Liveness: the server is up and which back ends it uses',
    public: true,
    input: z.object({}),
    output: z.object({ ok: z.literal(true), database: z.enum(['sqlite', 'postgres']), storage: z.string().describe('"fs" or "s3"') }),
  }),
  limits: defineRoute({
    id: 'system.limits',
    method: 'GET',
    path: '/limits',
    summary: 'The settings a client follows: up to which size an upload goes through the server, and the size of a direct upload part',
    description:
      'Files up to directUploadBytes (STOA_DIRECT_UPLOAD_BYTES) go through PUT /projects/{project}/files; larger ones go straight to storage through POST /projects/{project}/uploads in parts of uploadPartBytes (STOA_UPLOAD_PART_BYTES). The web UI chooses the way by it.',
    public: true,
    input: z.object({}),
    output: z.object({ directUploadBytes: z.number().int(), uploadPartBytes: z.number().int() }),
  }),
  openapi: defineRoute({
    id: 'system.openapi',
    method: 'GET',
    path: '/openapi.json',
    summary: 'This OpenAPI 3.1 document',
    public: true,
    input: z.object({}),
    output: z.record(z.string(), z.unknown()),
  }),
  login: defineRoute({
    id: 'auth.login',
    method: 'POST',
    path: '/auth/login',
    summary: 'Exchange a one-time login code for a session token (also set as an HttpOnly session cookie)',
    public: true,
    description: 'The code is single-use and expires; an invalid, used or expired code answers 401 unauthorized.',
    input: z.object({ code: z.string().max(inputMax.id).min(1).describe('The code from the login link') }),
    output: z.object({ token: z.string().describe('Bearer token for the web session'), user: z.string() }),
    errors: ['unauthorized'],
  }),
  logout: defineRoute({
    id: 'auth.logout',
    method: 'POST',
    path: '/auth/logout',
    summary: 'End the web session: revokes its token on the server and clears the session cookie',
    public: true,
    input: z.object({}),
    output: z.object({ ok: z.literal(true) }),
  }),
  signedFile: defineRoute({
    id: 'files.signed',
    errors: ['unauthorized'],
    method: 'GET',
    path: '/files/signed/{token}',
    summary: 'The bytes behind a URL from files.resolve (the signature is the credential; no token)',
    public: true,
    input: z.object({ token: z.string().max(inputMax.id).min(1).describe('The signed part of the URL') }),
    output: z.unknown(),
    raw: { response: 'application/octet-stream' },
  }),
};
