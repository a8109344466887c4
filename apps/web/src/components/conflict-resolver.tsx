import { useMemo, useState } from 'react';
import { diffLines } from 'diff';
import { useI18n } from '../i18n/index.js';
import { merge3 } from '../merge.js';

/** What the user chose after a refused save. */
export interface ConflictChoice {
  /** `mine`, `theirs` or the merged text. */
  kind: 'mine' | 'theirs' | 'merged';
  text: string;
}

/** One side of the comparison: every line, those that only this side has marked. */
function Side(props: { title: string; parts: Array<{ text: string; own: boolean }>; mark: 'added' | 'removed' }) {
  return (
    <figure className="conflict-side">
      <figcaption>{props.title}</figcaption>
      <pre className="diff">
        {props.parts.map((p, i) => (
          <div key={i} className={p.own ? props.mark : 'kept'}>
            <span aria-hidden="true">{p.own ? (props.mark === 'added' ? '+' : '−') : ' '}</span> {p.text}
          </div>
        ))}
      </pre>
    </figure>
  );
}

/**
 * Shown when a save was refused because someone saved since (version_conflict, memory_version_conflict): the
 * user's text and theirs side by side with the lines only one of them has marked, and a merge of both
 * (a three-way merge from the version the editing started at, conflicting lines between markers) to edit.
 * Keep theirs drops the user's text; keep mine saves it over theirs; save the merge saves the edited merge.
 * Nothing is lost until the user picks.
 *
 * @example
 * <ConflictResolver base={startText} mine={text} theirs={current.text} theirsVersion={current.version} onResolve={save} />
 */
export function ConflictResolver(props: { base: string | null; mine: string; theirs: string; theirsVersion: number; onResolve: (c: ConflictChoice) => void }) {
  const { t } = useI18n();
  const { mine, theirs } = props;
  const initial = useMemo(
    () => merge3(props.base ?? '', mine, theirs, { mine: t('conflict.yours'), theirs: t('conflict.theirs', { v: props.theirsVersion }) }),
    [props.base, mine, theirs, props.theirsVersion, t],
  );
  const [merged, setMerged] = useState(initial.text);
  const sides = useMemo(() => {
    const left: Array<{ text: string; own: boolean }> = [];
    const right: Array<{ text: string; own: boolean }> = [];
    for (const part of diffLines(theirs, mine)) {
      const lines = part.value.replace(/\n$/, '').split('\n');
      for (const text of lines) {
        if (!part.removed) left.push({ text, own: !!part.added });
        if (!part.added) right.push({ text, own: !!part.removed });
      }
    }
    return { left, right };
  }, [mine, theirs]);

  return (
    <section className="conflict" aria-label={t('conflict.title')}>
      <p className="notice error" role="alert">
        {t('conflict.explain', { v: props.theirsVersion })}
      </p>
      <div className="conflict-sides">
        <Side title={t('conflict.yours')} parts={sides.left} mark="added" />
        <Side title={t('conflict.theirs', { v: props.theirsVersion })} parts={sides.right} mark="removed" />
      </div>
      <label className="conflict-merge">
        {t('conflict.merge')}
        {initial.conflicts > 0 && <small className="muted"> {t('conflict.markers', { n: initial.conflicts })}</small>}
        <textarea rows={10} value={merged} onChange={(e) => setMerged(e.target.value)} />
      </label>
      <div className="row">
        <button type="button" onClick={() => props.onResolve({ kind: 'merged', text: merged })}>
          {t('conflict.saveMerge')}
        </button>
        <button type="button" onClick={() => props.onResolve({ kind: 'mine', text: mine })}>
          {t('conflict.keepMine')}
        </button>
        <button type="button" onClick={() => props.onResolve({ kind: 'theirs', text: theirs })}>
          {t('conflict.keepTheirs')}
        </button>
      </div>
    </section>
  );
}
