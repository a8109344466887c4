import { describe, expect, it } from 'vitest';
import { fuzzyScore } from './fuzzy.js';

const rank = (q: string, texts: string[]) =>
  texts
    .map((t) => [t, fuzzyScore(q, t)] as const)
    .filter(([, s]) => s !== null)
    .sort((a, b) => b[1]! - a[1]!)
    .map(([t]) => t);

describe('fuzzyScore: the command palette finds by a few letters in order', () => {
  it('matches letters in order, case and accents folded, and refuses what lacks one', () => {
    expect(fuzzyScore('rpt', 'Reports/plan.txt')).not.toBeNull();
    expect(fuzzyScore('CAFE', 'notes/café.md')).not.toBeNull();
    expect(fuzzyScore('отч', 'папка/Отчёт.pdf')).not.toBeNull();
    expect(fuzzyScore('zz', 'reports/plan.txt')).toBeNull();
    expect(fuzzyScore('tp', 'pt')).toBeNull();
  });

  it('ranks a name that starts with the query, then words that start with its letters, before scattered ones', () => {
    expect(rank('plan', ['people/lanterns.md', 'reports/plan.txt', 'plans/q3/other.md'])).toEqual([
      'reports/plan.txt',
      'plans/q3/other.md',
      'people/lanterns.md',
    ]);
    expect(rank('gm', ['Go to Members', 'Go to Memory', 'Upload files'])[0]).toMatch(/^Go to Mem/);
  });
});
