import { filesRoutes } from '@stoa/contract';
import { findFiles } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(filesRoutes.find, (ctx, i) => findFiles(ctx, { text: i.q, limit: i.limit }));
