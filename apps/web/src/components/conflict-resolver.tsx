import { useMemo, useState } from 'react';
import { diffLines } from 'diff';
import { useI18n } from '../i18n/index.js';
import { markerBlocks, merge3, settleBlock } from '../merge.js';

/** What the user chose after a refused save. */
export interface ConflictChoice {
  /** `mine`, `theirs` or the merged text. */
  kind: 'mine' | 'theirs' | 'merged';
  text: string;
}

type Line = { text: string; change: 'added' | 'removed' | null };

/** The lines of `to` with what it added to `from` and what it took out, in reading order. */
function changesOf(from: string, to: string): Line[] {
  const out: Line[] = [];
  for (const part of diffLines(from, to)) {
    const change = part.added ? 'added' : part.removed ? 'removed' : null;
    for (const text of part.value.replace(/\n$/, '').split('\n')) out.push({ text, change });
  }
  return out;
}

/** One side: its own additions green "+", its own deletions red "−" (what this side did), the rest plain. */
function Side(props: { title: string; lines: Line[]; side: 'mine' | 'theirs' }) {
  return (
    <figure className={`conflict-side ${props.side}`}>
      <figcaption>{props.title}</figcaption>
      <pre className="diff">
        {props.lines.map((l, i) => (
          <div key={i} className={l.change ?? 'kept'}>
            <span aria-hidden="true">{l.change === 'added' ? '+' : l.change === 'removed' ? '−' : ' '}</span> {l.text}
          </div>
        ))}
      </pre>
    </figure>
  );
}

/**
 * Shown when a save was refused because someone saved since (version_conflict, memory_version_conflict): "Your
 * version" and "Their version (vN by NAME)" side by side, each showing what that side changed since the version
 * the editing started from (added green "+", removed red "−"), and the result to save: both changes merged, and
 * where both changed the same lines, the place is marked and the user picks yours, theirs or both for it (or
 * edits the result). There is one Save, and it refuses while a marked place remains, so markers are never
 * saved. Saving their text unchanged saves nothing (theirs is already saved). Reused by every text editor
 * (wiki, memory, text files).
 *
 * @example
 * <ConflictResolver base={startText} baseVersion={3} mine={text} theirs={current.text} theirsVersion={current.version} theirsBy="agent: Researcher" onResolve={save} />
 */
export function ConflictResolver(props: {
  /** The text the editing started from, or null when it is no longer known. */
  base: string | null;
  /** The version the editing started from. */
  baseVersion: number;
  mine: string;
  theirs: string;
  theirsVersion: number;
  /** Who saved their version ("Ann", "agent: Researcher"). */
  theirsBy: string;
  onResolve: (c: ConflictChoice) => void;
}) {
  const { t } = useI18n();
  const { mine, theirs } = props;
  const theirsTitle = t('conflict.theirs', { v: props.theirsVersion, who: props.theirsBy });
  const initial = useMemo(
    () => merge3(props.base ?? '', mine, theirs, { mine: t('conflict.yours'), theirs: theirsTitle }),
    [props.base, mine, theirs, theirsTitle, t],
  );
  const [result, setResult] = useState(initial.text);
  const [refused, setRefused] = useState(false);
  const open = markerBlocks(result);
  // Without the starting text, each side is shown against the other: what only it has is its addition.
  const sides = useMemo(() => ({ mine: changesOf(props.base ?? theirs, mine), theirs: changesOf(props.base ?? mine, theirs) }), [props.base, mine, theirs]);
  const edit = (text: string) => {
    setResult(text);
    setRefused(false);
  };
  const save = () => {
    if (markerBlocks(result).length > 0) return setRefused(true);
    props.onResolve({ kind: result === theirs ? 'theirs' : result === mine ? 'mine' : 'merged', text: result });
  };

  return (
    <section className="conflict" aria-label={t('conflict.title')}>
      <p className="notice error" role="alert">
        {t('conflict.explain', { v: props.theirsVersion, who: props.theirsBy, base: props.baseVersion })}
      </p>
      <div className="conflict-sides">
        <Side title={t('conflict.yours')} lines={sides.mine} side="mine" />
        <Side title={theirsTitle} lines={sides.theirs} side="theirs" />
      </div>
      {open.length > 0 && (
        <ol className="conflict-places" aria-label={t('conflict.places', { n: open.length })}>
          {open.map((b, i) => (
            <li key={`${i}:${b.start}`} className="row">
              <span>{t('conflict.place', { n: i + 1, line: b.start + 1 })}</span>
              <button type="button" onClick={() => edit(settleBlock(result, i, 'mine'))}>
                {t('conflict.useYours')}
              </button>
              <button type="button" onClick={() => edit(settleBlock(result, i, 'theirs'))}>
                {t('conflict.useTheirs')}
              </button>
              <button type="button" onClick={() => edit(settleBlock(result, i, 'both'))}>
                {t('conflict.useBoth')}
              </button>
            </li>
          ))}
        </ol>
      )}
      <label className="conflict-merge">
        {t('conflict.merge')}
        <textarea rows={10} value={result} onChange={(e) => edit(e.target.value)} aria-invalid={refused || undefined} />
      </label>
      {refused && (
        <p className="notice error" role="alert">
          {t('conflict.markersLeft', { n: open.length })}
        </p>
      )}
      <div className="row">
        <button type="button" className="primary" onClick={save}>
          {t('common.save')}
        </button>
        <button type="button" onClick={() => edit(mine)}>
          {t('conflict.allYours')}
        </button>
        <button type="button" onClick={() => edit(theirs)}>
          {t('conflict.allTheirs')}
        </button>
      </div>
    </section>
  );
}
