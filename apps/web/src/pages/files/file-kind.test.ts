import { describe, expect, it } from 'vitest';
import { fileKind, kindWord } from './file-kind.js';

describe('fileKind', () => {
  it('reads the kind from the extension, whatever its case', () => {
    expect(fileKind('plan.md', 'text/markdown')).toBe('text');
    expect(fileKind('main.TS', 'application/octet-stream')).toBe('code');
    expect(fileKind('Photo.JPG', 'application/octet-stream')).toBe('image');
    expect(fileKind('report.pdf', '')).toBe('pdf');
    expect(fileKind('budget.xlsx', '')).toBe('sheet');
    expect(fileKind('backup.tar.gz', '')).toBe('archive');
    expect(fileKind('song.flac', '')).toBe('audio');
    expect(fileKind('clip.webm', '')).toBe('video');
  });

  it('falls back to the media type when the name has no known extension', () => {
    expect(fileKind('scan', 'application/pdf')).toBe('pdf');
    expect(fileKind('picture', 'image/png')).toBe('image');
    expect(fileKind('README', 'text/plain')).toBe('text');
    expect(fileKind('data.bin', 'application/octet-stream')).toBe('other');
    expect(fileKind('.bashrc', '')).toBe('other');
  });
});

describe('kindWord', () => {
  it('names office documents, pages and the rest in words, never by their media type', () => {
    expect(kindWord('report.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document')).toBe('word');
    expect(kindWord('report', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document')).toBe('word');
    expect(kindWord('deck.pptx', '')).toBe('slides');
    expect(kindWord('budget', 'application/vnd.ms-excel')).toBe('sheet');
    expect(kindWord('page.html', 'text/html')).toBe('web');
    expect(kindWord('scan.pdf', 'application/pdf')).toBe('pdf');
    expect(kindWord('notes.txt', 'text/plain')).toBe('text');
    expect(kindWord('data.bin', 'application/octet-stream')).toBe('other');
  });
});
