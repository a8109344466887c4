import { signInRoutes } from '@stoa/contract';
import { accountOf, changePassword, signInWithPassword } from '../projects/passwords.js';
import { beginOidcSignIn, finishOidcSignIn, signInMethods } from '../projects/oidc.js';
import { addPasskey, listPasskeys, passkeyRegistrationOptions, passkeySignInOptions, removePasskey, signInWithPasskey } from '../projects/passkeys.js';
import { globalOperation, publicOperation, type OperationTraits } from './operation.js';

const r = signInRoutes;
const signedIn = (mutates = false): OperationTraits => ({ policy: 'signed-in', mutates, audit: null, agent: 'none' });
const open: OperationTraits = { policy: 'public', mutates: true, audit: null, agent: 'none' };

/**
 * How people sign in (issue 31) and keep their own ways in. The public ones check credentials in the core, which
 * throttles failures per client address; the HTTP door sets the session cookie from their answer.
 */
export const signInOperations = [
  publicOperation(r.password, open, ({ platform, client }, i) => signInWithPassword(platform, i, { client })),
  globalOperation(r.account, signedIn(), async ({ platform, principal }) => ({
    ...(await accountOf(platform, principal)),
    passkeys: await listPasskeys(platform, principal),
  })),
  globalOperation(r.changePassword, signedIn(true), ({ platform, principal, client }, i) => changePassword(platform, principal, i, { client })),
  publicOperation(r.passkeyOptions, open, ({ platform, origin, client }) => passkeySignInOptions(platform, { origin, client }) as never),
  publicOperation(r.passkey, open, ({ platform, origin, client }, i) => signInWithPasskey(platform, i, { origin, client })),
  globalOperation(
    r.passkeyRegistrationOptions,
    signedIn(true),
    ({ platform, principal, origin }) => passkeyRegistrationOptions(platform, principal, { origin }) as never,
  ),
  globalOperation(r.addPasskey, signedIn(true), ({ platform, principal, origin }, i) => addPasskey(platform, principal, i, { origin })),
  globalOperation(r.removePasskey, signedIn(true), ({ platform, principal }, i) => removePasskey(platform, principal, i)),
  publicOperation(r.methods, { ...open, mutates: false }, async ({ platform }) => signInMethods(platform)),
  publicOperation(r.oidcStart, { ...open, mutates: false }, ({ platform, origin }, i) => beginOidcSignIn(platform, { invite: i.invite }, { origin })),
  publicOperation(r.oidcCallback, { ...open, mutates: false }, ({ platform, origin, client }, i) =>
    finishOidcSignIn(
      platform,
      { query: Object.fromEntries(Object.entries(i).filter((e): e is [string, string] => typeof e[1] === 'string')) },
      { origin, client },
    ),
  ),
];
