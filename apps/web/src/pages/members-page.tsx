import { useCallback, useEffect, useState } from 'react';
import { filesApi, type Member } from '../api/files.js';
import { useI18n } from '../i18n/index.js';
import type { MessageKey } from '../i18n/en.js';
import { useSession } from '../session.js';
import { errorText, formatDate } from '../format.js';
import { LoadState } from '../components/load-state.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { DeleteProjectDialog } from '../components/delete-project-dialog.js';
import { LocksSection } from './locks-section.js';
import { InviteDialog } from '../components/invite-dialog.js';
import { CopyButton } from '../components/copy-button.js';
import { GridHead } from '../components/grid-head.js';

const roles: Array<Member['role']> = ['admin', 'editor', 'viewer'];

/**
 * Members and roles (§0): everyone sees the list; admins add people (created if new), change roles,
 * remove members, and create a member's API token (shown once) to sign in with; everyone sees the WebDAV locks,
 * which their holders and admins release (issue 26).
 *
 * @example
 * {route.page === 'members' && <MembersPage />}
 */
export function MembersPage() {
  const { t, lang } = useI18n();
  const { project, isAdmin, me } = useSession();
  const [deleting, setDeleting] = useState<'asking' | 'busy' | null>(null);
  const [members, setMembers] = useState<Member[] | null>(null);
  const [name, setName] = useState('');
  const [role, setRole] = useState<Member['role']>('editor');
  const [token, setToken] = useState<{ user: string; token: string } | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [inviting, setInviting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fail = useCallback((e: unknown) => setError(errorText(e, t)), [t]);
  const reload = useCallback(() => filesApi.members(project.id).then(setMembers, fail), [project.id, fail]);
  // The list failed to load: its Retry clears the error and asks again.
  const retry = () => {
    setError(null);
    void reload();
  };

  useEffect(() => {
    void reload();
  }, [reload]);

  const add = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return;
    try {
      await filesApi.addMember(project.id, name.trim(), role);
      setName('');
      setError(null);
      await reload();
    } catch (err) {
      fail(err);
    }
  };
  const change = (m: Member, r: Member['role']) => filesApi.addMember(project.id, m.name, r).then(reload, fail);
  const remove = async (m: Member) => {
    setRemoving(null);
    await filesApi.removeMember(project.id, m.userId).then(reload, fail);
  };
  const deleteProject = async (typed: string) => {
    setDeleting('busy');
    try {
      await filesApi.deleteProject(project.id, typed);
      // Everything of the project is gone: start again from the projects that remain.
      location.assign('/');
    } catch (err) {
      setDeleting(null);
      fail(err);
    }
  };
  const newToken = (m: Member) => filesApi.createToken(project.id, { user: m.name, name: 'web' }).then((r) => setToken({ user: m.name, token: r.token }), fail);

  return (
    <div className="members-page">
      <h1>{t('members.title')}</h1>
      {error && members !== null && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      {token && (
        <p className="notice warn" role="status">
          {t('members.tokenShown', { name: token.user })} <code className="token">{token.token}</code> <CopyButton value={token.token} />{' '}
          <button className="link" onClick={() => setToken(null)}>
            {t('common.close')}
          </button>
        </p>
      )}
      {isAdmin && (
        <p>
          <button onClick={() => setInviting(true)}>{t('invite.open')}</button>
        </p>
      )}
      {inviting && (
        <InviteDialog
          project={project.id}
          onClose={() => {
            setInviting(false);
            void reload();
          }}
        />
      )}
      {isAdmin && (
        <form className="card row" onSubmit={add}>
          <label>
            {t('members.name')} <input value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <label>
            {t('members.role')}
            <select value={role} onChange={(e) => setRole(e.target.value as Member['role'])}>
              {roles.map((r) => (
                <option key={r} value={r}>
                  {t(`role.${r}` as MessageKey)}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={!name.trim()}>
            {t('members.add')}
          </button>
        </form>
      )}
      {members === null ? (
        <LoadState error={error} onRetry={retry} />
      ) : (
        <table className="grid">
          <GridHead columns={[t('members.name'), t('members.role'), t('members.since')]} />
          <tbody>
            {members.map((m) => (
              <tr key={m.userId} data-member={m.name}>
                <td>{m.name}</td>
                <td>
                  <select
                    aria-label={`${t('members.role')} ${m.name}`}
                    value={m.role}
                    disabled={!isAdmin}
                    onChange={(e) => void change(m, e.target.value as Member['role'])}
                  >
                    {roles.map((r) => (
                      <option key={r} value={r}>
                        {t(`role.${r}` as MessageKey)}
                      </option>
                    ))}
                  </select>
                </td>
                <td>{formatDate(m.since, lang)}</td>
                <td>
                  <button disabled={!isAdmin} onClick={() => void newToken(m)}>
                    {t('members.token')}
                  </button>{' '}
                  <button disabled={!isAdmin} className="danger" onClick={() => setRemoving(m)}>
                    {t('members.remove')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <LocksSection />
      {me.installationAdmin && (
        <section className="card danger-zone" aria-labelledby="danger-zone-title">
          <h2 id="danger-zone-title">{t('project.dangerZone')}</h2>
          <p>{t('project.deleteHint')}</p>
          <button className="danger" onClick={() => setDeleting('asking')}>
            {t('project.delete')}
          </button>
        </section>
      )}
      {deleting && (
        <DeleteProjectDialog
          name={project.name}
          busy={deleting === 'busy'}
          onConfirm={(typed) => void deleteProject(typed)}
          onCancel={() => setDeleting(null)}
        />
      )}
      {removing && (
        <ConfirmDialog
          message={t('members.removeConfirm', { name: removing.name })}
          confirmLabel={t('members.remove')}
          onConfirm={() => void remove(removing)}
          onCancel={() => setRemoving(null)}
        />
      )}
    </div>
  );
}
