import { inTx, type Ctx } from '../platform.js';
import { assertCan } from '../policies/can.js';
import { queueDocument } from '../understanding/hook.js';
import { fileIndexHook } from './file-index.js';

/**
 * Indexes the contents of every text file of the project again, one file per transaction, through the same
 * hook that keeps the index in step with writes, and queues PDF and DOCX files never understood for the
 * background parser. For files stored before the index existed (an upgraded data folder) or after a change of
 * the tokenizer. Project admins only. Returns how many files were looked at.
 *
 * @example
 * await reindexFileContents(adminCtx) // { files: 1234 }
 */
export async function reindexFileContents(ctx: Ctx): Promise<{ files: number }> {
  assertCan(ctx.actor, 'project.admin', { kind: 'project' });
  const rows = await ctx.platform.db.kysely
    .selectFrom('files')
    .select(['id', 'path', 'mime', 'size', 'version', 'modified_at'])
    .where('project_id', '=', ctx.project.id)
    .orderBy('path')
    .execute();
  for (const r of rows) {
    const change = {
      kind: 'written' as const,
      projectId: ctx.project.id,
      fileId: r.id,
      path: r.path,
      mime: r.mime,
      size: Number(r.size),
      version: r.version,
      at: r.modified_at,
    };
    await inTx(ctx.platform, async (trx) => {
      await fileIndexHook(trx, ctx, change);
      await queueDocument(trx, change);
    });
  }
  return { files: rows.length };
}
