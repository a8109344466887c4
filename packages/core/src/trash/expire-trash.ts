import { trashOf } from '../config.js';
import { inTx, type Platform } from '../platform.js';
import { dropEntryRows } from './trash-rows.js';

/**
 * The trash's own housekeeping (issue 29), run by the periodic sweep before blobs are collected: entries older
 * than STOA_TRASH_DAYS go, then, while all the installation's trashes together keep more than
 * STOA_TRASH_MAX_BYTES (every version counted), the oldest go first. Each purge is its own transaction and is
 * written to its project's audit log as the system's. The clock is the platform's, so tests move it forward.
 *
 * @example
 * await expireTrash(platform) // { expired: 3, overCap: 1 }
 */
export async function expireTrash(platform: Platform): Promise<{ expired: number; overCap: number }> {
  const { days, maxBytes } = trashOf(platform.config);
  const db = platform.db.kysely;
  const cutoff = new Date(platform.clock().getTime() - days * 86_400_000).toISOString();
  let expired = 0;
  for (;;) {
    const old = await db
      .selectFrom('trash_entries')
      .select(['id', 'project_id', 'path', 'size'])
      .where('deleted_at', '<', cutoff)
      .orderBy('deleted_at')
      .limit(200)
      .execute();
    for (const e of old) if (await purgeBySystem(platform, e, 'expired')) expired++;
    if (old.length < 200) break;
  }
  const total = await db
    .selectFrom('trash_entries')
    .select((eb) => eb.fn.sum('stored_bytes').as('bytes'))
    .executeTakeFirstOrThrow();
  let over = Number(total.bytes ?? 0) - maxBytes;
  let overCap = 0;
  while (over > 0) {
    const oldest = await db
      .selectFrom('trash_entries')
      .select(['id', 'project_id', 'path', 'size', 'stored_bytes'])
      .orderBy('deleted_at')
      .orderBy('id')
      .limit(200)
      .execute();
    if (oldest.length === 0) break;
    for (const e of oldest) {
      if (over <= 0) break;
      if (await purgeBySystem(platform, e, 'over_cap')) overCap++;
      over -= Number(e.stored_bytes);
    }
  }
  return { expired, overCap };
}

async function purgeBySystem(
  platform: Platform,
  e: { id: string; project_id: string; path: string; size: number | string },
  reason: 'expired' | 'over_cap',
): Promise<boolean> {
  return inTx(platform, async (trx) => {
    if (!(await dropEntryRows(trx, e.project_id, e.id))) return false;
    await trx
      .insertInto('audit_log')
      .values({
        project_id: e.project_id,
        at: platform.clock().toISOString(),
        actor_kind: 'system',
        actor_id: null,
        actor_label: null,
        action: 'trash.purge',
        path: e.path,
        from_path: null,
        to_path: null,
        size: Number(e.size),
        details: JSON.stringify({ trash: e.id, reason }),
      })
      .execute();
    return true;
  });
}
