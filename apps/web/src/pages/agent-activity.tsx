import { useCallback, useEffect, useRef, useState } from 'react';
import { agentsApi, type Agent, type Conversation, type TokenInfo, type TraceEntry } from '../api/agents.js';
import { useI18n } from '../i18n/index.js';
import { useSession } from '../session.js';
import { errorText, formatDate } from '../format.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { useFocusTrap } from '../components/focus-trap.js';
import { navigate } from '../router.js';
import { LoadState } from '../components/load-state.js';
import { ConversationUndo } from './conversation-undo.js';

const fileHref = (path: string) => `/files/${path.split('/').map(encodeURIComponent).join('/')}`;

/** The new token, shown once: the server keeps only its hash, so closing this dialog loses it for good. */
function NewTokenDialog({ token, onClose }: { token: string; onClose: () => void }) {
  const { t } = useI18n();
  const box = useRef<HTMLDivElement>(null);
  const [copied, setCopied] = useState(false);
  useFocusTrap(box, onClose);
  const copy = () =>
    navigator.clipboard?.writeText(token).then(
      () => setCopied(true),
      () => undefined,
    );
  return (
    <div className="modal-back">
      <div ref={box} className="modal token-dialog" role="dialog" aria-modal="true" aria-labelledby="new-token-title">
        <h2 id="new-token-title">{t('agents.tokenCreated')}</h2>
        <p className="notice warn">{t('agents.tokenOnce')}</p>
        <code className="token-value" data-token>
          {token}
        </code>
        <div className="modal-actions">
          <button onClick={() => void copy()}>{copied ? t('agents.copied') : t('agents.copyToken')}</button>
          <button onClick={onClose}>{t('common.close')}</button>
        </div>
      </div>
    </div>
  );
}

/** An agent's tokens (A7): list, create with live or published settings, revoke. The server decides who may. */
export function AgentTokens({ agent, canManage }: { agent: Agent; canManage: boolean }) {
  const { project } = useSession();
  const { lang, t } = useI18n();
  const [tokens, setTokens] = useState<TokenInfo[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fresh, setFresh] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<TokenInfo | null>(null);
  const [published, setPublished] = useState(false);
  const fail = useCallback((e: unknown) => setError(errorText(e, t)), [t]);
  const load = useCallback(() => {
    agentsApi.tokens(project.id, agent.id).then((l) => {
      setTokens(l);
      setError(null);
    }, fail);
  }, [project.id, agent.id, fail]);
  useEffect(load, [load]);
  const create = async () => {
    try {
      const r = await agentsApi.createToken(project.id, agent.id, published);
      setFresh(r.token);
      load();
    } catch (e) {
      fail(e);
    }
  };
  const revoke = async (id: string) => {
    setRevoking(null);
    try {
      await agentsApi.revokeToken(project.id, id);
      load();
    } catch (e) {
      fail(e);
    }
  };
  if (!canManage) return null;
  return (
    <section className="card agent-tokens" aria-labelledby="agent-tokens-title">
      <h3 id="agent-tokens-title">{t('agents.tokens')}</h3>
      {error && tokens !== null && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      <div className="row">
        <label>
          {t('agents.tokenSettings')}{' '}
          <select value={published ? 'published' : 'live'} onChange={(e) => setPublished(e.target.value === 'published')}>
            <option value="live">{t('agents.live')}</option>
            <option value="published" disabled={!agent.published}>
              {t('agents.frozen')}
            </option>
          </select>
        </label>
        <button onClick={() => void create()}>{t('agents.newToken')}</button>
      </div>
      {tokens === null ? (
        <LoadState error={error} onRetry={load} lines={2} />
      ) : tokens.length === 0 ? (
        <p className="empty">{t('agents.noTokens')}</p>
      ) : (
        <ul className="agent-token-list">
          {tokens.map((k) => (
            <li key={k.id} data-token-id={k.id}>
              <code>{k.id}</code> {k.name ?? ''} <span className="muted">{formatDate(k.createdAt, lang)}</span>{' '}
              {k.revokedAt ? (
                <span className="muted">{t('agents.revoked')}</span>
              ) : (
                <button className="link danger" onClick={() => setRevoking(k)}>
                  {t('agents.revoke')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {fresh && <NewTokenDialog token={fresh} onClose={() => setFresh(null)} />}
      {revoking && (
        <ConfirmDialog
          message={t('agents.revokeConfirm', { id: revoking.id })}
          confirmLabel={t('agents.revoke')}
          onConfirm={() => void revoke(revoking.id)}
          onCancel={() => setRevoking(null)}
        />
      )}
    </section>
  );
}

/**
 * The agent's file settings when it made a call, as seed 000 shows them in the trace's agent configuration:
 * "Project files" with "Enabled", and the chosen write and read scopes.
 */
function FileSettings({ s }: { s: TraceEntry['fileSettings'] | null }) {
  const { t } = useI18n();
  if (!s) return null;
  const scope = (v: 'own' | 'project') => t(v === 'own' ? 'agents.own' : 'agents.project');
  return (
    <ul className="file-settings">
      <li>
        {t('agents.projectFiles')}: {t(s.files === 'on' ? 'agents.enabled' : 'agents.disabled')}
      </li>
      {s.files === 'on' && (
        <>
          <li>
            {t('agents.write')}: {scope(s.write)}
          </li>
          <li>
            {t('agents.read')}: {scope(s.read)}
          </li>
        </>
      )}
    </ul>
  );
}

/** One conversation's trace, a page at a time (the server's `after` cursor). */
function Trace({ conversation }: { conversation: string }) {
  const { project } = useSession();
  const { lang, t } = useI18n();
  const [entries, setEntries] = useState<TraceEntry[]>([]);
  const [next, setNext] = useState<string | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const more = useCallback(
    (after?: string) => {
      setError(null);
      return agentsApi.trace(project.id, conversation, after).then(
        (r) => {
          setEntries((l) => (after ? [...l, ...r.entries] : r.entries));
          setNext(r.nextCursor);
        },
        (e: unknown) => setError(errorText(e, t)),
      );
    },
    [project.id, conversation, t],
  );
  useEffect(() => {
    void more();
  }, [more]);
  if (next === undefined) return <LoadState error={error} onRetry={() => void more()} lines={3} />;
  if (error)
    return (
      <p className="notice error" role="alert">
        {error} <button onClick={() => void more(next ?? undefined)}>{t('load.retry')}</button>
      </p>
    );
  if (entries.length === 0) return <p className="empty">{t('agents.noCalls')}</p>;
  return (
    <div className="table-scroll">
      <table className="grid trace">
        <thead>
          <tr>
            <th>{t('agents.at')}</th>
            <th>{t('agents.tool')}</th>
            <th>{t('agents.args')}</th>
            <th>{t('agents.result')}</th>
            <th>{t('agents.file')}</th>
            <th>{t('agents.config')}</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr key={e.id} className={e.refused ? 'refused' : ''}>
              <td>{formatDate(e.at, lang)}</td>
              <td>
                <code>{e.tool}</code>
              </td>
              <td>
                <code>{e.args}</code>
              </td>
              <td>
                {e.refused && <strong>{t('agents.refused')} </strong>}
                {e.result}
              </td>
              <td>
                {e.path && (
                  <a
                    href={fileHref(e.path)}
                    onClick={(ev) => {
                      ev.preventDefault();
                      navigate(fileHref(e.path!));
                    }}
                  >
                    {e.path}
                    {e.version !== null && ` v${e.version}`}
                  </a>
                )}
              </td>
              <td data-file-settings>
                <FileSettings s={e.fileSettings ?? null} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {next && (
        <button className="link" onClick={() => void more(next)}>
          {t('agents.moreCalls')}
        </button>
      )}
    </div>
  );
}

/** The conversations the agent took part in, with the changes it made in each against the limit (A4). */
export function AgentConversations({ agent }: { agent: Agent }) {
  const { project, canEdit } = useSession();
  const { lang, t } = useI18n();
  const [convs, setConvs] = useState<Conversation[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [review, setReview] = useState<string | null>(null);
  const [started, setStarted] = useState<string | null>(null);
  const load = useCallback(() => {
    setError(null);
    agentsApi.conversations(project.id, agent.id).then(setConvs, (e: unknown) => setError(errorText(e, t)));
  }, [project.id, agent.id, t]);
  useEffect(load, [load]);
  const total = convs?.reduce((n, c) => n + (c.writes?.used ?? 0), 0) ?? 0;
  // A dialog started here is what a program acting as the agent names (`stoa mcp --agent … --conversation …`),
  // so its limits and its changes count in it, and it can be reviewed and undone on this page.
  const start = () => {
    setError(null);
    agentsApi.startDialog(project.id, agent.id).then(
      (c) => {
        setStarted(c.id);
        load();
      },
      (e: unknown) => setError(errorText(e, t)),
    );
  };
  return (
    <section className="card agent-conversations" aria-labelledby="agent-convs-title">
      <h3 id="agent-convs-title">{t('agents.conversations')}</h3>
      {canEdit && (
        <p>
          <button type="button" onClick={start}>
            {t('agents.startDialog')}
          </button>
        </p>
      )}
      {started && (
        <p className="notice" role="status" data-started={started}>
          {t('agents.dialogStarted', { id: started })} <code>{`stoa mcp --agent ${agent.id} --conversation ${started}`}</code>
        </p>
      )}
      {error && convs !== null && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {convs === null ? (
        <LoadState error={error} onRetry={load} lines={3} />
      ) : convs.length === 0 ? (
        <p className="empty">{t('agents.noConversations')}</p>
      ) : (
        <>
          <p data-writes-total>{t('agents.writesTotal', { n: total })}</p>
          <ul className="agent-conv-list">
            {convs.map((c) => (
              <li key={c.id} data-conversation={c.id}>
                <button className="link" aria-expanded={open === c.id} onClick={() => setOpen(open === c.id ? null : c.id)}>
                  {c.name ? `#${c.name}` : c.members.map((m) => m.name).join(', ')}
                </button>{' '}
                <span className="muted">{formatDate(c.created, lang)}</span> <code className="muted">{c.id}</code>{' '}
                {c.writes && (
                  <span data-writes>
                    {t('agents.writesUsed', { used: c.writes.used, max: c.writes.max })}
                    {c.writes.resetsAt && ` · ${t('agents.writesReset', { at: formatDate(c.writes.resetsAt, lang) })}`}
                  </span>
                )}
                {/* Reviewing and undoing are for editors and admins (B11); the server refuses viewers anyway. */}
                {canEdit && (
                  <button className="link" aria-expanded={review === c.id} onClick={() => setReview(review === c.id ? null : c.id)}>
                    {t('undo.review')}
                  </button>
                )}
                {open === c.id && <Trace conversation={c.id} />}
                {review === c.id && <ConversationUndo conversation={c.id} />}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
