import { docsRoutes } from '@stoa/contract';
import { validateReferences } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(docsRoutes.validate, (ctx, i) => validateReferences(ctx, i.references));
