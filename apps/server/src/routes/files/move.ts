import { filesRoutes } from '@stoa/contract';
import { moveFile } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(filesRoutes.move, (ctx, i) => moveFile(ctx, { from: i.from, to: i.to, expectedVersion: i.expectedVersion }));
