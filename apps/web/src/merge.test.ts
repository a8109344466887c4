import { describe, expect, it } from 'vitest';
import { markerBlocks, merge3, settleBlock } from './merge.js';

const labels = { mine: 'yours', theirs: 'theirs' };

describe('merge3', () => {
  it('keeps both sides where they changed different lines', () => {
    expect(merge3('a\nb\nc', 'A\nb\nc', 'a\nb\nC', labels)).toEqual({ text: 'A\nb\nC', conflicts: 0 });
    expect(merge3('a\nb', 'a\nb\nmine', 'top\na\nb', labels)).toEqual({ text: 'top\na\nb\nmine', conflicts: 0 });
  });

  it('takes one copy of the same change made on both sides', () => {
    expect(merge3('a\nb', 'a\nB', 'a\nB', labels)).toEqual({ text: 'a\nB', conflicts: 0 });
  });

  it('marks lines both sides changed differently, with both versions', () => {
    expect(merge3('a\nb\nc', 'a\nmine\nc', 'a\ntheirs\nc', labels)).toEqual({
      text: 'a\n<<<<<<< yours\nmine\n=======\ntheirs\n>>>>>>> theirs\nc',
      conflicts: 1,
    });
  });

  it('treats two additions at the same place as a conflict rather than guessing an order', () => {
    expect(merge3('a', 'a\nx', 'a\ny', labels).conflicts).toBe(1);
  });

  it('from an empty base, two different texts conflict as a whole', () => {
    expect(merge3('', 'mine', 'theirs', labels).conflicts).toBe(1);
    expect(merge3('', 'same', 'same', labels)).toEqual({ text: 'same', conflicts: 0 });
  });
});

describe('marked places', () => {
  const merged = merge3('a\nb\nc\nd', 'a\nmine\nc\nmine too', 'a\ntheirs\nc\ntheirs too', labels).text;

  it('finds every place held between markers, and only whole blocks', () => {
    expect(markerBlocks(merged).map((b) => [b.mine, b.theirs])).toEqual([
      [['mine'], ['theirs']],
      [['mine too'], ['theirs too']],
    ]);
    // A Markdown heading underline is not a conflict.
    expect(markerBlocks('Title\n=======\ntext')).toEqual([]);
  });

  it('settles one place at a time with yours, theirs or both', () => {
    const once = settleBlock(merged, 1, 'theirs');
    expect(markerBlocks(once)).toHaveLength(1);
    expect(settleBlock(once, 0, 'mine')).toBe('a\nmine\nc\ntheirs too');
    expect(settleBlock(once, 0, 'both')).toBe('a\nmine\ntheirs\nc\ntheirs too');
  });
});
