import { filesRoutes } from '@stoa/contract';
import { listFolder } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(filesRoutes.folder, (ctx, i) => listFolder(ctx, { folder: i.folder, cursor: i.cursor, limit: i.limit }));
