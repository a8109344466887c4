import { wikiRoutes } from '@stoa/contract';
import { importPages } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(wikiRoutes.import, (ctx, i) => importPages(ctx, { files: i.files, prefix: i.prefix, channel: i.channel }));
