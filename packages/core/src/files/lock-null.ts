import type { FileRow } from './file-info.js';

/**
 * Marks the empty file a WebDAV LOCK makes on an unmapped path (RFC 4918 §7.3). Its first write fills it in place
 * as version 1, so LOCK then PUT (davfs2, Finder, LibreOffice) makes one version, not an empty one and the real
 * one (issue 28). The mark is version metadata, so the filling write (which carries its own) clears it.
 */
export const LOCK_NULL_METADATA: Readonly<Record<string, string>> = { 'stoa:lock-null': 'true' };

/** True for a file that is still only the empty placeholder of a lock. */
export function isLockNull(row: FileRow): boolean {
  if (row.version !== 1 || Number(row.size) !== 0 || !row.metadata) return false;
  try {
    return (JSON.parse(row.metadata) as Record<string, unknown>)['stoa:lock-null'] === 'true';
  } catch {
    return false;
  }
}
