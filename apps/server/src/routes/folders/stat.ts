import { filesRoutes } from '@stoa/contract';
import { getFolder } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(filesRoutes.statFolder, (ctx, i) => getFolder(ctx, i.path));
