import { plainSnippet } from '../markdown-text.js';

/**
 * A search snippet as a reader sees it: its markdown marks dropped (never a raw `**`, `#` or `[[`) and the
 * matched words marked. Offsets come from the server; the text stays text.
 *
 * @example
 * <Snippet text="**refunds** take five days" highlights={[[2, 9]]} />
 */
export function Snippet({ text, highlights }: { text: string; highlights: Array<[number, number]> }) {
  const plain = plainSnippet(text, highlights);
  const parts: React.ReactNode[] = [];
  let last = 0;
  for (const [a, b] of [...plain.highlights].sort((x, y) => x[0] - y[0])) {
    if (a < last || b <= a) continue;
    parts.push(plain.text.slice(last, a), <mark key={a}>{plain.text.slice(a, b)}</mark>);
    last = b;
  }
  parts.push(plain.text.slice(last));
  return <div className="snippet">{parts}</div>;
}
