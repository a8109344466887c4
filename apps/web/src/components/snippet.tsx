/**
 * A search snippet with its matched words marked. Offsets come from the server; the text stays text.
 *
 * @example
 * <Snippet text="refunds take five days" highlights={[[0, 7]]} />
 */
export function Snippet({ text, highlights }: { text: string; highlights: Array<[number, number]> }) {
  const parts: React.ReactNode[] = [];
  let last = 0;
  for (const [a, b] of [...highlights].sort((x, y) => x[0] - y[0])) {
    if (a < last || b <= a) continue;
    parts.push(text.slice(last, a), <mark key={a}>{text.slice(a, b)}</mark>);
    last = b;
  }
  parts.push(text.slice(last));
  return <div className="snippet">{parts}</div>;
}
