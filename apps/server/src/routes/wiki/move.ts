import { wikiRoutes } from '@stoa/contract';
import { movePage } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(wikiRoutes.move, (ctx, i) => movePage(ctx, { from: i.from, to: i.to, dryRun: i.dryRun }));
