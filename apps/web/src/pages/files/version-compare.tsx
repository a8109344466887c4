import { useMemo } from 'react';
import { diffLines } from 'diff';
import { useI18n } from '../../i18n/index.js';
import { DiffView, type DiffLine } from '../../components/diff-view.js';

/**
 * The lines of a unified diff from one text to another.
 *
 * @example
 * lineDiff('a\nb\n', 'a\nc\n') // [{ op: ' ', text: 'a' }, { op: '-', text: 'b' }, { op: '+', text: 'c' }]
 */
function lineDiff(from: string, to: string): DiffLine[] {
  const out: DiffLine[] = [];
  for (const part of diffLines(from, to)) {
    const op = part.added ? '+' : part.removed ? '-' : ' ';
    for (const text of part.value.replace(/\n$/, '').split('\n')) out.push({ op, text });
  }
  return out;
}

/**
 * Two versions of a text file compared as a unified diff (the view the wiki's "Changes" uses), with the count of
 * added and removed lines. Its own chunk: the diff code loads only when someone compares.
 *
 * @example
 * <VersionCompare from={{ version: 1, text: 'a' }} to={{ version: 3, text: 'b' }} onClose={close} />
 */
export function VersionCompare(props: { from: { version: number; text: string }; to: { version: number; text: string }; onClose: () => void }) {
  const { t } = useI18n();
  const lines = useMemo(() => lineDiff(props.from.text, props.to.text), [props.from.text, props.to.text]);
  const added = lines.filter((l) => l.op === '+').length;
  const removed = lines.filter((l) => l.op === '-').length;
  return (
    <section className="version-compare" aria-label={t('versions.compareTitle', { a: props.from.version, b: props.to.version })}>
      <p className="notice warn">
        {t('versions.compareTitle', { a: props.from.version, b: props.to.version })} (+{added} −{removed}){' '}
        <button className="link" onClick={props.onClose}>
          {t('memory.backToCurrent')}
        </button>
      </p>
      {added + removed === 0 ? <p className="muted">{t('versions.same')}</p> : <DiffView lines={lines} />}
    </section>
  );
}
