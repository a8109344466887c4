import { mkdir, readFile, rename, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StoaError } from '@stoa/contract';
import type { Ctx } from '../platform.js';
import { statFile, storedVersion } from './read-file.js';
import { thumbnailDir } from './thumbnail-cache.js';

/** Pictures a thumbnail is made of; anything else gets a kind icon in the UI. */
const PICTURE = /^image\/(png|jpeg|gif|webp)$/;
/** The thumbnail's longest side (px): a grid card, twice over for high-density screens. */
const THUMBNAIL_SIZE = 256;
/** Bytes of a picture read to make one: a larger file is shown by its icon (decoding it would hold the server). */
const MAX_INPUT_BYTES = 25 * 1024 * 1024;
/** Pixels a picture may declare: a few kB of PNG can claim 100,000 × 100,000 (a decompression bomb); refused unread. */
const MAX_INPUT_PIXELS = 40_000_000;

/** A made thumbnail: WebP bytes, named by the content's hash (the same picture anywhere shares one). */
interface Thumbnail {
  bytes: Buffer;
  sha256: string;
  type: 'image/webp';
}

const unavailable = (why: string) => new StoaError('preview_unavailable', why);

/**
 * A small WebP of a picture in the files, for the files page's grid (issue 31). The reader needs read access as
 * for the file itself. It is made once per content (cached under the data folder by the picture's SHA-256, so a
 * rename or a second copy costs nothing; housekeeping prunes the cache, `pruneThumbnails`) with sharp, bounded: files over 25 MiB and pictures over 40 megapixels
 * are refused before they are decoded, and a damaged picture is refused rather than half-drawn.
 *
 * @example
 * const t = await thumbnailOf(ctx, { path: 'photos/beach.jpg' }); // { bytes, sha256, type: 'image/webp' }
 */
export async function thumbnailOf(ctx: Ctx, input: { path: string }): Promise<Thumbnail> {
  const file = await statFile(ctx, input.path);
  if (!PICTURE.test(file.type)) throw unavailable('thumbnails are made of PNG, JPEG, GIF and WebP pictures only');
  const stored = await storedVersion(ctx.platform, file, file.version);
  if (!stored) throw new StoaError('not_found', `file "${file.path}" does not exist`);
  if (stored.size > MAX_INPUT_BYTES) throw unavailable('this picture is too large for a thumbnail');
  const dir = thumbnailDir(ctx.platform);
  const cached = join(dir, `${stored.sha256}-${THUMBNAIL_SIZE}.webp`);
  const hit = await readFile(cached).catch(() => null);
  if (hit) {
    // Marks it used: the cache's pruning drops the least recently used first (thumbnail-cache.ts).
    const now = new Date();
    void utimes(cached, now, now).catch(() => undefined);
    return { bytes: hit, sha256: stored.sha256, type: 'image/webp' };
  }

  const chunks: Buffer[] = [];
  for await (const c of await ctx.platform.blobs.get(stored.blobKey)) chunks.push(Buffer.from(c as Buffer));
  const { default: sharp } = await import('sharp');
  let bytes: Buffer;
  try {
    bytes = await sharp(Buffer.concat(chunks), { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', animated: false })
      .rotate()
      .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 70 })
      .toBuffer();
  } catch {
    throw unavailable('this picture cannot be read (damaged, or larger than 40 megapixels)');
  }
  // Written whole under another name first, so a reader never meets half a thumbnail.
  await mkdir(dir, { recursive: true });
  const part = `${cached}.${process.pid}.${Date.now()}.part`;
  await writeFile(part, bytes);
  await rename(part, cached);
  return { bytes, sha256: stored.sha256, type: 'image/webp' };
}
