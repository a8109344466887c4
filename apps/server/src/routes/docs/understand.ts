import { docsRoutes } from '@stoa/contract';
import { understandFile } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(docsRoutes.understand, (ctx, i) => understandFile(ctx, { path: i.path, parseMode: i.parseMode }));
