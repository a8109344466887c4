import { filesRoutes } from '@stoa/contract';
import { statFile } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(filesRoutes.stat, (ctx, i) => statFile(ctx, i.path));
