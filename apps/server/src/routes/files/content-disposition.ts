/**
 * `Content-Disposition` with an ASCII fallback and an RFC 5987 `filename*`, so Cyrillic and CJK names survive
 * every browser (F12).
 *
 * @example
 * contentDisposition('attachment', 'отчёт 2026.pdf')
 * // attachment; filename="_____ 2026.pdf"; filename*=UTF-8''%D0%BE%D1%82%D1%87%D1%91%D1%82%202026.pdf
 */
export function contentDisposition(kind: 'attachment' | 'inline', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** Parses a single `bytes=` range; multi-range and malformed headers are ignored (whole file), per RFC 9110. */
export function parseRange(header: string | undefined): { start?: number; end?: number } | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') return { end: Number(m[2]) }; // suffix range: the last N bytes
  return { start: Number(m[1]), ...(m[2] !== '' ? { end: Number(m[2]) } : {}) };
}
