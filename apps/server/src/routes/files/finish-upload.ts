import { filesRoutes } from '@stoa/contract';
import { finishUpload } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(filesRoutes.finishUpload, (ctx, i) => finishUpload(ctx, i.uploadId));
