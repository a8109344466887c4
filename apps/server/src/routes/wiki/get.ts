import { wikiRoutes } from '@stoa/contract';
import { getPage } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(wikiRoutes.get, (ctx, i) => getPage(ctx, { path: i.path }));
