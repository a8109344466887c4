import type { Ctx, Q } from '../platform.js';
import { indexDoc, removeDoc } from '../search/index.js';
import { splitLines } from './merge.js';
import type { MemoryTarget } from './types.js';

/**
 * Lines per search document. A memory file is indexed as consecutive blocks of this many lines
 * (`refId` = `<file id>:<block>`), so an append re-tokenises only the last block or two instead of the whole
 * file: the cost of an append stays flat as MEMORY.md grows, which is what keeps 16 concurrent writers of one
 * file fast (bench/README-memory.md). Searches fold the blocks back into one hit per file.
 */
export const LINES_PER_BLOCK = 40;

/** The file ID of a memory search document's `refId`. */
export function fileIdOfRef(refId: string): string {
  const i = refId.lastIndexOf(':');
  return i < 0 ? refId : refId.slice(0, i);
}

function blockCount(lines: number): number {
  return Math.ceil(lines / LINES_PER_BLOCK);
}

/**
 * Brings the index of one memory file in step with its new text, in the caller's transaction. `append`
 * means `next` is `previous` plus lines at the end (store.ts appendText), so blocks before the old last one
 * are untouched.
 *
 * @example
 * await indexMemory(trx, ctx, target, { fileId, path: 'AGENTS.md', title: 'AGENTS.md', visibility: 'memory:workspace' }, old, next, 'set');
 */
export async function indexMemory(
  trx: Q, ctx: Ctx, _target: MemoryTarget, doc: { fileId: string; path: string; title: string; visibility: string; updatedAt: string },
  previous: string, next: string, change: 'set' | 'append',
): Promise<void> {
  const dialect = ctx.platform.db.dialect;
  const oldLines = splitLines(previous);
  const newLines = splitLines(next);
  const oldBlocks = blockCount(oldLines.length);
  const newBlocks = blockCount(newLines.length);
  const first = change === 'append' ? Math.floor(oldLines.length / LINES_PER_BLOCK) : 0;
  for (let b = first; b < newBlocks; b++) {
    const body = newLines.slice(b * LINES_PER_BLOCK, (b + 1) * LINES_PER_BLOCK).join('\n');
    await indexDoc(trx, dialect, { projectId: ctx.project.id, kind: 'memory', refId: `${doc.fileId}:${b}`, path: doc.path, title: doc.title, body, visibility: doc.visibility, updatedAt: doc.updatedAt });
  }
  for (let b = newBlocks; b < oldBlocks; b++) await removeDoc(trx, dialect, ctx.project.id, 'memory', `${doc.fileId}:${b}`);
}
