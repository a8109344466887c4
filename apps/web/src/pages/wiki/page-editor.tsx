import { useEffect, useState } from 'react';
import { agentsApi, type Conversation } from '../../api/agents.js';
import { ApiError } from '../../api/client.js';
import { wikiApi, wikiHref, type WikiPageData } from '../../api/wiki.js';
import { Markdown } from './markdown.js';
import { ProjectImage } from './project-image.js';
import { MarkdownField } from './markdown-field.js';
import { useI18n } from '../../i18n/index.js';
import { useSession } from '../../session.js';
import { errorText, formatDate } from '../../format.js';
import { loadDraft, useDraft } from '../../drafts.js';
import { ConflictResolver, type ConflictChoice } from '../../components/conflict-resolver.js';

/**
 * New page (W3: Path, Title, Text, Who sees this) or edit of an existing one. Edits send the version they
 * started from, so a save after someone else's is refused (version_conflict) instead of overwriting it. Unsaved
 * text is kept as a draft in this browser (and closing the tab asks first) until it is saved or cancelled.
 *
 * @example
 * <PageEditor initialPath="handbook/new" onSaved={open} onCancel={close} />
 */
export function PageEditor(props: { page?: WikiPageData; initialPath?: string; onSaved: (path: string) => void; onCancel: () => void }) {
  const { t, lang } = useI18n();
  const { project } = useSession();
  const existing = props.page;
  const draftKey = `wiki:${project.id}:${existing?.path ?? 'new'}`;
  // Unsaved text from an earlier visit (a closed tab, a crash, a click elsewhere) comes back until saved or discarded.
  const [restored, setRestored] = useState(() => {
    const d = loadDraft(draftKey);
    return d && (d.text !== (existing?.text ?? '') || (d.title ?? '') !== (existing?.title ?? '')) ? d : null;
  });
  const [path, setPath] = useState(restored?.path ?? existing?.path ?? props.initialPath ?? '');
  const [title, setTitle] = useState(restored?.title ?? existing?.title ?? '');
  const [text, setText] = useState(restored?.text ?? existing?.text ?? '');
  const [base, setBase] = useState(restored?.base ?? existing?.version ?? 0);
  const stale = !!existing && base < existing.version;
  const unsaved = (v: { text: string; title: string; path: string }) =>
    v.text !== (existing?.text ?? '') || v.title !== (existing?.title ?? '')
      ? { text: v.text, title: v.title, base, ...(existing ? {} : { path: v.path }) }
      : null;
  const draft = useDraft(draftKey, unsaved({ text, title, path }));
  // Each keystroke is in the draft before its handler returns (a tab closed right after it keeps it).
  const edit = (change: Partial<{ text: string; title: string; path: string }>) => {
    const next = { text, title, path, ...change };
    draft.write(unsaved(next));
    if (change.text !== undefined) setText(change.text);
    if (change.title !== undefined) setTitle(change.title);
    if (change.path !== undefined) setPath(change.path);
  };
  const discard = () => {
    draft.discard();
    setRestored(null);
    setBase(existing?.version ?? 0);
    setText(existing?.text ?? '');
    setTitle(existing?.title ?? '');
  };
  const [channel, setChannel] = useState<string>(existing?.channel ?? '');
  const [channels, setChannels] = useState<Conversation[]>([]);
  const [error, setError] = useState<string | null>(null);
  // A refused save (someone saved since): their page and the text this editing started from, for the merge.
  const [conflict, setConflict] = useState<{ theirs: WikiPageData; base: string | null; baseVersion: number } | null>(null);

  useEffect(() => {
    agentsApi.conversations(project.id).then(
      (c) => setChannels(c.filter((x) => x.kind === 'channel')),
      () => setChannels([]),
    );
  }, [project.id]);

  const put = async (body: string, from: number) => {
    setError(null);
    try {
      const r = await wikiApi.put(project.id, {
        path: path.trim(),
        text: body,
        title: title.trim(),
        base: existing ? from : 0,
        channel: channel || null,
      });
      draft.discard();
      props.onSaved(r.path);
    } catch (err) {
      if (existing && err instanceof ApiError && err.code === 'version_conflict') {
        draft.keep();
        try {
          const [theirs, started] = await Promise.all([
            wikiApi.get(project.id, existing.path),
            from > 0
              ? wikiApi.version(project.id, existing.path, from).then(
                  (v) => v.text,
                  () => null,
                )
              : Promise.resolve(''),
          ]);
          setConflict({ theirs, base: started, baseVersion: from });
        } catch (e2) {
          setError(errorText(e2, t));
        }
      } else setError(errorText(err, t));
    }
  };
  const save = (e: React.FormEvent) => {
    e.preventDefault();
    // Enter in a field while a conflict is shown: only the conflict's Save saves.
    if (!conflict) void put(text, base);
  };
  const resolve = (c: ConflictChoice) => {
    const theirs = conflict!.theirs;
    setConflict(null);
    if (c.kind === 'theirs') {
      // Their text wins: the draft goes, and the page is shown as it is now.
      draft.discard();
      props.onSaved(theirs.path);
      return;
    }
    setText(c.text);
    setBase(theirs.version);
    void put(c.text, theirs.version);
  };

  return (
    <form className="form wiki-editor" onSubmit={save}>
      <h1>{existing ? `${t('common.edit')}: ${existing.title}` : t('wiki.newPage')}</h1>
      {conflict && (
        <ConflictResolver
          key={conflict.theirs.version}
          base={conflict.base}
          baseVersion={conflict.baseVersion}
          mine={text}
          theirs={conflict.theirs.text}
          theirsVersion={conflict.theirs.version}
          theirsBy={conflict.theirs.updatedBy}
          onResolve={resolve}
        />
      )}
      {error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      {restored && (
        <p className="notice warn" role="status">
          {t(stale ? 'draft.stale' : 'draft.restored', { time: formatDate(restored.savedAt, lang), v: existing?.version ?? 0 })}{' '}
          {stale && existing && (
            <button type="button" className="link" onClick={() => setBase(existing.version)}>
              {t('draft.keepMine')}
            </button>
          )}{' '}
          <button type="button" className="link" onClick={discard}>
            {t('draft.discard')}
          </button>
        </p>
      )}
      <label>
        {t('wiki.path')}{' '}
        <input value={path} readOnly={!!existing} onChange={(e) => edit({ path: e.target.value })} placeholder="handbook/onboarding" required />
      </label>
      <label>
        {t('wiki.pageTitle')} <input value={title} onChange={(e) => edit({ title: e.target.value })} placeholder={t('wiki.titleHint')} />
      </label>
      <div className="editor-split">
        <MarkdownField value={text} onChange={(v) => edit({ text: v })} project={project.id} pagePath={path} />
        {/* What readers will see, as it is typed (links here only show where they lead). */}
        <section className="editor-preview" aria-label={t('wiki.preview')}>
          <Markdown
            text={text}
            link={(p, label, _heading, key) => (
              <a key={key} href={wikiHref(p)} className="wiki-link" onClick={(e) => e.preventDefault()}>
                {label}
              </a>
            )}
            image={(p, alt, key) => <ProjectImage key={key} project={project.id} path={p} alt={alt} />}
          />
        </section>
      </div>
      <label>
        {t('wiki.visibility')}
        <select value={channel} onChange={(e) => setChannel(e.target.value)}>
          <option value="">{t('wiki.workspace')}</option>
          {channels.map((c) => (
            <option key={c.id} value={c.id}>
              {t('wiki.channel', { name: `#${c.name ?? c.id}` })}
            </option>
          ))}
        </select>
      </label>
      <div className="row">
        {/* While a conflict is shown, its Save is the only one: two would save different texts. */}
        {!conflict && (
          <button type="submit" disabled={!path.trim()}>
            {t('wiki.savePage')}
          </button>
        )}
        <button
          type="button"
          onClick={() => {
            // Cancel throws the changes away on purpose: no draft is kept.
            draft.discard();
            props.onCancel();
          }}
        >
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
