import { z } from 'zod';
import { defineRoute } from '../route.js';

const SessionSchema = z.object({ token: z.string().describe('Bearer token for the web session (also set as the HttpOnly session cookie)'), user: z.string() });

/**
 * How a person signs in to the web UI and manages their own ways in (issue 31): a password (argon2id), kept on
 * the account page. The public routes answer the same `unauthorized` for a wrong name and a wrong password, and
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
    output: z.object({ user: z.string(), password: z.boolean().describe('Whether you have a password') }),
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
};
