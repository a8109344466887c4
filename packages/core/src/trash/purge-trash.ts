import { StoaError } from '@stoa/contract';
import { inTx, type Ctx } from '../platform.js';
import { assertCan } from '../policies/can.js';
import { recordAudit } from '../audit/audit.js';
import { dropEntryRows } from './trash-rows.js';

/**
 * Deletes a trash entry forever (issue 29): its file rows and every version go, and the sweep collects the blobs
 * nothing else references. Only the volume's admins may (a project's admins; a person's own volume's owner), as
 * for the project's other irreversible acts; agents never may.
 *
 * @example
 * await purgeFromTrash(ctx, { id: 'trs_…' }) // { id: 'trs_…', path: 'old/report.pdf', purged: true }
 */
export async function purgeFromTrash(ctx: Ctx, input: { id: string }): Promise<{ id: string; path: string; purged: true }> {
  assertCan(ctx.actor, 'project.admin', { kind: 'project' });
  return inTx(ctx.platform, async (trx) => {
    const e = await trx
      .selectFrom('trash_entries')
      .select(['path', 'size', 'files'])
      .where('id', '=', input.id)
      .where('project_id', '=', ctx.project.id)
      .executeTakeFirst();
    if (!e || !(await dropEntryRows(trx, ctx.project.id, input.id))) throw new StoaError('not_found', `trash entry "${input.id}" does not exist`);
    await recordAudit(trx, ctx, { action: 'trash.purge', path: e.path, size: Number(e.size), details: { trash: input.id, files: Number(e.files) } });
    return { id: input.id, path: e.path, purged: true as const };
  });
}
