/**
 * Whether a file is shown rendered before its raw text: markdown by .md/.markdown, a table by .csv/.tsv/.tab.
 *
 * @example
 * renderedKind('notes/plan.md') // 'markdown'
 */
export function renderedKind(name: string): 'markdown' | 'table' | null {
  if (/\.(md|markdown)$/i.test(name)) return 'markdown';
  if (/\.(csv|tsv|tab)$/i.test(name)) return 'table';
  return null;
}

/** Largest text file edited in the browser: beyond it a textarea becomes slow, and such files are rarely typed. */
export const EDIT_MAX_BYTES = 1024 * 1024;

/**
 * The text of UTF-8 bytes, or null when they are not UTF-8 (such a file is shown but never edited: saving the
 * decoded text would change its bytes).
 *
 * @example
 * utf8Text(new TextEncoder().encode('héllo').buffer) // 'héllo'
 */
export function utf8Text(bytes: ArrayBuffer): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}
