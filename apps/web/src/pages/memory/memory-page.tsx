import { useCallback, useEffect, useRef, useState } from 'react';
import { navigate, useRoute } from '../../router.js';
import { ApiError } from '../../api/client.js';
import { memoryApi, memoryHref, refKey, type MemoryDoc, type MemoryEntry, type MemoryVersion } from '../../api/memory.js';
import { useI18n, type T } from '../../i18n/index.js';
import { useSession } from '../../session.js';
import { authorLabel, errorText, formatDate } from '../../format.js';
import { LoadState } from '../../components/load-state.js';
import { useLiveList } from '../../live-changes.js';
import { loadDraft, useDraft, type Draft } from '../../drafts.js';
import { ConflictResolver, type ConflictChoice } from '../../components/conflict-resolver.js';
import { GridHead } from '../../components/grid-head.js';

/** The list label of a memory file in the UI language ("SOUL.md of Researcher" → "SOUL.md — Researcher"). */
function entryLabel(e: MemoryEntry, t: T): string {
  if (e.file === 'AGENTS.md') return t('memory.agentsMd');
  const prefix = `${e.file} of `;
  const name = e.title.startsWith(prefix) ? e.title.slice(prefix.length) : (e.agent ?? e.conversation ?? e.title);
  return t(e.file === 'SOUL.md' ? 'memory.soulMd' : 'memory.memoryMd', { name });
}

/**
 * Settings → Memory (M2–M4): choose a file, edit, Save (read-only where you may not edit), History with
 * author and time, "Show" an earlier version, and the conflict message when someone saved since you opened it.
 *
 * @example
 * {route.page === 'memory' && <MemoryPage />}
 */
export function MemoryPage() {
  const { t, lang } = useI18n();
  const { project } = useSession();
  // The open file is the URL (a deep link opens it, Back returns to the file before, a reload stays).
  const route = useRoute();
  const wanted = route.page === 'memory' ? route.rest : '';
  const [entries, setEntries] = useState<MemoryEntry[] | null>(null);
  const [selected, setSelected] = useState<MemoryEntry | null>(null);
  const [doc, setDoc] = useState<MemoryDoc | null>(null);
  const [text, setText] = useState('');
  const [history, setHistory] = useState<MemoryVersion[]>([]);
  const [shown, setShown] = useState<MemoryDoc | null>(null);
  // A refused save (M4): their file and the text this editing started from, for the merge.
  const [conflict, setConflict] = useState<{ theirs: MemoryDoc; base: string | null; baseVersion: number } | null>(null);
  const [notice, setNotice] = useState<{ kind: 'error' | 'info'; text: string } | null>(null);
  // The version the text on screen was edited from: a restored draft keeps its own, so a save after someone
  // else's is refused instead of overwriting it.
  const [base, setBase] = useState(0);
  const [restored, setRestored] = useState<Draft | null>(null);
  const draftKey = selected ? `memory:${project.id}:${refKey(selected)}` : null;
  const draft = useDraft(draftKey, doc && doc.editable && text !== doc.content ? { text, base } : null);

  // The list of files failed to load: shown in its place with a Retry, which asks again (listAttempt).
  const [listError, setListError] = useState<string | null>(null);
  const [listAttempt, setListAttempt] = useState(0);
  useEffect(() => {
    setListError(null);
    memoryApi.list(project.id).then(setEntries, (e) => setListError(errorText(e, t)));
  }, [project.id, t, listAttempt]);

  const open = useCallback(
    async (e: MemoryEntry) => {
      setSelected(e);
      setShown(null);
      setNotice(null);
      try {
        const [d, h] = await Promise.all([memoryApi.get(project.id, e), memoryApi.history(project.id, e)]);
        // The conflict message stays until the current text is on screen, so it never shows the stale text unflagged.
        setConflict(null);
        setDoc(d);
        const kept = loadDraft(`memory:${project.id}:${refKey(e)}`);
        const useKept = d.editable && kept !== null && kept.text !== d.content;
        setText(useKept ? kept.text : d.content);
        setBase(useKept ? kept.base : d.version);
        setRestored(useKept ? kept : null);
        setHistory(h);
      } catch (err) {
        setNotice({ kind: 'error', text: errorText(err, t) });
      }
    },
    [project.id, t],
  );

  // Opens the file of the URL once the list is there, and again only when the URL changes: the live list below
  // replaces `entries` every few seconds, which must not reopen the file over the text being edited.
  const entriesRef = useRef(entries);
  entriesRef.current = entries;
  const listLoaded = entries !== null;
  useEffect(() => {
    const entries = entriesRef.current;
    if (!entries) return;
    if (!wanted) {
      setSelected(null);
      setDoc(null);
      return;
    }
    const e = entries.find((x) => memoryHref(x).slice('/memory/'.length) === wanted.split('/').map(encodeURIComponent).join('/'));
    if (e) void open(e);
    else setNotice({ kind: 'error', text: t('error.not_found') });
  }, [listLoaded, wanted, open, t]);

  // Someone else's save (a colleague, an agent) shows without a reload (B7): the open file is fetched again when
  // its text here is untouched; an edited text stays and a notice says a newer version exists (the save then
  // offers the merge).
  useLiveList(project.id, () => memoryApi.list(project.id), setEntries);
  const listed = selected && entries?.find((x) => refKey(x) === refKey(selected));
  const behind = !!(doc && listed && listed.version > doc.version);
  const edited = !!doc && (text !== doc.content || restored !== null);
  useEffect(() => {
    if (!behind || edited || !selected) return;
    let gone = false;
    memoryApi.get(project.id, selected).then(
      (d) => {
        if (gone) return;
        setDoc(d);
        setText(d.content);
        setBase(d.version);
        memoryApi.history(project.id, selected).then(
          (h) => !gone && setHistory(h),
          () => undefined,
        );
      },
      () => undefined,
    );
    return () => {
      gone = true;
    };
  }, [behind, edited, selected, project.id]);

  const save = async (body = text, from = base) => {
    if (!selected || !doc) return;
    try {
      const d = await memoryApi.set(project.id, selected, body, from);
      draft.discard();
      setRestored(null);
      setBase(d.version);
      setDoc(d);
      setText(d.content);
      setConflict(null);
      setNotice({ kind: 'info', text: `${t('common.saved')} — ${t('memory.version', { v: d.version })}` });
      setHistory(await memoryApi.history(project.id, selected));
    } catch (err) {
      if (err instanceof ApiError && err.code === 'memory_version_conflict') {
        draft.keep();
        try {
          const [theirs, started] = await Promise.all([
            memoryApi.get(project.id, selected),
            from > 0
              ? memoryApi.show(project.id, selected, from).then(
                  (v) => v.content,
                  () => null,
                )
              : Promise.resolve(null),
          ]);
          setConflict({ theirs, base: started, baseVersion: from });
        } catch (e2) {
          setNotice({ kind: 'error', text: errorText(e2, t) });
        }
      } else setNotice({ kind: 'error', text: errorText(err, t) });
    }
  };
  const resolve = (c: ConflictChoice) => {
    const theirs = conflict!.theirs;
    setConflict(null);
    if (c.kind === 'theirs') {
      draft.discard();
      setRestored(null);
      setDoc(theirs);
      setText(theirs.content);
      setBase(theirs.version);
      if (selected) memoryApi.history(project.id, selected).then(setHistory, () => undefined);
      return;
    }
    setText(c.text);
    setBase(theirs.version);
    void save(c.text, theirs.version);
  };

  const show = async (v: number) => {
    if (!selected) return;
    try {
      setShown(await memoryApi.show(project.id, selected, v));
    } catch (err) {
      setNotice({ kind: 'error', text: errorText(err, t) });
    }
  };

  // Restore (M3): the version's text becomes the newest version on the server, refused like a save when someone
  // saved after the version on screen; the editor then shows the file as it is now.
  const restore = async (v: number) => {
    if (!selected || !doc) return;
    try {
      const d = await memoryApi.restore(project.id, selected, v, doc.version);
      draft.discard();
      setRestored(null);
      setShown(null);
      setDoc(d);
      setText(d.content);
      setBase(d.version);
      setNotice({ kind: 'info', text: t('memory.restoredAs', { v, n: d.version }) });
    } catch (err) {
      setNotice({ kind: 'error', text: errorText(err, t) });
      if (!(err instanceof ApiError && err.code === 'memory_version_conflict')) return;
      const now = await memoryApi.get(project.id, selected).catch(() => null);
      if (now && !edited) {
        setDoc(now);
        setText(now.content);
        setBase(now.version);
      }
    }
    memoryApi.history(project.id, selected).then(setHistory, () => undefined);
  };

  return (
    <div className="memory-page">
      <h1>
        {t('nav.settings')} → {t('memory.title')}
      </h1>
      <div className="two-col">
        <nav className="side" aria-label={t('memory.files')}>
          <h2>{t('memory.files')}</h2>
          {entries === null ? (
            <LoadState error={listError} onRetry={() => setListAttempt((n) => n + 1)} lines={3} />
          ) : (
            <ul>
              {entries.map((e) => (
                <li key={refKey(e)}>
                  <a
                    href={memoryHref(e)}
                    className={selected && refKey(selected) === refKey(e) ? 'active' : ''}
                    aria-current={selected && refKey(selected) === refKey(e) ? 'page' : undefined}
                    onClick={(ev) => {
                      ev.preventDefault();
                      navigate(memoryHref(e));
                    }}
                  >
                    {entryLabel(e, t)} {!e.editable && <small className="muted">({t('common.readOnly')})</small>}
                  </a>
                </li>
              ))}
            </ul>
          )}
        </nav>
        <section className="content">
          {notice && (
            <p className={`notice ${notice.kind}`} role={notice.kind === 'error' ? 'alert' : 'status'}>
              {notice.text}
            </p>
          )}
          {!selected && <p className="hint">{t('memory.choose')}</p>}
          {selected && doc && (
            <div className="form">
              <div className="row">
                <h2>{entryLabel(selected, t)}</h2>
                {/* During a conflict the version saved now is theirs: the same number the conflict view names. */}
                <span className="muted">{t('memory.version', { v: conflict ? conflict.theirs.version : doc.version })}</span>
              </div>
              {conflict && (
                <ConflictResolver
                  key={conflict.theirs.version}
                  base={conflict.base}
                  baseVersion={conflict.baseVersion}
                  mine={text}
                  theirs={conflict.theirs.content}
                  theirsVersion={conflict.theirs.version}
                  theirsBy={authorLabel(t, conflict.theirs.author)}
                  onResolve={resolve}
                />
              )}
              {behind && edited && !conflict && (
                <p className="notice warn" role="status">
                  {t('live.newerMemory')}
                </p>
              )}
              {restored && !conflict && (
                <p className="notice warn" role="status">
                  {t(base < doc.version ? 'draft.stale' : 'draft.restored', { time: formatDate(restored.savedAt, lang), v: doc.version })}{' '}
                  {base < doc.version && (
                    <button className="link" onClick={() => setBase(doc.version)}>
                      {t('draft.keepMine')}
                    </button>
                  )}{' '}
                  <button
                    className="link"
                    onClick={() => {
                      draft.discard();
                      setRestored(null);
                      setText(doc.content);
                      setBase(doc.version);
                    }}
                  >
                    {t('draft.discard')}
                  </button>
                </p>
              )}
              {shown ? (
                <>
                  <p className="notice warn">
                    {t('memory.viewing', { v: shown.version })}{' '}
                    <button className="link" onClick={() => setShown(null)}>
                      {t('memory.backToCurrent')}
                    </button>
                  </p>
                  <pre className="preview-text memory-shown">{shown.content}</pre>
                </>
              ) : (
                <>
                  {!doc.editable && <p className="hint">{t('memory.noEdit')}</p>}
                  <textarea
                    aria-label={selected.file}
                    rows={18}
                    value={text}
                    readOnly={!doc.editable}
                    onChange={(e) => {
                      // In the draft before the handler returns: a tab closed right after a keystroke keeps it.
                      draft.write(e.target.value !== doc.content ? { text: e.target.value, base } : null);
                      setText(e.target.value);
                    }}
                  />
                  {/* While a conflict is shown, its Save is the only one: two would save different texts. */}
                  {!conflict && (
                    <div className="row">
                      <button data-save disabled={!doc.editable || text === doc.content} onClick={() => void save()}>
                        {t('common.save')}
                      </button>
                    </div>
                  )}
                </>
              )}
              <h3>{t('memory.history')}</h3>
              <table className="grid history">
                <GridHead columns={[t('preview.version'), t('preview.author'), t('audit.at')]} />
                <tbody>
                  {history.map((v) => (
                    <tr key={v.version} data-version={v.version}>
                      <td>v{v.version}</td>
                      <td>{authorLabel(t, v.author)}</td>
                      <td>{v.modified ? formatDate(v.modified, lang) : '—'}</td>
                      <td>
                        <button className="link" onClick={() => void show(v.version)}>
                          {t('common.show')}
                        </button>
                        {doc.editable && v.version !== doc.version && (
                          <button
                            className="link"
                            disabled={edited}
                            title={edited ? t('memory.restoreEdited') : undefined}
                            onClick={() => void restore(v.version)}
                          >
                            {t('preview.restore')}
                          </button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      </div>
    </div>
  );
}
