import { filesRoutes } from '@stoa/contract';
import { restoreVersion } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(filesRoutes.restore, (ctx, i) => restoreVersion(ctx, { path: i.path, version: i.version, expectedVersion: i.expectedVersion }));
