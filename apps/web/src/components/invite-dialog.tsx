import { useRef, useState } from 'react';
import type { Member } from '../api/files.js';
import { signInApi } from '../api/sign-in.js';
import { useI18n } from '../i18n/index.js';
import type { MessageKey } from '../i18n/en.js';
import { errorText, formatDate } from '../format.js';
import { useFocusTrap } from './focus-trap.js';
import { CopyButton } from './copy-button.js';

const roles: Array<Member['role']> = ['admin', 'editor', 'viewer'];

/**
 * An admin invites a person (issue 31): a role and, optionally, the name they will have, then a one-time link to
 * hand over (Copy). Opening it, the person chooses a password and is in; the admin never holds their credential.
 *
 * @example
 * {inviting && <InviteDialog project={project.id} onClose={() => setInviting(false)} />}
 */
export function InviteDialog(props: { project: string; onClose: () => void }) {
  const { t, lang } = useI18n();
  const box = useRef<HTMLDivElement>(null);
  useFocusTrap(box, props.onClose);
  const [role, setRole] = useState<Member['role']>('editor');
  const [name, setName] = useState('');
  const [link, setLink] = useState<{ url: string; expiresAt: string } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const create = async (e: React.FormEvent) => {
    e.preventDefault();
    try {
      const user = name.trim() || undefined;
      const inv = await signInApi.invite(props.project, role, user);
      const q = new URLSearchParams({ code: inv.code, ...(inv.user ? { user: inv.user } : {}) });
      setLink({ url: `${location.origin}/join?${q.toString()}`, expiresAt: inv.expiresAt });
      setError(null);
    } catch (err) {
      setError(errorText(err, t));
    }
  };

  return (
    <div className="modal-back">
      <div ref={box} className="modal invite-dialog" role="dialog" aria-modal="true" aria-labelledby="invite-title">
        <h2 id="invite-title">{t('invite.title')}</h2>
        {error && (
          <p className="notice error" role="alert">
            {error}
          </p>
        )}
        {!link ? (
          <form onSubmit={(e) => void create(e)}>
            <p>{t('invite.help')}</p>
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
            <label>
              {t('invite.name')} <input value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />
            </label>
            <div className="modal-actions">
              <button type="submit">{t('invite.create')}</button>
              <button type="button" onClick={props.onClose}>
                {t('common.cancel')}
              </button>
            </div>
          </form>
        ) : (
          <>
            <p className="notice warn">{t('invite.once', { date: formatDate(link.expiresAt, lang) })}</p>
            <label>
              {t('invite.link')} <input className="invite-link" readOnly value={link.url} onFocus={(e) => e.currentTarget.select()} />
            </label>
            <div className="modal-actions">
              <CopyButton value={link.url} />
              <button type="button" onClick={props.onClose}>
                {t('common.close')}
              </button>
            </div>
          </>
        )}
      </div>
    </div>
  );
}
