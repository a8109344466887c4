import { filesRoutes } from '@stoa/contract';
import { deleteFile } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(filesRoutes.remove, (ctx, i) => deleteFile(ctx, { path: i.path, expectedVersion: i.expectedVersion }));
