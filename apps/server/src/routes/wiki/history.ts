import { wikiRoutes } from '@stoa/contract';
import { pageHistory } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(wikiRoutes.history, (ctx, i) => pageHistory(ctx, { path: i.path }));
