import { filesRoutes } from '@stoa/contract';
import { usage } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(filesRoutes.usage, (ctx) => usage(ctx));
