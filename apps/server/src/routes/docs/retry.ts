import { docsRoutes } from '@stoa/contract';
import { retryUnderstanding } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(docsRoutes.retry, (ctx, i) => retryUnderstanding(ctx, i.path));
