import { describe, expect, it } from 'vitest';
import { newId, newOrderedId } from './ids.js';

describe('newOrderedId', () => {
  it('looks like any other ID: the prefix and 16 letters and digits', () => {
    expect(newOrderedId('fil')).toMatch(/^fil_[0-9A-Za-z]{16}$/);
    expect(newOrderedId('ver')).toHaveLength(newId('ver').length);
  });

  it('sorts by the time it was made, byte-wise and in a language collation alike', () => {
    const times = [0, 1, 35, 36, 1_700_000_000_000, 1_700_000_000_001, 1_800_000_000_000, 36 ** 9 - 1];
    const ids = times.map((t) => newOrderedId('ver', t));
    expect([...ids].sort()).toEqual(ids);
    expect([...ids].sort((a, b) => a.localeCompare(b, 'en'))).toEqual(ids);
  });

  it('differs within one millisecond', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => newOrderedId('fil', 1_800_000_000_000)));
    expect(ids.size).toBe(10_000);
  });
});
