import { filesRoutes } from '@stoa/contract';
import { abortUpload } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

export default projectHandler(filesRoutes.abortUpload, async (ctx, i) => {
  await abortUpload(ctx, i.uploadId);
  return { ok: true as const };
});
