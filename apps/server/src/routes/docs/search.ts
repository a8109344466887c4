import { docsRoutes } from '@stoa/contract';
import { searchChunks } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(docsRoutes.search, (ctx, i) => searchChunks(ctx, { query: i.q, file: i.file, limit: i.limit, contentLength: i.contentLength }));
