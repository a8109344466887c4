import { adminRoutes } from '@stoa/contract';
import { runDoctor } from '../files/doctor.js';
import { listInstallationAudit } from '../projects/delete-project.js';
import { createInstallationToken, createLoginLink } from '../projects/installation-admin.js';
import { globalOperation, type Operation } from './operation.js';

/** Installation housekeeping; the core lets only the installation's administrator run it. */
export const adminOperations: Operation[] = [
  globalOperation(adminRoutes.doctor, { policy: 'signed-in', mutates: true, audit: null, agent: 'none' }, ({ platform, principal }, i) =>
    runDoctor(platform, principal, { repair: i.repair }),
  ),
  globalOperation(adminRoutes.audit, { policy: 'signed-in', mutates: false, audit: null, agent: 'none' }, ({ platform, principal }, i) =>
    listInstallationAudit(platform, principal, { limit: i.limit }),
  ),
  globalOperation(adminRoutes.loginLink, { policy: 'signed-in', mutates: true, audit: null, agent: 'none' }, ({ platform, principal }) =>
    createLoginLink(platform, principal),
  ),
  globalOperation(adminRoutes.createToken, { policy: 'signed-in', mutates: true, audit: null, agent: 'none' }, ({ platform, principal }, i) =>
    createInstallationToken(platform, principal, { name: i.name }),
  ),
];
