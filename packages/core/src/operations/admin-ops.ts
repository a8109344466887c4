import { adminRoutes, systemRoutes } from '@stoa/contract';
import { runDoctor } from '../files/doctor.js';
import { openSignedLink } from '../files/file-links.js';
import { listInstallationAudit } from '../projects/delete-project.js';
import { endSession, redeemLoginCode } from '../projects/login.js';
import { globalOperation, publicOperation, type Operation } from './operation.js';
import { createInstallationToken, createLoginLink } from '../projects/installation-admin.js';

/** Installation housekeeping; the core lets only the installation's administrator run it. */
export const adminOperations: Operation[] = [
  globalOperation(adminRoutes.doctor, { policy: 'signed-in', mutates: true, audit: null, agent: 'none' }, ({ platform, principal }, i) =>
    runDoctor(platform, principal, { repair: i.repair }),
  ),
  globalOperation(adminRoutes.audit, { policy: 'signed-in', mutates: false, audit: null, agent: 'none' }, ({ platform, principal }, i) =>
    listInstallationAudit(platform, principal, { limit: i.limit }),
  ),
  // The server's own public routes that act: signing in with a one-time code (throttled by the client's address)
  // and the bytes behind a signed link (the signature is the credential). Their doors set cookies or stream.
  publicOperation(systemRoutes.login, { policy: 'public', mutates: true, audit: null, agent: 'none' }, ({ platform, client }, i) =>
    redeemLoginCode(platform, i.code, { client }),
  ),
  // Logging out ends the session server-side (issue 26): the door hands over the bearer it was called with.
  publicOperation(systemRoutes.logout, { policy: 'public', mutates: true, audit: null, agent: 'none' }, async ({ platform }, i) => {
    await endSession(platform, (i as { token?: string }).token);
    return { ok: true as const };
  }),
  publicOperation(systemRoutes.signedFile, { policy: 'public', mutates: false, audit: null, agent: 'read' }, ({ platform }, i) =>
    openSignedLink(platform, i.token),
  ),
  globalOperation(adminRoutes.loginLink, { policy: 'signed-in', mutates: true, audit: null, agent: 'none' }, ({ platform, principal }) =>
    createLoginLink(platform, principal),
  ),
  globalOperation(adminRoutes.createToken, { policy: 'signed-in', mutates: true, audit: null, agent: 'none' }, ({ platform, principal }, i) =>
    createInstallationToken(platform, principal, { name: i.name }),
  ),
];
