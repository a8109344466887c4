import { turnRoutes } from '@stoa/contract';
import { commitTurn } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

/** POST /projects/{project}/turns/commit: save a hosted agent's edits after its turn (M6). */
export default projectHandler(turnRoutes.commit, (ctx, i) => commitTurn(ctx, i));
