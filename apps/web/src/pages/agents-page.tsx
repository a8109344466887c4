import { useCallback, useEffect, useRef, useState } from 'react';
import { agentsApi, type Agent, type AgentSettings } from '../api/agents.js';
import { LoadState } from '../components/load-state.js';
import { useI18n } from '../i18n/index.js';
import { useSession } from '../session.js';
import { errorText, formatDate } from '../format.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { navigate, useRoute } from '../router.js';
import { memoryHref } from '../api/memory.js';
import { ApiError } from '../api/client.js';
import { AgentConversations, AgentTokens } from './agent-activity.js';
import { AgentGrants } from './agent-grants.js';

const agentHref = (id: string) => `/agents/${encodeURIComponent(id)}`;
function go(e: React.MouseEvent, to: string) {
  e.preventDefault();
  navigate(to);
}

/**
 * The "Project files" section of an agent's page (seed 000, A1–A2): the "File access" switch, where the agent
 * writes and what it reads, saved on change, with the source's caution when it may write to the whole project.
 */
function ProjectFilesSection(props: { agent: Agent; canManage: boolean; onSaved: (a: Agent) => void; onError: (e: unknown) => void }) {
  const { project } = useSession();
  const { t } = useI18n();
  const { agent, canManage } = props;
  const [busy, setBusy] = useState(false);
  const on = agent.files === 'on';
  const save = (s: AgentSettings) => {
    setBusy(true);
    agentsApi
      .update(project.id, agent.id, { files: s.files, write: s.write, read: s.read })
      .then(props.onSaved, props.onError)
      .finally(() => setBusy(false));
  };
  const choice = (name: 'write' | 'read', options: Array<'own' | 'project'>) => (
    <fieldset className="scope-choice" disabled={!canManage || !on || busy}>
      <legend>{t(name === 'write' ? 'agents.write' : 'agents.read')}</legend>
      {options.map((o) => (
        <label key={o}>
          <input type="radio" name={`${agent.id}-${name}`} value={o} checked={agent[name] === o} onChange={() => save({ ...agent, [name]: o })} />{' '}
          {t(o === 'own' ? 'agents.own' : 'agents.project')}
        </label>
      ))}
    </fieldset>
  );
  return (
    <details className="project-files" data-project-files>
      <summary>{t('agents.projectFiles')}</summary>
      <label className="switch">
        <input
          type="checkbox"
          role="switch"
          checked={on}
          aria-checked={on}
          disabled={!canManage || busy}
          onChange={(e) => save({ ...agent, files: e.target.checked ? 'on' : 'off' })}
        />{' '}
        {t('agents.fileAccess')}
      </label>
      {choice('write', ['own', 'project'])}
      {choice('read', ['project', 'own'])}
      {on && agent.write === 'project' && agent.read === 'project' && (
        <p className="notice warn" role="note" data-caution>
          {t('agents.wholeProjectCaution')}
        </p>
      )}
      {on && agent.write === 'project' && agent.read === 'own' && <p className="muted">{t('agents.writeLimited')}</p>}
    </details>
  );
}

/** One agent in full, above the list: what /agents/<ID> opens (a deep link, Back and reload keep it). */
function AgentDetail({ agent, canManage, onSaved, onError }: { agent: Agent; canManage: boolean; onSaved: (a: Agent) => void; onError: (e: unknown) => void }) {
  const { lang, t } = useI18n();
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    // Braces, not an arrow's value: Chromium's scrollIntoView may return a promise, which React would take for a cleanup.
    ref.current?.scrollIntoView({ block: 'nearest' });
  }, [agent.id]);
  const folder = `/files/${agent.folder.replace(/\/$/, '').split('/').map(encodeURIComponent).join('/')}`;
  return (
    <section ref={ref} className="card agent-detail" aria-labelledby="agent-detail-name">
      <div className="row">
        <h2 id="agent-detail-name">{agent.name}</h2>
        <code>{agent.id}</code>
        <span className="spacer" />
        <a href="/agents" onClick={(e) => go(e, '/agents')}>
          {t('agents.all')}
        </a>
      </div>
      <p className="agent-instructions">{agent.instructions || '—'}</p>
      <p className="row">
        <a href={folder} onClick={(e) => go(e, folder)}>
          {t('agents.openFolder')}
        </a>
        <a href={memoryHref({ file: 'SOUL.md', agent: agent.id })} onClick={(e) => go(e, memoryHref({ file: 'SOUL.md', agent: agent.id }))}>
          {t('agents.openSoul')}
        </a>
      </p>
      <ProjectFilesSection agent={agent} canManage={canManage} onSaved={onSaved} onError={onError} />
      <p className="agent-publication" data-publication>
        {agent.published ? t('agents.frozenSettings', { at: formatDate(agent.published.at, lang) }) : t('agents.notPublished')}
      </p>
      <AgentTokens agent={agent} canManage={canManage} />
      <AgentGrants agent={agent} canManage={canManage} />
      <AgentConversations agent={agent} />
    </section>
  );
}

/** The three file-access settings of A1, as selects. */
function AccessFields(props: { value: AgentSettings; disabled: boolean; onChange: (s: AgentSettings) => void }) {
  const { t } = useI18n();
  const v = props.value;
  return (
    <>
      <label>
        {t('agents.fileAccess')}
        <select disabled={props.disabled} value={v.files ?? 'off'} onChange={(e) => props.onChange({ ...v, files: e.target.value as 'on' | 'off' })}>
          <option value="on">{t('agents.on')}</option>
          <option value="off">{t('agents.off')}</option>
        </select>
      </label>
      <label>
        {t('agents.write')}
        <select disabled={props.disabled} value={v.write ?? 'own'} onChange={(e) => props.onChange({ ...v, write: e.target.value as 'own' | 'project' })}>
          <option value="own">{t('agents.own')}</option>
          <option value="project">{t('agents.project')}</option>
        </select>
      </label>
      <label>
        {t('agents.read')}
        <select disabled={props.disabled} value={v.read ?? 'project'} onChange={(e) => props.onChange({ ...v, read: e.target.value as 'project' | 'own' })}>
          <option value="project">{t('agents.project')}</option>
          <option value="own">{t('agents.own')}</option>
        </select>
      </label>
    </>
  );
}

/**
 * One agent row: ID to copy, its folder, its file-access settings (saved on change), and for those who manage it:
 * rename and instructions, publish, delete (its folder and files stay).
 */
function AgentRow({
  agent,
  current,
  canManage,
  onSaved,
  onDeleted,
  onError,
}: {
  agent: Agent;
  current: boolean;
  canManage: boolean;
  onSaved: (a: Agent) => void;
  onDeleted: (id: string) => void;
  onError: (e: unknown) => void;
}) {
  const { project } = useSession();
  const { lang, t } = useI18n();
  const [copied, setCopied] = useState(false);
  const [editing, setEditing] = useState<{ name: string; instructions: string } | null>(null);
  const [deleting, setDeleting] = useState(false);
  const saveEdit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!editing || !editing.name.trim()) return;
    try {
      onSaved(await agentsApi.update(project.id, agent.id, { name: editing.name.trim(), instructions: editing.instructions }));
      setEditing(null);
    } catch (err) {
      onError(err);
    }
  };
  const remove = async () => {
    setDeleting(false);
    try {
      await agentsApi.remove(project.id, agent.id);
      onDeleted(agent.id);
    } catch (err) {
      onError(err);
    }
  };
  const copy = () =>
    navigator.clipboard?.writeText(agent.id).then(
      () => setCopied(true),
      () => undefined,
    );
  const save = (s: AgentSettings) => agentsApi.update(project.id, agent.id, { files: s.files, write: s.write, read: s.read }).then(onSaved, onError);
  return (
    <tr data-agent={agent.id} className={current ? 'selected' : ''} aria-current={current ? 'true' : undefined}>
      <td>
        {editing ? (
          <form className="agent-edit" onSubmit={(e) => void saveEdit(e)}>
            <label>
              {t('agents.name')} <input value={editing.name} onChange={(e) => setEditing({ ...editing, name: e.target.value })} />
            </label>
            <label>
              {t('agents.instructions')}{' '}
              <textarea rows={4} value={editing.instructions} onChange={(e) => setEditing({ ...editing, instructions: e.target.value })} />
            </label>
            <div className="row">
              <button type="submit" disabled={!editing.name.trim()}>
                {t('common.save')}
              </button>
              <button type="button" onClick={() => setEditing(null)}>
                {t('common.cancel')}
              </button>
            </div>
          </form>
        ) : (
          <>
            <a className="agent-name" href={agentHref(agent.id)} onClick={(e) => go(e, agentHref(agent.id))}>
              {agent.name}
            </a>
            <div className="muted">{agent.instructions.slice(0, 120)}</div>
          </>
        )}
      </td>
      <td>
        <code>{agent.id}</code>{' '}
        <button className="link" onClick={() => void copy()}>
          {copied ? t('agents.copied') : t('agents.copyId')}
        </button>
      </td>
      <td>
        <code>{agent.folder}</code>
      </td>
      <td>
        <div className="access">
          <AccessFields value={agent} disabled={!canManage} onChange={(s) => void save(s)} />
        </div>
      </td>
      <td>{agent.published ? formatDate(agent.published.at, lang) : '—'}</td>
      <td className="actions">
        {canManage && !editing && (
          <>
            <button className="link" onClick={() => setEditing({ name: agent.name, instructions: agent.instructions })}>
              {t('common.edit')}
            </button>{' '}
            <button className="link" onClick={() => void agentsApi.publish(project.id, agent.id).then(onSaved, onError)}>
              {t('agents.publish')}
            </button>{' '}
            <button className="link danger" onClick={() => setDeleting(true)}>
              {t('common.delete')}
            </button>
          </>
        )}
        {deleting && (
          <ConfirmDialog
            message={t('agents.deleteConfirm', { name: agent.name, folder: agent.folder })}
            confirmLabel={t('common.delete')}
            onConfirm={() => void remove()}
            onCancel={() => setDeleting(false)}
          />
        )}
      </td>
    </tr>
  );
}

/**
 * Agents (§0, A1): the list with IDs and folders, creation, and the file-access settings.
 *
 * @example
 * {route.page === 'agents' && <AgentsPage />}
 */
export function AgentsPage() {
  const { t } = useI18n();
  const { project, canEdit, isAdmin, me } = useSession();
  const [agents, setAgents] = useState<Agent[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [draft, setDraft] = useState<AgentSettings & { name: string }>({ name: '', instructions: '', files: 'off', write: 'own', read: 'project' });
  // A duplicate name is the one already_exists an agent form can meet; say it in the form's words.
  const fail = useCallback((e: unknown) => setError(e instanceof ApiError && e.code === 'already_exists' ? t('agents.nameTaken') : errorText(e, t)), [t]);
  const [loadError, setLoadError] = useState<string | null>(null);
  // The open agent is the URL (/agents/<ID>).
  const route = useRoute();
  const openId = route.page === 'agents' && route.rest ? route.rest : null;
  const open = openId && agents ? (agents.find((a) => a.id === openId) ?? null) : null;

  const load = useCallback(() => {
    setLoadError(null);
    agentsApi.list(project.id).then(setAgents, (e: unknown) => setLoadError(errorText(e, t)));
  }, [project.id, t]);
  useEffect(load, [load]);

  const create = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!draft.name.trim()) return;
    try {
      const a = await agentsApi.create(project.id, { ...draft, name: draft.name.trim() });
      setAgents((l) => [...(l ?? []), a]);
      setDraft({ ...draft, name: '', instructions: '' });
      setError(null);
    } catch (err) {
      fail(err);
    }
  };

  return (
    <div className="agents-page">
      <h1>{t('agents.title')}</h1>
      {error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      {open && (
        <AgentDetail
          agent={open}
          canManage={isAdmin || (canEdit && open.ownerId === me.id)}
          onSaved={(n) => {
            setError(null);
            setAgents((l) => l!.map((x) => (x.id === n.id ? n : x)));
          }}
          onError={fail}
        />
      )}
      {openId && agents && !open && (
        <p className="notice error" role="alert">
          {t('error.not_found')}
        </p>
      )}
      <form className="card agent-form" onSubmit={create}>
        <label>
          {t('agents.name')} <input value={draft.name} disabled={!canEdit} onChange={(e) => setDraft({ ...draft, name: e.target.value })} />
        </label>
        <label>
          {t('agents.instructions')}{' '}
          <textarea rows={2} value={draft.instructions} disabled={!canEdit} onChange={(e) => setDraft({ ...draft, instructions: e.target.value })} />
        </label>
        <AccessFields value={draft} disabled={!canEdit} onChange={(s) => setDraft({ ...draft, ...s })} />
        <button type="submit" disabled={!canEdit || !draft.name.trim()}>
          {t('agents.create')}
        </button>
      </form>
      {agents === null ? (
        <LoadState error={loadError} onRetry={() => void load()} lines={3} />
      ) : agents.length === 0 ? (
        <p className="empty">{t('agents.none')}</p>
      ) : (
        <table className="grid agents">
          <thead>
            <tr>
              <th>{t('agents.name')}</th>
              <th>{t('agents.id')}</th>
              <th>{t('agents.folder')}</th>
              <th>{t('agents.fileAccess')}</th>
              <th>{t('agents.published')}</th>
              <th>
                <span className="sr-only">{t('agents.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {agents.map((a) => (
              <AgentRow
                key={a.id}
                agent={a}
                current={a.id === openId}
                canManage={isAdmin || (canEdit && a.ownerId === me.id)}
                onSaved={(n) => {
                  setError(null);
                  setAgents((l) => l!.map((x) => (x.id === n.id ? n : x)));
                }}
                onDeleted={(id) => setAgents((l) => l!.filter((x) => x.id !== id))}
                onError={fail}
              />
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
