import { useEffect, useState } from 'react';
import { agentsApi, type Conversation } from '../../api/agents.js';
import { ApiError } from '../../api/client.js';
import { wikiApi, type WikiPageData } from '../../api/wiki.js';
import { useI18n } from '../../i18n/index.js';
import { useSession } from '../../session.js';
import { errorText } from '../../format.js';

/**
 * New page (W3: Path, Title, Text, Who sees this) or edit of an existing one. Edits send the version they
 * started from, so a save after someone else's is refused (version_conflict) instead of overwriting it.
 *
 * @example
 * <PageEditor initialPath="handbook/new" onSaved={open} onCancel={close} />
 */
export function PageEditor(props: { page?: WikiPageData; initialPath?: string; onSaved: (path: string) => void; onCancel: () => void }) {
  const { t } = useI18n();
  const { project } = useSession();
  const existing = props.page;
  const [path, setPath] = useState(existing?.path ?? props.initialPath ?? '');
  const [title, setTitle] = useState(existing?.title ?? '');
  const [text, setText] = useState(existing?.text ?? '');
  const [channel, setChannel] = useState<string>(existing?.channel ?? '');
  const [channels, setChannels] = useState<Conversation[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [conflict, setConflict] = useState(false);

  useEffect(() => {
    agentsApi.conversations(project.id).then(
      (c) => setChannels(c.filter((x) => x.kind === 'channel')),
      () => setChannels([]),
    );
  }, [project.id]);

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      const r = await wikiApi.put(project.id, {
        path: path.trim(),
        text,
        title: title.trim(),
        base: existing ? existing.version : 0,
        channel: channel || null,
      });
      props.onSaved(r.path);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'version_conflict') setConflict(true);
      else setError(errorText(err, t));
    }
  };

  return (
    <form className="form wiki-editor" onSubmit={save}>
      <h2>{existing ? `${t('common.edit')}: ${existing.title}` : t('wiki.newPage')}</h2>
      {conflict && existing && (
        <p className="notice error" role="alert">
          {t('wiki.conflict')}{' '}
          <button type="button" onClick={() => props.onSaved(existing.path)}>
            {t('common.reload')}
          </button>
        </p>
      )}
      {error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      <label>
        {t('wiki.path')} <input value={path} readOnly={!!existing} onChange={(e) => setPath(e.target.value)} placeholder="handbook/onboarding" required />
      </label>
      <label>
        {t('wiki.pageTitle')} <input value={title} onChange={(e) => setTitle(e.target.value)} placeholder={t('wiki.titleHint')} />
      </label>
      <label>
        {t('wiki.text')} <textarea rows={16} value={text} onChange={(e) => setText(e.target.value)} />
      </label>
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
        <button type="submit" disabled={!path.trim()}>
          {t('common.save')}
        </button>
        <button type="button" onClick={props.onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
