import { shareRoutes, thumbnailRoutes } from '@stoa/contract';
import { createShareLink, listShareLinks, openShareLink, revokeShareLink } from '../files/share-links.js';
import { thumbnailOf } from '../files/thumbnail.js';
import { changes, projectOperation, publicOperation, rawOperation, reads, type Operation } from './operation.js';

const r = shareRoutes;

/**
 * Expiring share links of a file, and thumbnails of pictures (issue 31). Publishing and revoking are changes of editors and admins (people
 * only: the core refuses agents); opening one is public, the link being the credential.
 */
export const shareOperations: Operation[] = [
  projectOperation(r.create, changes('file.write', 'share.create', 'none'), (ctx, i) => createShareLink(ctx, { path: i.path, expiresIn: i.expiresIn })),
  projectOperation(r.list, reads('file.read'), (ctx, i) => listShareLinks(ctx, { path: i.path })),
  projectOperation(r.revoke, changes('file.write', 'share.revoke', 'none'), (ctx, i) => revokeShareLink(ctx, { id: i.id })),
  // A picture's thumbnail for the files grid: read access as for the file.
  rawOperation(thumbnailRoutes.get, reads('file.read'), (ctx, i) => thumbnailOf(ctx, { path: i.path })),
  publicOperation(r.open, { policy: 'public', mutates: false, audit: null, agent: 'none' }, ({ platform }, i) => openShareLink(platform, i.token)),
];
