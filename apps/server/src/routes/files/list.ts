import { filesRoutes } from '@stoa/contract';
import { listFilesRecursive } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(filesRoutes.list, (ctx, i) => listFilesRecursive(ctx, { prefix: i.prefix, cursor: i.cursor, limit: i.limit }));
