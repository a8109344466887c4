import { wikiRoutes } from '@stoa/contract';
import { renamePage } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(wikiRoutes.rename, (ctx, i) => renamePage(ctx, { path: i.path, title: i.title, base: i.base }));
