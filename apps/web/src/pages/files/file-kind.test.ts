import { describe, expect, it } from 'vitest';
import { fileKind } from './file-kind.js';

describe('fileKind', () => {
  it.each([
    ['notes.md', 'text'],
    ['readme.TXT', 'text'],
    ['main.ts', 'code'],
    ['config.yaml', 'code'],
    ['photo.JPEG', 'image'],
    ['Report.pdf', 'pdf'],
    ['budget.xlsx', 'sheet'],
    ['data.csv', 'sheet'],
    ['backup.tar.gz', 'archive'],
    ['song.mp3', 'audio'],
    ['clip.webm', 'video'],
  ])('%s is %s', (name, kind) => expect(fileKind(name)).toBe(kind));

  it('a name without a known extension is "other", also a dotfile and a trailing dot', () => {
    for (const name of ['Makefile', 'data.bin', '.env', 'odd.', 'pdf']) expect(fileKind(name)).toBe('other');
  });
});
