/** One line of a line diff: kept (' '), added ('+') or removed ('-'). */
export interface DiffLine {
  op: ' ' | '+' | '-';
  text: string;
}

/**
 * A unified line diff, added lines marked + and removed ones −, as the wiki's "Changes" and the file versions'
 * comparison show it.
 *
 * @example
 * <DiffView lines={[{ op: '-', text: 'old' }, { op: '+', text: 'new' }]} />
 */
export function DiffView({ lines }: { lines: DiffLine[] }) {
  return (
    <pre className="diff">
      {lines.map((l, i) => (
        <div key={i} className={l.op === '+' ? 'added' : l.op === '-' ? 'removed' : 'kept'}>
          <span aria-hidden="true">{l.op}</span> {l.text}
        </div>
      ))}
    </pre>
  );
}
