import { filesRoutes } from '@stoa/contract';
import { moveFolder } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(filesRoutes.moveFolder, (ctx, i) => moveFolder(ctx, { from: i.from, to: i.to }));
