import type { SearchDocInput } from '../search/index.js';
import { splitLines } from './merge.js';

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
 * Where a change to a memory file starts in its search blocks, and how many blocks it had before: what the
 * outbox row of the change records (outbox/outbox.ts), so the drainer re-tokenises only from there. `append`
 * means `next` is `previous` plus lines at the end (store.ts appendText), so blocks before the old last one are
 * untouched.
 *
 * @example
 * memoryChangeSpan('a\n'.repeat(85), 'append') // { firstBlock: 2, oldBlocks: 3 }
 */
export function memoryChangeSpan(previous: string, change: 'set' | 'append'): { firstBlock: number; oldBlocks: number } {
  const lines = lineCount(previous);
  return { firstBlock: change === 'append' ? Math.floor(lines / LINES_PER_BLOCK) : 0, oldBlocks: blockCount(lines) };
}

/**
 * The search documents of one memory file's text from block `first` on, and the blocks past its end up to
 * `oldBlocks` that must go: what the outbox drainer writes for a memory change.
 *
 * @example
 * const { docs, gone } = memoryBlocks(projectId, { fileId, path: 'AGENTS.md', title: 'AGENTS.md', visibility: 'memory:workspace', updatedAt }, text, 0, 3);
 */
export function memoryBlocks(
  projectId: string,
  doc: { fileId: string; path: string; title: string; visibility: string; updatedAt: string },
  next: string,
  first: number,
  oldBlocks: number,
): { docs: SearchDocInput[]; gone: string[] } {
  // Counted and sliced without splitting the whole file: an append to a long MEMORY.md touches only its tail.
  const newBlocks = blockCount(lineCount(next));
  const tail = splitLines(next.slice(offsetOfLine(next, first * LINES_PER_BLOCK)));
  const docs: SearchDocInput[] = [];
  for (let b = first; b < newBlocks; b++) {
    docs.push({
      projectId,
      kind: 'memory',
      refId: `${doc.fileId}:${b}`,
      path: doc.path,
      title: doc.title,
      body: tail.slice((b - first) * LINES_PER_BLOCK, (b - first + 1) * LINES_PER_BLOCK).join('\n'),
      visibility: doc.visibility,
      updatedAt: doc.updatedAt,
    });
  }
  const gone: string[] = [];
  for (let b = newBlocks; b < oldBlocks; b++) gone.push(`${doc.fileId}:${b}`);
  return { docs, gone };
}
