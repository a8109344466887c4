/** A textarea's text and selection. */
export interface Selection {
  text: string;
  start: number;
  end: number;
}

/** One change to make: replace `text[from, to)` with `insert`, then select `[selStart, selEnd)` of the new text. */
export interface Edit {
  from: number;
  to: number;
  insert: string;
  selStart: number;
  selEnd: number;
}

export type Format = 'bold' | 'italic' | 'heading' | 'link' | 'bullets' | 'numbers' | 'tasks' | 'code' | 'quote' | 'table';

/** The start of the line `at` is on, and the end of the line `to` is on (the selection's whole lines). */
function wholeLines(text: string, at: number, to: number): [number, number] {
  const from = text.lastIndexOf('\n', at - 1) + 1;
  // A selection that ends just after a newline stops at the line before it.
  const last = to > at && text[to - 1] === '\n' ? to - 1 : to;
  const nl = text.indexOf('\n', last);
  return [from, nl < 0 ? text.length : nl];
}

/** Wraps the selection in `mark` (or unwraps it when it already is); with nothing selected, a placeholder is put in and selected. */
function wrap(s: Selection, mark: string, placeholder: string): Edit {
  const inner = s.text.slice(s.start, s.end);
  const before = s.text.slice(s.start - mark.length, s.start);
  const after = s.text.slice(s.end, s.end + mark.length);
  if (inner && before === mark && after === mark)
    return { from: s.start - mark.length, to: s.end + mark.length, insert: inner, selStart: s.start - mark.length, selEnd: s.end - mark.length };
  const body = inner || placeholder;
  return { from: s.start, to: s.end, insert: mark + body + mark, selStart: s.start + mark.length, selEnd: s.start + mark.length + body.length };
}

/** Any list marker: a line turned into another kind of list loses the one it had. */
const LIST_MARKER = /^(?:[-*+] \[[ xX]\] |[-*+] |\d+\. )/;

/**
 * Puts a prefix before every selected line (a function numbers them), or takes it off when all have it; `replaces`
 * is what the prefix takes the place of (another list's marker).
 */
function prefixLines(s: Selection, prefix: string | ((i: number) => string), pattern: RegExp, replaces: RegExp = pattern): Edit {
  const [from, to] = wholeLines(s.text, s.start, s.end);
  const lines = s.text.slice(from, to).split('\n');
  const all = lines.every((l) => pattern.test(l));
  const next = lines.map((l, i) => (all ? l.replace(pattern, '') : (typeof prefix === 'string' ? prefix : prefix(i)) + l.replace(replaces, ''))).join('\n');
  if (s.start === s.end && lines.length === 1) {
    const caret = from + next.length;
    return { from, to, insert: next, selStart: caret, selEnd: caret };
  }
  return { from, to, insert: next, selStart: from, selEnd: from + next.length };
}

const TABLE = '| Column 1 | Column 2 |\n| --- | --- |\n|  |  |\n';

/**
 * What a toolbar button (or Ctrl+B/I/K) does to the markdown: which part of the text becomes what, and what is
 * selected afterwards, so the next keystroke lands where the writer expects (the link's URL, the word made bold).
 *
 * @example
 * applyFormat({ text: 'a word', start: 2, end: 6 }, 'bold') // { from: 2, to: 6, insert: '**word**', selStart: 4, selEnd: 8 }
 */
export function applyFormat(s: Selection, format: Format, placeholder = 'text'): Edit {
  switch (format) {
    case 'bold':
      return wrap(s, '**', placeholder);
    case 'italic':
      return wrap(s, '_', placeholder);
    case 'code': {
      const inner = s.text.slice(s.start, s.end);
      if (!inner.includes('\n')) return wrap(s, '`', placeholder);
      const [from, to] = wholeLines(s.text, s.start, s.end);
      const body = s.text.slice(from, to);
      const insert = '```\n' + body + '\n```';
      return { from, to, insert, selStart: from + 4, selEnd: from + 4 + body.length };
    }
    case 'link': {
      const label = s.text.slice(s.start, s.end) || placeholder;
      const insert = `[${label}](https://)`;
      // The URL is what is left to type.
      const url = s.start + label.length + 3;
      return { from: s.start, to: s.end, insert, selStart: url, selEnd: url + 'https://'.length };
    }
    case 'heading':
      return prefixLines(s, '## ', /^#{1,6} /);
    case 'bullets':
      return prefixLines(s, '- ', /^[-*+] (?!\[[ xX]\] )/, LIST_MARKER);
    case 'numbers':
      return prefixLines(s, (i) => `${i + 1}. `, /^\d+\. /, LIST_MARKER);
    case 'tasks':
      return prefixLines(s, '- [ ] ', /^[-*+] \[[ xX]\] /, LIST_MARKER);
    case 'quote':
      return prefixLines(s, '> ', /^> ?/);
    case 'table': {
      // A table needs a line of its own, with a blank line before it when it follows text.
      const lead = s.start === 0 || s.text.slice(0, s.start).endsWith('\n\n') ? '' : s.text[s.start - 1] === '\n' ? '\n' : '\n\n';
      const insert = lead + TABLE;
      const cell = s.start + lead.length + 2;
      return { from: s.start, to: s.end, insert, selStart: cell, selEnd: cell + 'Column 1'.length };
    }
  }
}

/**
 * The `[[` being typed just before the caret, if any: where it starts and what has been typed after it.
 *
 * @example
 * openWikiLink('See [[hand', 10) // { from: 4, query: 'hand' }
 */
export function openWikiLink(text: string, caret: number): { from: number; query: string } | null {
  const line = text.slice(text.lastIndexOf('\n', caret - 1) + 1, caret);
  const at = line.lastIndexOf('[[');
  if (at < 0) return null;
  const query = line.slice(at + 2);
  if (/[[\]|]/.test(query) || query.length > 100) return null;
  return { from: caret - line.length + at, query };
}

/**
 * A markdown image of a project file: each path segment encoded, so spaces and brackets cannot break the link.
 *
 * @example
 * imageMarkdown('wiki-assets/a b.png', 'a b') // "![a b](wiki-assets/a%20b.png)"
 */
export function imageMarkdown(path: string, alt: string): string {
  const encoded = path
    .split('/')
    .map((seg) => encodeURIComponent(seg).replace(/\(/g, '%28').replace(/\)/g, '%29'))
    .join('/');
  return `![${alt.replace(/[[\]\\]/g, '')}](${encoded})`;
}
