import { docsRoutes } from '@stoa/contract';
import { listChunks } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(docsRoutes.chunks, (ctx, i) => listChunks(ctx, { path: i.path, page: i.page, pageSize: i.pageSize }));
