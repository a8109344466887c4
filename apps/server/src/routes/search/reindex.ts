import { searchRoutes } from '@stoa/contract';
import { reindexFileContents } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(searchRoutes.reindex, (ctx) => reindexFileContents(ctx));
