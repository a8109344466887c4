/**
 * A snippet's markdown as the text a reader sees, with the server's highlight offsets moved along (issue 31):
 * headings' `#`, emphasis, code marks, quotes, list bullets, table bars, `[[target|label]]` and `[text](url)`
 * become their text. Only characters are dropped (and runs of white space folded), never added, so every kept
 * character knows where it came from and a highlight keeps covering the same words.
 *
 * @example
 * plainSnippet('## Refunds\n**Refunds** take [[handbook/time|five days]]', [[3, 10]])
 * // { text: 'Refunds Refunds take five days', highlights: [[0, 7]] }
 */
export function plainSnippet(text: string, highlights: ReadonlyArray<readonly [number, number]>): { text: string; highlights: Array<[number, number]> } {
  const drop = new Uint8Array(text.length);
  const cut = (from: number, to: number) => drop.fill(1, Math.max(0, from), Math.min(text.length, to));
  const each = (re: RegExp, f: (m: RegExpExecArray) => void) => {
    for (const m of text.matchAll(re)) f(m as RegExpExecArray);
  };
  // [[target|label]] → label; [[target]] → target.
  each(/\[\[([^[\]\n|]*)(\|[^[\]\n]*)?\]\]/g, (m) => {
    const at = m.index;
    const end = at + m[0].length;
    if (m[2]) cut(at, at + 3 + m[1]!.length);
    else cut(at, at + 2);
    cut(end - 2, end);
  });
  // ![alt](url) and [text](url) → alt, text.
  each(/!?\[([^[\]\n]*)\]\(([^()\s]*)\)/g, (m) => {
    const at = m.index;
    const open = m[0].startsWith('!') ? 2 : 1;
    cut(at, at + open);
    const close = at + open + m[1]!.length;
    cut(close, at + m[0].length);
  });
  // Line starts: headings, quotes, bullets and numbers of lists, fences.
  each(/^[ \t]*(?:#{1,6}[ \t]+|(?:>[ \t]?)+|[-*+][ \t]+(?:\[[ xX]\][ \t]+)?|\d{1,9}[.)][ \t]+|`{3}[^\n]*|~{3}[^\n]*)/gm, (m) =>
    cut(m.index, m.index + m[0].length),
  );
  // The server folds a snippet's new lines into spaces: a heading's marks then stand after a space.
  each(/(?<=\s)#{1,6}[ \t]/g, (m) => cut(m.index, m.index + m[0].length));
  // Emphasis and code marks, table bars and horizontal rules.
  each(/\*{1,3}|_{2,3}|`+|~~|\|/g, (m) => cut(m.index, m.index + m[0].length));
  each(/(?<=^|\s)_(?=\S)|(?<=\S)_(?=\s|$|[.,;:!?])/g, (m) => cut(m.index, m.index + 1));
  // Rules and a table's delimiter row (`|---|:--|`) say nothing.
  let line = 0;
  for (const l of text.split('\n')) {
    if (/^[-=:| \t]+$/.test(l) && (l.includes('---') || l.includes('==='))) cut(line, line + l.length);
    line += l.length + 1;
  }
  // Folds white space (new lines included) into one space, at neither end.
  let out = '';
  const at = new Int32Array(text.length + 1).fill(-1);
  let space = false;
  for (let i = 0; i < text.length; i++) {
    if (drop[i]) continue;
    const c = text[i]!;
    if (/\s/.test(c)) {
      space = out.length > 0;
      continue;
    }
    if (space) {
      out += ' ';
      space = false;
    }
    at[i] = out.length;
    out += c;
  }
  const marks: Array<[number, number]> = [];
  for (const [a, b] of highlights) {
    let s = -1;
    let e = -1;
    for (let i = Math.max(0, a); i < Math.min(text.length, b); i++) {
      if (at[i]! < 0) continue;
      if (s < 0) s = at[i]!;
      e = at[i]! + 1;
    }
    if (s >= 0 && e > s) marks.push([s, e]);
  }
  return { text: out, highlights: marks };
}

/**
 * The text of the heading a snippet falls under in a page's markdown, or null (before the first heading, or
 * not found): a search hit then opens the page at that heading. The snippet's white space is folded and it may
 * start and end with "…", so it is looked up in the markdown with its white space folded the same way.
 *
 * @example
 * headingBefore('# A\n\nx\n\n## Refunds\n\nRefunds take\nfive days', '…take five days', [[6, 10]]) // "Refunds"
 */
export function headingBefore(markdown: string, snippet: string, highlights: ReadonlyArray<readonly [number, number]> = []): string | null {
  let folded = '';
  const from: number[] = [];
  for (let i = 0; i < markdown.length; i++) {
    const c = markdown[i]!;
    if (/\s/.test(c)) {
      if (folded.endsWith(' ')) continue;
      folded += ' ';
    } else folded += c;
    from.push(i);
  }
  const lead = snippet.startsWith('…') ? 1 : 0;
  const core = snippet.replace(/^…|…$/g, '').trim();
  let at = -1;
  for (const piece of [core, core.slice(0, 60), core.slice(0, 25)]) {
    if (piece.length < 3) break;
    at = folded.indexOf(piece);
    if (at >= 0) break;
  }
  if (at < 0) return null;
  // The match itself, not the snippet's start, says which section it is in: a snippet may begin in the one before.
  const first = Math.min(...highlights.map(([a]) => a), Infinity);
  const match = Number.isFinite(first) ? Math.min(folded.length - 1, at + Math.max(0, first - lead)) : at;
  // Whole lines up to the match's: a match in a heading is under that heading.
  const lineEnd = markdown.indexOf('\n', from[match]!);
  const lines = markdown.slice(0, lineEnd < 0 ? markdown.length : lineEnd).split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const h = /^ {0,3}#{1,6}[ \t]+(\S.*)$/.exec(lines[i]!);
    if (h) return plainSnippet(h[1]!.replace(/[ \t]#+[ \t]*$/, ''), []).text || null;
  }
  return null;
}
