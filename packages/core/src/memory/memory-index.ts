import type { Ctx, Q } from '../platform.js';
import { indexDoc, removeDoc } from '../search/index.js';
import { splitLines } from './merge.js';
import type { MemoryTarget } from './types.js';

/**
 * Lines per search document. A memory file is indexed as consecutive blocks of this many lines
 * (`refId` = `<file id>:<block>`), so an append re-tokenises only the last block or two instead of the whole
 * file: the cost of an append stays flat as MEMORY.md grows, which is what keeps 16 concurrent writers of one
 * file fast (bench/README.md ("Memory")). Searches fold the blocks back into one hit per file.
 */
export const LINES_PER_BLOCK = 40;

/** The file ID of a memory search document's `refId`. */
export function fileIdOfRef(refId: string): string {
  const i = refId.lastIndexOf(':');
  return i < 0 ? refId : refId.slice(0, i);
}

/** Lines as splitLines counts them (a final newline does not start another line). */
function lineCount(text: string): number {
  if (text === '') return 0;
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n : n + 1;
}

/** Offset where line `line` (from 0) starts; the text's length when it has fewer lines. */
function offsetOfLine(text: string, line: number): number {
  let at = 0;
  for (let k = 0; k < line; k++) {
    const i = text.indexOf('\n', at);
    if (i < 0) return text.length;
    at = i + 1;
  }
  return at;
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
  trx: Q,
  ctx: Ctx,
  _target: MemoryTarget,
  doc: { fileId: string; path: string; title: string; visibility: string; updatedAt: string },
  previous: string,
  next: string,
  change: 'set' | 'append',
): Promise<void> {
  const dialect = ctx.platform.db.dialect;
  // Counted and sliced without splitting the whole file: an append to a long MEMORY.md touches only its tail.
  const oldBlocks = blockCount(lineCount(previous));
  const newCount = lineCount(next);
  const newBlocks = blockCount(newCount);
  const first = change === 'append' ? Math.floor(lineCount(previous) / LINES_PER_BLOCK) : 0;
  const tail = splitLines(next.slice(offsetOfLine(next, first * LINES_PER_BLOCK)));
  for (let b = first; b < newBlocks; b++) {
    const body = tail.slice((b - first) * LINES_PER_BLOCK, (b - first + 1) * LINES_PER_BLOCK).join('\n');
    await indexDoc(
      { kysely: trx, dialect },
      {
        projectId: ctx.project.id,
        kind: 'memory',
        refId: `${doc.fileId}:${b}`,
        path: doc.path,
        title: doc.title,
        body,
        visibility: doc.visibility,
        updatedAt: doc.updatedAt,
      },
    );
  }
  for (let b = newBlocks; b < oldBlocks; b++)
    await removeDoc({ kysely: trx, dialect }, { projectId: ctx.project.id, kind: 'memory', refId: `${doc.fileId}:${b}` });
}
