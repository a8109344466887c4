import { wikiRoutes } from '@stoa/contract';
import { showPageVersion } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(wikiRoutes.version, (ctx, i) => showPageVersion(ctx, { path: i.path, version: i.version }));
