import { wikiRoutes } from '@stoa/contract';
import { listPages } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(wikiRoutes.list, (ctx, i) => listPages(ctx, { prefix: i.prefix }));
