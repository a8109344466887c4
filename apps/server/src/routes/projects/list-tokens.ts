import { projectRoutes } from '@stoa/contract';
import { listTokens } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(projectRoutes.listTokens, (ctx) => listTokens(ctx));
