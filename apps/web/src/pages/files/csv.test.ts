import { describe, expect, it } from 'vitest';
import { parseDelimited, separatorOf } from './csv.js';

describe('parseDelimited', () => {
  it('keeps separators, line breaks and doubled quotes inside quoted fields', () => {
    const text = 'name,note,n\r\n"Smith, J","said ""hi""\nthen left",3\r\nplain,,\n';
    expect(parseDelimited(text, ',').rows).toEqual([
      ['name', 'note', 'n'],
      ['Smith, J', 'said "hi"\nthen left', '3'],
      ['plain', '', ''],
    ]);
  });

  it('reads TSV, a last line without a line break, a byte-order mark and an unclosed quote', () => {
    expect(parseDelimited('\ufeffa\tb\n1\t"2', '\t').rows).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(parseDelimited('', ',').rows).toEqual([]);
  });

  it('stops after maxRows and says there were more', () => {
    const text = Array.from({ length: 10 }, (_, i) => `${i},"x\ny"`).join('\n');
    const t = parseDelimited(text, ',', 3);
    expect(t.rows).toHaveLength(3);
    expect(t.rows[2]).toEqual(['2', 'x\ny']);
    expect(t.truncated).toBe(true);
    expect(parseDelimited('a\nb\n', ',', 2).truncated).toBe(false);
  });

  it('chooses the separator from the name and the first line', () => {
    expect(separatorOf('x.tsv', 'a,b')).toBe('\t');
    expect(separatorOf('x.csv', 'a;b\n1;2')).toBe(';');
    expect(separatorOf('x.csv', 'a,b;c')).toBe(',');
    expect(separatorOf('x.csv', 'a;b')).toBe(';');
  });
});
