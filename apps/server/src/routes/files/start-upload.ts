import { filesRoutes } from '@stoa/contract';
import { startUpload } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(filesRoutes.startUpload, (ctx, i) => startUpload(ctx, { path: i.path, size: i.size, sha256: i.sha256 }));
