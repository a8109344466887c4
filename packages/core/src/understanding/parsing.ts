import { parsingOf } from '../config.js';
import type { Platform } from '../platform.js';
import type { ParseMode } from './parse.js';
import type { ParseOutcome } from './parse-protocol.js';
import { ParserPool } from './parser-pool.js';

// One pool per open platform, started on the first parse (opening a platform starts no threads).
const pools = new WeakMap<Platform, ParserPool>();

function poolOf(platform: Platform): ParserPool {
  let pool = pools.get(platform);
  if (!pool) {
    pool = new ParserPool(parsingOf(platform.config));
    pools.set(platform, pool);
  }
  return pool;
}

/**
 * Parses a stored file in a parser worker under the configured caps; a file over the input cap is refused
 * before its bytes are read. Never rejects for the file's sake: the outcome says why not.
 *
 * @example
 * const o = await parseStoredFile(platform, file, 'auto', { chunk: true }); // o.ok ? o.chunks : o.code
 */
export async function parseStoredFile(
  platform: Platform,
  file: { blob_key: string; size: number; mime: string },
  mode: ParseMode,
  opts: { chunk: boolean },
): Promise<ParseOutcome> {
  const max = parsingOf(platform.config).maxInputBytes;
  if (file.size > max) return { ok: false, code: 'too_large', reason: `the file is larger than ${max} bytes` };
  return poolOf(platform).run(await platform.blobs.read(file.blob_key), file.mime, mode, opts);
}

/** Ends the platform's parser workers (part of closing the platform). */
export async function closeParsers(platform: Platform): Promise<void> {
  const pool = pools.get(platform);
  pools.delete(platform);
  await pool?.close();
}
