import { StoaError } from '@stoa/contract';
import { lineAt, nearMiss, occurrences } from './near-miss.js';

/**
 * `text` with `oldStr` replaced, when it occurs exactly once — overlapping occurrences count ("aa" occurs twice
 * in "xaaay") — else the refusal: how many times and where, or the nearest near-miss. `what` names the text in
 * messages (a file's path, a wiki page, a memory file) and `version` the version it was read at. One rule for
 * str_replace, edit_file, wiki_edit and memory_edit.
 *
 * @example
 * replaceOnce('a b c', 'b', 'B', '"notes.md"', 3) // { text: 'a B c', line: 1 }
 */
export function replaceOnce(text: string, oldStr: string, newStr: string, what: string, version: number): { text: string; line: number } {
  const at = occurrences(text, oldStr);
  if (at.length > 1) {
    const lines = at
      .slice(0, 10)
      .map((o) => lineAt(text, o))
      .join(', ');
    throw new StoaError(
      'bad_request',
      `old_str occurs ${at.length} times in ${what} (at lines ${lines}${at.length > 10 ? ', …' : ''}); it must occur exactly once — include more surrounding text to make it unique`,
      { matches: at.length },
    );
  }
  if (at.length === 0) {
    const hint = text.length === 0 ? `${what} is empty` : nearMiss(text, oldStr);
    throw new StoaError(
      'not_found',
      `old_str was not found in ${what} (version ${version}); ${hint ? (text.length === 0 ? hint : `nearest near-miss: ${hint}`) : 'nothing similar either — read it again'}`,
      { matches: 0 },
    );
  }
  return { text: text.slice(0, at[0]!) + newStr + text.slice(at[0]! + oldStr.length), line: lineAt(text, at[0]!) };
}
