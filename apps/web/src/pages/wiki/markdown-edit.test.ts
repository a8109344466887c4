import { describe, expect, it } from 'vitest';
import { applyFormat, imageMarkdown, openWikiLink, type Edit, type Format, type Selection } from './markdown-edit.js';

/** The text after an edit, with the selection marked by [ and ]. */
function run(text: string, format: Format): string {
  const s: Selection = { text: text.replace(/[[\]]/g, ''), start: text.indexOf('['), end: text.indexOf(']') - 1 };
  const e: Edit = applyFormat(s, format);
  const out = s.text.slice(0, e.from) + e.insert + s.text.slice(e.to);
  return out.slice(0, e.selStart) + '[' + out.slice(e.selStart, e.selEnd) + ']' + out.slice(e.selEnd);
}

describe('toolbar edits of the markdown', () => {
  it('wraps the selection, and unwraps it the second time', () => {
    expect(run('a [word] b', 'bold')).toBe('a **[word]** b');
    expect(run('a **[word]** b', 'bold')).toBe('a [word] b');
    expect(run('a [word] b', 'italic')).toBe('a _[word]_ b');
    expect(run('a [] b', 'bold')).toBe('a **[text]** b');
    expect(run('a [x] b', 'code')).toBe('a `[x]` b');
  });
  it('a link selects the URL left to type', () => {
    expect(run('see [docs]', 'link')).toBe('see [docs](https://)'.replace('https://', '[https://]'));
  });
  it('prefixes whole lines, numbering them, and takes the prefix off again', () => {
    expect(run('[one\ntwo]', 'bullets')).toBe('[- one\n- two]');
    expect(run('[- one\n- two]', 'bullets')).toBe('[one\ntwo]');
    expect(run('o[ne\ntw]o', 'numbers')).toBe('[1. one\n2. two]');
    expect(run('[a]', 'tasks')).toBe('[- [ ] a]');
    expect(run('[1. a\n2. b]', 'tasks')).toBe('[- [ ] a\n- [ ] b]');
    expect(run('ti[]tle', 'heading')).toBe('## title[]');
    expect(run('[a]', 'quote')).toBe('[> a]');
  });
  it('code over several lines becomes a fenced block; a table starts on a line of its own', () => {
    expect(run('[a\nb]', 'code')).toBe('```\n[a\nb]\n```');
    expect(run('text[]', 'table')).toBe('text\n\n| [Column 1] | Column 2 |\n| --- | --- |\n|  |  |\n');
  });
});

describe('[[ completion and pictures', () => {
  it('finds the [[ being typed on the caret line', () => {
    expect(openWikiLink('See [[hand', 10)).toEqual({ from: 4, query: 'hand' });
    expect(openWikiLink('See [[done]] x', 14)).toBeNull();
    expect(openWikiLink('[[a\nb', 5)).toBeNull();
  });
  it('encodes the path of a picture', () => {
    expect(imageMarkdown('wiki-assets/a b (1).png', 'a [b]')).toBe('![a b](wiki-assets/a%20b%20%281%29.png)');
  });
});
