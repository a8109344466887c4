import { wikiRoutes } from '@stoa/contract';
import { putPage } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(wikiRoutes.put, (ctx, i) => putPage(ctx, { path: i.path, text: i.text, title: i.title, base: i.base, channel: i.channel }));
