import { sql } from 'kysely';
import type { Ctx, Q } from '../platform.js';
import { hotQuery } from '../hot-query.js';

/**
 * Version retention (X8): keep at most `versionsPerFile` versions, and drop a version once it has been
 * replaced for longer than `versionsMaxAgeDays`; never the current one. The age counts from when a version was
 * replaced (the next version's time), not from when it was written: "each overwrite keeps the previous
 * version", so overwriting a file untouched for months still leaves its old content restorable.
 * Retention always removes the oldest versions first, so the successor of a kept version is always kept.
 * Blobs are not deleted here: the sweeper collects them after this commits.
 *
 * @example
 * await pruneVersions(trx, ctx, fileId, 7); // after version 7 was written
 */
export async function pruneVersions(trx: Q, ctx: Ctx, fileId: string, currentVersion: number): Promise<void> {
  // Version 1 replaced none: no version below it exists to drop (every new file's write asks nothing).
  if (currentVersion <= 1) return;
  const { versionsPerFile, versionsMaxAgeDays } = ctx.platform.config.limits;
  const keepFrom = currentVersion - Math.max(versionsPerFile, 1) + 1;
  const cutoff = new Date(ctx.platform.clock().getTime() - versionsMaxAgeDays * 86400_000).toISOString();
  await prune(trx, { file: fileId, current: currentVersion, keepFrom, cutoff });
}

/** Every write runs it: built once (issue 30). */
const prune = hotQuery((db, a: { file: string; current: number; keepFrom: number; cutoff: string }) =>
  db
    .deleteFrom('file_versions')
    .where('file_id', '=', a.file)
    .where('version', '<', a.current)
    .where((eb) =>
      eb.or([
        eb('version', '<', a.keepFrom),
        eb.exists(
          eb
            .selectFrom('file_versions as next')
            .select('next.version')
            .whereRef('next.file_id', '=', 'file_versions.file_id')
            .where('next.version', '=', sql<number>`file_versions.version + 1`)
            .where('next.created_at', '<', a.cutoff),
        ),
      ]),
    ),
);
