import { filesRoutes } from '@stoa/contract';
import { folderTree } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(filesRoutes.tree, (ctx) => folderTree(ctx));
