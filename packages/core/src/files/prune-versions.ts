import type { Ctx, Q } from '../platform.js';

/**
 * Version retention (X8): keep at most `versionsPerFile` versions and none older than `versionsMaxAgeDays`,
 * never the current one. Blobs are not deleted here: the sweeper collects them after this commits.
 */
export async function pruneVersions(trx: Q, ctx: Ctx, fileId: string, currentVersion: number): Promise<void> {
  const { versionsPerFile, versionsMaxAgeDays } = ctx.platform.config.limits;
  const keepFrom = currentVersion - Math.max(versionsPerFile, 1) + 1;
  const cutoff = new Date(ctx.platform.clock().getTime() - versionsMaxAgeDays * 86400_000).toISOString();
  await trx
    .deleteFrom('file_versions')
    .where('file_id', '=', fileId)
    .where('version', '<', currentVersion)
    .where((eb) => eb.or([eb('version', '<', keepFrom), eb('created_at', '<', cutoff)]))
    .execute();
}
