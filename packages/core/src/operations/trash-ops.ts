import { trashRoutes } from '@stoa/contract';
import { listTrash } from '../trash/list-trash.js';
import { restoreFromTrash } from '../trash/restore-trash.js';
import { purgeFromTrash } from '../trash/purge-trash.js';
import { changes, projectOperation, reads, type Operation } from './operation.js';

const r = trashRoutes;

/**
 * The trash of a volume (issue 29). A viewer lists it; a restore is a file change (the mutator counts an agent's
 * in its window, like any write); a purge is an admin's, never an agent's.
 */
export const trashOperations: Operation[] = [
  projectOperation(r.list, reads('file.read'), (ctx, i) => listTrash(ctx, { limit: i.limit, cursor: i.cursor })),
  projectOperation(r.restore, { ...changes('file.write', 'trash.restore'), window: 'mutator' }, (ctx, i) => restoreFromTrash(ctx, { id: i.id })),
  projectOperation(r.purge, changes('project.admin', 'trash.purge', 'none'), (ctx, i) => purgeFromTrash(ctx, { id: i.id })),
];
