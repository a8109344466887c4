import { turnRoutes } from '@stoa/contract';
import { prepareTurn } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

/** POST /projects/{project}/turns/prepare: a hosted agent's files and message before its turn (M6). */
export default projectHandler(turnRoutes.prepare, (ctx, i) => prepareTurn(ctx, i));
