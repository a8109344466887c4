import { z } from 'zod';
import { defineRoute } from '../route.js';

const SessionSchema = z.object({ token: z.string().describe('Bearer token for the web session (also set as the HttpOnly session cookie)'), user: z.string() });

const PasskeySchema = z.object({ id: z.string(), name: z.string().nullable(), createdAt: z.string(), lastUsedAt: z.string().nullable() });
/** A WebAuthn ceremony begun: its id (sent back with the answer) and the options for the browser's WebAuthn call. */
const CeremonySchema = z.object({
  ceremony: z.string(),
  options: z.record(z.string(), z.unknown()).describe('PublicKeyCredential options (JSON) for the browser'),
});
/** The browser's WebAuthn answer (JSON), checked by the server; its keys are the spec's few names, each bounded. */
const CredentialSchema = z.record(z.string().max(64), z.unknown());

/**
 * How a person signs in to the web UI and manages their own ways in (issue 31): a password (argon2id), kept on
 * the account page, and passkeys (WebAuthn). The public routes answer the same `unauthorized` for a wrong name and a wrong password, and
 * their failures count against the client address like a wrong token.
 */
export const signInRoutes = {
  password: defineRoute({
    id: 'signin.password',
    method: 'POST',
    path: '/auth/password',
    public: true,
    summary: 'Sign in with your name and password: a web session token (also set as the session cookie)',
    description: 'A wrong name or a wrong password both answer 401 unauthorized; repeated failures answer 429 rate_limited.',
    input: z.object({ user: z.string().min(1).max(200), password: z.string().min(1).max(1024) }),
    output: SessionSchema,
    errors: ['unauthorized'],
  }),
  account: defineRoute({
    id: 'account.get',
    method: 'GET',
    path: '/account',
    summary: 'Your account: your name and how you sign in',
    input: z.object({}),
    output: z.object({
      user: z.string(),
      password: z.boolean().describe('Whether you have a password'),
      passkeys: z.array(PasskeySchema),
    }),
  }),
  changePassword: defineRoute({
    id: 'account.password',
    method: 'POST',
    path: '/account/password',
    summary: 'Set or change your password (changing it needs the current one)',
    input: z.object({
      current: z.string().max(1024).optional().describe('Your current password, when you have one'),
      password: z.string().min(1).max(256).describe('The new password (at least 10 characters)'),
    }),
    output: z.object({ ok: z.literal(true) }),
    description: 'A missing or wrong current password answers 403 forbidden (the session stays valid) and counts against the client address.',
    errors: ['forbidden'],
  }),
  passkeyOptions: defineRoute({
    id: 'signin.passkeyOptions',
    method: 'POST',
    path: '/auth/passkey/options',
    public: true,
    summary: 'Begin signing in with a passkey: a one-time challenge for any passkey of this site',
    input: z.object({}),
    output: CeremonySchema,
  }),
  passkey: defineRoute({
    id: 'signin.passkey',
    method: 'POST',
    path: '/auth/passkey',
    public: true,
    summary: 'Sign in with a passkey: the authenticator’s answer to the challenge; a web session token (also set as the session cookie)',
    description: 'Any failure answers 401 unauthorized and counts against the client address.',
    input: z.object({ ceremony: z.string().min(1).max(100), response: CredentialSchema }),
    output: SessionSchema,
    errors: ['unauthorized'],
  }),
  passkeyRegistrationOptions: defineRoute({
    id: 'account.passkeyOptions',
    method: 'POST',
    path: '/account/passkeys/options',
    summary: 'Begin adding a passkey to your account: the options for the browser',
    input: z.object({}),
    output: CeremonySchema,
  }),
  addPasskey: defineRoute({
    id: 'account.addPasskey',
    method: 'POST',
    path: '/account/passkeys',
    status: 201,
    summary: 'Add a passkey to your account: the authenticator’s answer to the registration challenge',
    input: z.object({ ceremony: z.string().min(1).max(100), response: CredentialSchema, name: z.string().max(100).optional() }),
    output: z.object({ id: z.string() }),
  }),
  removePasskey: defineRoute({
    id: 'account.removePasskey',
    method: 'DELETE',
    path: '/account/passkeys/{id}',
    summary: 'Remove one of your passkeys',
    input: z.object({ id: z.string().min(1).max(1000) }),
    output: z.object({ ok: z.literal(true) }),
  }),
  methods: defineRoute({
    id: 'signin.methods',
    method: 'GET',
    path: '/auth/methods',
    public: true,
    summary: 'The ways to sign in this server offers besides name, password and passkey: single sign-on, when configured',
    input: z.object({}),
    output: z.object({ sso: z.object({ name: z.string().describe('The provider’s name for its button') }).nullable() }),
  }),
  oidcStart: defineRoute({
    id: 'signin.oidcStart',
    method: 'GET',
    path: '/auth/oidc/start',
    public: true,
    status: 302,
    summary: 'Begin single sign-on: redirects the browser to the OpenID Connect provider',
    input: z.object({
      invite: z.string().min(1).max(200).optional().describe('The invitation code the person came with (links their identity to the new account)'),
    }),
    output: z.object({ location: z.string().describe('Where the browser is sent (the Location header)') }),
    errors: ['not_found', 'unavailable'],
  }),
  oidcCallback: defineRoute({
    id: 'signin.oidcCallback',
    method: 'GET',
    path: '/auth/oidc/callback',
    public: true,
    status: 302,
    summary: 'Where the provider sends the browser back: redirects to a one-time login link of the web UI, or to the sign-in page with an error',
    input: z.object({
      state: z.string().max(500).optional(),
      code: z.string().max(4000).optional(),
      iss: z.string().max(2000).optional(),
      error: z.string().max(200).optional(),
      session_state: z.string().max(500).optional(),
    }),
    output: z.object({ location: z.string() }),
    errors: ['unauthorized'],
  }),
};
