import { describe, expect, it } from 'vitest';
import picomatch from 'picomatch';
import { compileGlob } from './glob-match.js';

const paths = [
  'a.md',
  '.env',
  'notes/.hidden.md',
  'reports/q1.csv',
  'reports/2026/q1.csv',
  'reports/2026/deep/q2.xlsx',
  'pricing/2026.csv',
  'reports',
  'a/b/c/d.txt',
  'file[1].txt',
  'x-y_z.md',
  'héllo/wörld.md',
];
const patterns = [
  '*.md',
  '**/*.md',
  '**/*.csv',
  'reports/*.csv',
  'reports/**',
  'reports/**/*.csv',
  '**',
  '*',
  '?.md',
  'a/**/d.txt',
  'a/*/c/*.txt',
  '*.{csv,xlsx}',
  '**/*.{csv,xlsx}',
  '[pr]*/*.csv',
  '[^p]*/*.csv',
  'reports/2026/[a-q]?.csv',
  '**/q[0-9].*',
  'héllo/*',
  'x-y_z.md',
  'file\\[1\\].txt',
  '**/.hidden.md',
  '{a,reports/*}.{md,csv}',
  // Over 30 steps: matched by the automaton that keeps a list of live states, not by the bit-parallel one.
  'r*e*p*o*r*t*s*/*2*0*2*6*/*d*e*e*p*/*q*2*.*x*l*s*x',
  '**/*e*p*o*r*t*s*/*2*0*2*6*/*[a-z]*e*e*p*/*q*2*.*x*l*s*?',
];

describe('compileGlob', () => {
  it('agrees with picomatch (dot: true) on the patterns agents write', () => {
    for (const pattern of patterns) {
      const ours = compileGlob(pattern);
      const theirs = picomatch(pattern, { dot: true });
      for (const p of paths) expect([pattern, p, ours(p)]).toEqual([pattern, p, theirs(p)]);
    }
  });

  it('reads [!a] as a shell does: any character but a', () => {
    expect(compileGlob('[!p]*/*.csv')('reports/q1.csv')).toBe(true);
    expect(compileGlob('[!p]*/*.csv')('pricing/2026.csv')).toBe(false);
  });

  it('answers at once for the patterns that make a backtracking matcher stall (issue 27)', () => {
    const long = 'a'.repeat(5000);
    // Each of these is exponential or polynomial for a backtracking engine on a name that almost matches.
    for (const pattern of ['*a*a*a*a*a*a*a*a*a*a*a*b', '**/*a*a*a*a*a*a*a*a*c', `${'?*'.repeat(40)}x`, '**/**/**/**/**/**/**/b']) {
      expect(compileGlob(pattern)(`${long}/${long}`)).toBe(false);
    }
    expect(compileGlob('*a*a*a*a*a*a*a*a*a*a*a')(long)).toBe(true);
  });

  it('refuses a pattern whose alternatives multiply beyond reason', () => {
    expect(() => compileGlob('{a,b}'.repeat(12))).toThrow(/alternatives/);
  });
});
