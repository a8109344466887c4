import { describe, expect, it } from 'vitest';
import { diffLines, renderDiff } from './diff.js';

const apply = (lines: ReturnType<typeof diffLines>) => ({
  before: lines
    .filter((l) => l.op !== '+')
    .map((l) => l.text)
    .join('\n'),
  after: lines
    .filter((l) => l.op !== '-')
    .map((l) => l.text)
    .join('\n'),
});

describe('line diff', () => {
  it('shows removed and added lines between kept ones', () => {
    expect(renderDiff(diffLines('a\nb\nc', 'a\nc\nd'))).toBe(' a\n-b\n c\n+d');
    expect(renderDiff(diffLines('', 'new'))).toBe('+new');
    expect(renderDiff(diffLines('same', 'same'))).toBe('');
  });

  it('is a shortest edit that reproduces both texts', () => {
    const a = 'the\nquick\nbrown\nfox\njumps\nover\nthe\nlazy\ndog';
    const b = 'the\nslow\nbrown\nfox\nwalks\nover\nthe\ndog\nagain';
    const d = diffLines(a, b);
    expect(apply(d)).toEqual({ before: a, after: b });
    expect(d.filter((l) => l.op !== ' ').length).toBe(6); // LCS the,brown,fox,over,the,dog: 3 removed + 3 added
  });

  it('keeps context to three lines and marks gaps between hunks', () => {
    const a = Array.from({ length: 20 }, (_, i) => `l${i}`);
    const b = [...a];
    b[1] = 'changed';
    b[18] = 'changed too';
    const out = renderDiff(diffLines(a.join('\n'), b.join('\n'))).split('\n');
    expect(out).toContain('@@');
    expect(out.filter((l) => l.startsWith(' ')).length).toBe(4 + 4);
  });
});
