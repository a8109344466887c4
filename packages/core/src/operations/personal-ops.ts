import { personalRoutes } from '@stoa/contract';
import { listFavourites, listRecent, recordOpened, starItem, unstarItem } from '../personal/favourites.js';
import { changes, projectOperation, reads, type Operation } from './operation.js';

const p = personalRoutes;

/** A person's own favourites and recent items: not audited (they change nothing anyone else sees), people only. */
export const personalOperations: Operation[] = [
  projectOperation(p.favourites, reads('project.read'), (ctx) => listFavourites(ctx)),
  projectOperation(p.star, changes('project.read', null, 'none'), (ctx, i) => starItem(ctx, i)),
  projectOperation(p.unstar, changes('project.read', null, 'none'), (ctx, i) => unstarItem(ctx, i)),
  projectOperation(p.recent, reads('project.read'), (ctx, i) => listRecent(ctx, { limit: i.limit })),
  projectOperation(p.opened, changes('project.read', null, 'none'), (ctx, i) => recordOpened(ctx, i)),
];
