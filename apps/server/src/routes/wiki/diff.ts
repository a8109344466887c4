import { wikiRoutes } from '@stoa/contract';
import { diffPageVersions } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(wikiRoutes.diff, (ctx, i) => diffPageVersions(ctx, { path: i.path, from: i.from, to: i.to }));
