import { filesRoutes } from '@stoa/contract';
import { createFolder } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(filesRoutes.createFolder, (ctx, i) => createFolder(ctx, { path: i.path }));
