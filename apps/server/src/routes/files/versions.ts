import { filesRoutes } from '@stoa/contract';
import { listVersions } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(filesRoutes.versions, (ctx, i) => listVersions(ctx, i.path));
