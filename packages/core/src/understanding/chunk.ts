import { createHash } from 'node:crypto';

export interface Chunk {
  idx: number;
  text: string;
  /** Character offsets into the parsed text: [start, end). */
  start: number;
  end: number;
  page: number | null;
  hash: string;
}

export function contentHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Cuts parsed text into chunks of about `target` characters along paragraph, then sentence, boundaries, never
 * over `max`. Offsets point into the original text, so a citation is a span of the document.
 *
 * @example
 * chunkText('One.\n\nTwo.', [{ page: 1, start: 0, end: 10 }]) // [{ idx: 0, text: 'One.\n\nTwo.', start: 0, end: 10, page: 1, … }]
 */
export function chunkText(text: string, pages: Array<{ page: number; start: number; end: number }>, opts: { target?: number; max?: number } = {}): Chunk[] {
  const target = opts.target ?? 800;
  const max = opts.max ?? 1200;
  const pieces: Array<[number, number]> = [];
  // Paragraph boundaries first; an over-long paragraph is cut at sentence ends, then hard at `max`.
  const para = /\n\s*\n/g;
  let last = 0;
  const paragraphs: Array<[number, number]> = [];
  for (let m = para.exec(text); m; m = para.exec(text)) {
    paragraphs.push([last, m.index]);
    last = m.index + m[0].length;
  }
  paragraphs.push([last, text.length]);
  for (const [s, e] of paragraphs) {
    if (e - s <= max) {
      if (text.slice(s, e).trim()) pieces.push([s, e]);
      continue;
    }
    let start = s;
    while (start < e) {
      let end = Math.min(e, start + max);
      if (end < e) {
        const window = text.slice(start + Math.floor(max / 2), end);
        const cut = Math.max(window.lastIndexOf('. '), window.lastIndexOf('。'), window.lastIndexOf('! '), window.lastIndexOf('? '), window.lastIndexOf('\n'));
        if (cut >= 0) end = start + Math.floor(max / 2) + cut + 1;
      }
      pieces.push([start, end]);
      start = end;
      while (start < e && /\s/.test(text[start]!)) start++;
    }
  }
  const chunks: Chunk[] = [];
  let cur: [number, number] | null = null;
  const flush = () => {
    if (!cur) return;
    const [s, e] = cur;
    const raw = text.slice(s, e);
    const lead = raw.length - raw.trimStart().length;
    const t = raw.trim();
    const start = s + lead;
    const page = pages.find((p) => start >= p.start && start <= p.end)?.page ?? null;
    chunks.push({ idx: chunks.length, text: t, start, end: start + t.length, page, hash: contentHash(t) });
    cur = null;
  };
  for (const [s, e] of pieces) {
    const pageOf = (o: number) => pages.find((p) => o >= p.start && o <= p.end)?.page;
    if (cur && (e - cur[0] > target || pageOf(s) !== pageOf(cur[0]))) flush();
    cur = cur ? [cur[0], e] : [s, e];
  }
  flush();
  return chunks;
}
