import { searchRoutes } from '@stoa/contract';
import { searchAll } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(searchRoutes.all, (ctx, i) =>
  searchAll(ctx, { query: i.q, kinds: i.kinds ? i.kinds.split(',').map((k) => k.trim()).filter(Boolean) : undefined, limit: i.limit, offset: i.offset }));
