import { describe, expect, it } from 'vitest';
import { parseLinks } from './links.js';
import { findMention } from './mentions.js';
import { normalizeWikiPath, slugifyWikiPath, titleFromPath } from './wiki-paths.js';
import { importedPath, importedTitle } from './import-pages.js';

describe('wiki paths', () => {
  it.each([
    ['Handbook/Refunds', 'handbook/refunds'],
    ['/faq/', 'faq'],
    ['справка/База', 'справка/база'],
    ['文档/数据库', '文档/数据库'],
    ['a_b/c-d/2026', 'a_b/c-d/2026'],
    ['ÉTÉ', 'été'],
  ])('%s → %s', (input, out) => expect(normalizeWikiPath(input)).toBe(out));

  it.each(['', 'a b', 'a//b', 'a/./b', 'a/../b', 'notes.md', 'what?', 'a\\b', Array.from({ length: 11 }, () => 'x').join('/')])('refuses %j', (input) => {
    expect(() => normalizeWikiPath(input)).toThrow(expect.objectContaining({ code: 'path_invalid' }));
  });

  it('derives titles and slugs', () => {
    expect(titleFromPath('handbook/refund-policy')).toBe('Refund policy');
    expect(titleFromPath('справка/база_знаний')).toBe('База знаний');
    expect(slugifyWikiPath('Notes (2024).v2')).toBe('notes-2024-v2');
    expect(importedPath('Team/On Call.markdown')).toBe('team/on-call');
    expect(importedPath('x.md', 'old')).toBe('old/x');
    expect(importedTitle('no heading')).toBeUndefined();
    expect(importedTitle('intro\n## Sub\n# Main title #\n')).toBe('Main title');
    expect(importedTitle('#\tTabbed ##  \r\nbody')).toBe('Tabbed');
    expect(importedTitle('#  \n# Later')).toBeUndefined();
  });

  it('reads a heading of thousands of spaces at once, where a backtracking pattern stalled (issue 27)', () => {
    expect(importedTitle(`# ${' '.repeat(50_000)}x${' '.repeat(50_000)}#${' '.repeat(50_000)}y`)).toBe(`x${' '.repeat(50_000)}#${' '.repeat(50_000)}y`);
    expect(importedTitle(`#${' '.repeat(100_000)}`)).toBeUndefined();
    expect(slugifyWikiPath(`a${'-'.repeat(100_000)}`)).toBe('a');
  });
});

describe('links', () => {
  it('parses the three forms, folds targets, ignores code and duplicates', () => {
    const text =
      'See [[Handbook/Refunds|refunds]], [[faq#Billing]], [[faq]], [[My Page#top|here]].\n`[[code/span]]`\n```\n[[fenced/block]]\n```\n[[ ]] [[bad?]]';
    expect(parseLinks(text)).toEqual([
      { path: 'handbook/refunds', label: 'refunds', heading: null },
      { path: 'faq', label: null, heading: 'Billing' },
      { path: 'my-page', label: 'here', heading: 'top' },
      { path: 'bad', label: null, heading: null },
    ]);
  });

  it('finds whole-word mentions, and mentions inside text without spaces', () => {
    expect(findMention('see the refunds page', 'refunds')).toBe(8);
    expect(findMention('nonrefunds', 'refunds')).toBe(-1);
    expect(findMention('refundsy', 'refunds')).toBe(-1);
    expect(findMention('我们的数据库很快', '数据库')).toBe(3);
    expect(findMention('привет, мир!', 'привет, мир')).toBe(0);
  });
});
