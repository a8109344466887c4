import { routeIndex } from '@stoa/contract/route-index';
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { call, setToken } from './client.js';

const r = routeIndex.signIn;

/**
 * Signing in as a person and keeping one's own ways in (issue 31), as packages/contract/src/routes/sign-in.ts
 * defines them. A successful sign-in keeps the session token of this browser.
 *
 * @example
 * await signInApi.password('iris', 'iris likes long passwords');
 */
export const signInApi = {
  password: async (user: string, password: string) => {
    const session = await call(r.password, { user, password });
    setToken(session.token);
    return session;
  },
  /**
   * Accepts an invitation as a new person, with a password (or none, to register a passkey next); the answer's
   * token is this browser's session.
   */
  join: async (code: string, user: string | undefined, password?: string) => {
    const joined = await call(routeIndex.projects.acceptInvitation, { code, user, password });
    if (joined.token) setToken(joined.token);
    return joined;
  },
  /** An invitation into a project (admins): its one-time code, shown once. */
  invite: (project: string, role: 'admin' | 'editor' | 'viewer', user?: string) => call(routeIndex.projects.createInvitation, { project, role, user }),
  /** Signs in with a passkey of this site: the browser asks which one, and for a touch or a PIN. */
  passkey: async () => {
    const begun = await call(r.passkeyOptions, {});
    // Loaded when a passkey is used, not with the first screen.
    const { startAuthentication } = await import('@simplewebauthn/browser');
    const response = await startAuthentication({ optionsJSON: begun.options as unknown as PublicKeyCredentialRequestOptionsJSON });
    const session = await call(r.passkey, { ceremony: begun.ceremony, response: response as unknown as Record<string, unknown> });
    setToken(session.token);
    return session;
  },
  /** Registers a passkey on this device for the signed-in person. */
  addPasskey: async (name?: string) => {
    const begun = await call(r.passkeyRegistrationOptions, {});
    const { startRegistration } = await import('@simplewebauthn/browser');
    const response = await startRegistration({ optionsJSON: begun.options as unknown as PublicKeyCredentialCreationOptionsJSON });
    return call(r.addPasskey, { ceremony: begun.ceremony, response: response as unknown as Record<string, unknown>, name });
  },
  /** Whether this browser can use passkeys at all (WebAuthn). */
  passkeysWork: () => typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function',
  removePasskey: (id: string) => call(r.removePasskey, { id }),
  account: () => call(r.account, {}),
  methods: () => call(r.methods, {}),
  /** Where the SSO button sends the browser (a full page load: the provider's pages come next). */
  ssoUrl: (invite?: string) => `/api/v1/auth/oidc/start${invite ? `?invite=${encodeURIComponent(invite)}` : ''}`,
  changePassword: (password: string, current?: string) => call(r.changePassword, { password, current }),
};
