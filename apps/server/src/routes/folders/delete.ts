import { filesRoutes } from '@stoa/contract';
import { deleteFolder } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(filesRoutes.deleteFolder, (ctx, i) => deleteFolder(ctx, { path: i.path, recursive: i.recursive === 'true' }));
