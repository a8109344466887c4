import { StoaError } from '@stoa/contract';
import { recordAudit } from '../audit/audit.js';
import { contextFor } from '../context.js';
import { inTx, type Platform } from '../platform.js';
import { purgeProject } from '../projects/delete-project.js';
import { liveProjectById } from '../projects/projects.js';
import type { Principal } from '../projects/tokens.js';
import { noSuchVolume } from './volume-access.js';
import { isVolumeId } from './volume-row.js';

/**
 * Deletes a volume beyond projects as a whole (R1, decision 0016): a knowledge base or skill package by an admin of
 * its project, and the volume of a deleted agent by the people who still read it (the agent's owner and its
 * project's admins; the person of a private agent's volume). It is marked first (every door answers not_found from
 * that commit on), then its rows go the way a deleted project's do (F13); the blobs no version references any
 * more are freed by the sweeper. The deletion is recorded in its project's audit log. Whoever may not see the
 * volume gets not_found; whoever sees it but may not delete it, forbidden.
 *
 * @example
 * await deleteVolume(platform, principal, { volume: 'vol_…' }) // { volumeId: 'vol_…', deleted: true }
 */
export async function deleteVolume(platform: Platform, principal: Principal, input: { volume: string }): Promise<{ volumeId: string; deleted: true }> {
  if (!isVolumeId(input.volume)) throw noSuchVolume();
  const ctx = await contextFor(platform, principal, { project: input.volume });
  const v = ctx.project.volume!;
  const a = ctx.actor;
  let allowed = false;
  if (a.kind === 'user' && v.parentProjectId) {
    if (v.catalog === 'knowledges' || v.catalog === 'skills') allowed = a.role === 'admin';
    else if (v.xpertId) {
      // Whoever reaches an agent's volume may delete it once the agent is gone; never while it still works there.
      const agent = await platform.db.kysely.selectFrom('agents').select('deleted_at').where('id', '=', v.xpertId).executeTakeFirst();
      allowed = !!agent?.deleted_at;
    }
  }
  if (!allowed) {
    const why =
      v.catalog === 'xperts' || v.catalog === 'user-xperts'
        ? "an agent's volume may be deleted only after the agent is deleted"
        : v.catalog === 'users'
          ? 'your own files are not deleted as a whole'
          : 'only an admin of its project may delete a knowledge base or skill package';
    throw new StoaError('forbidden', why);
  }
  const parent = await liveProjectById(platform, v.parentProjectId!);
  if (!parent) throw noSuchVolume();
  const now = platform.clock().toISOString();
  const used = await platform.db.kysely.selectFrom('projects').select('used_bytes').where('id', '=', ctx.project.id).executeTakeFirst();
  await inTx(platform, async (trx) => {
    const marked = await trx
      .updateTable('projects')
      .set({ deleting_at: now })
      .where('id', '=', ctx.project.id)
      .where('deleting_at', 'is', null)
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) !== 1) throw noSuchVolume();
    const details = { catalog: v.catalog, volumeId: ctx.project.id, name: v.label, agent: v.xpertId, usedBytes: Number(used?.used_bytes ?? 0) };
    await recordAudit(trx, { ...ctx, project: parent }, { action: 'volume.delete', details });
  });
  await purgeProject(platform, ctx.project.id);
  return { volumeId: ctx.project.id, deleted: true };
}
