import { wikiRoutes } from '@stoa/contract';
import { deletePage } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(wikiRoutes.remove, (ctx, i) => deletePage(ctx, { path: i.path, base: i.base }));
