import { wikiRoutes } from '@stoa/contract';
import { searchWiki } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(wikiRoutes.search, (ctx, i) => searchWiki(ctx, { query: i.q, prefix: i.prefix, limit: i.limit, offset: i.offset }));
