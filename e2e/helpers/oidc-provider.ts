import { createServer, type Server } from 'node:http';
import Provider from 'oidc-provider';

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close: () => Promise<void>;
}

/**
 * A real OpenID Connect provider (`oidc-provider`) on 127.0.0.1 with one client for Stoa and its development sign-in
 * pages (any login name is an account; its email is `<login>@example.org`, verified). For the single sign-on tests.
 *
 * @example
 * const idp = await startOidcProvider(`${stoaUrl}/api/v1/auth/oidc/callback`);
 */
export async function startOidcProvider(redirectUri: string): Promise<TestOidcProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  const issuer = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  const clientId = 'stoa';
  const clientSecret = 'stoa-test-secret-that-is-long-enough';
  const provider = new Provider(issuer, {
    clients: [
      { client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], grant_types: ['authorization_code'], response_types: ['code'] },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['preferred_username'] },
    // The ID token carries the email itself (openid-client reads the ID token's claims).
    conformIdTokenClaims: false,
    findAccount: async (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: async () => ({ sub: id, email: `${id}@example.org`, email_verified: true, preferred_username: id }),
    }),
  });
  server.on('request', provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
