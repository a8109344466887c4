import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Platform } from '../platform.js';

/** The thumbnail cache's folder under the data folder (one per server: each makes its own). */
export function thumbnailDir(platform: Platform): string {
  return join(platform.config.dataDir, 'cache', 'thumbnails');
}

/** Bytes the cache may hold before the least recently used thumbnails go. */
const THUMBNAIL_CACHE_BYTES = 512 * 1024 * 1024;

const NAME = /^([0-9a-f]{64})-\d+\.webp$/;
/** A `.part` older than this is what a crash left mid-write. */
const PART_GRACE_MS = 3_600_000;

/**
 * Keeps the thumbnail cache to what is still in use (housekeeping, beside the blob sweep): a thumbnail whose
 * picture no longer exists anywhere in the installation — no blob of that content — goes, so a picture purged
 * from the trash leaves no small copy of itself behind; then, while the cache is over `maxBytes`, the least
 * recently used go first (a hit refreshes a thumbnail's time, see `thumbnailOf`). Thumbnails are made again on
 * demand, so removing one never loses anything.
 */
export async function pruneThumbnails(platform: Platform, opts: { maxBytes?: number } = {}): Promise<{ removed: number; bytes: number }> {
  const dir = thumbnailDir(platform);
  const names = await readdir(dir).catch(() => [] as string[]);
  const now = platform.clock().getTime();
  const kept: Array<{ name: string; size: number; used: number }> = [];
  let removed = 0;
  const remove = async (name: string) => {
    await rm(join(dir, name), { force: true });
    removed++;
  };
  for (let i = 0; i < names.length; i += 500) {
    const batch = names.slice(i, i + 500);
    const hashes = batch.map((n) => NAME.exec(n)?.[1]).filter((h): h is string => h !== undefined);
    const present = new Set(
      hashes.length === 0 ? [] : (await platform.db.kysely.selectFrom('blobs').select('key').where('key', 'in', hashes).execute()).map((r) => r.key),
    );
    for (const name of batch) {
      const s = await stat(join(dir, name)).catch(() => null);
      if (!s) continue;
      const hash = NAME.exec(name)?.[1];
      if (hash === undefined) {
        if (name.endsWith('.part') && now - s.mtimeMs > PART_GRACE_MS) await remove(name);
        continue;
      }
      if (!present.has(hash)) await remove(name);
      else kept.push({ name, size: s.size, used: s.mtimeMs });
    }
  }
  let bytes = kept.reduce((sum, k) => sum + k.size, 0);
  const maxBytes = opts.maxBytes ?? THUMBNAIL_CACHE_BYTES;
  kept.sort((a, b) => a.used - b.used);
  for (const k of kept) {
    if (bytes <= maxBytes) break;
    await remove(k.name);
    bytes -= k.size;
  }
  return { removed, bytes };
}
