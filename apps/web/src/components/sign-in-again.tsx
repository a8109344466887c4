import { useRef, useState } from 'react';
import { getToken, setToken } from '../api/client.js';
import { filesApi } from '../api/files.js';
import { useI18n } from '../i18n/index.js';
import { errorText } from '../format.js';
import { useFocusTrap } from './focus-trap.js';

/**
 * Asks for a token again when the server stops accepting this browser's one (revoked or expired), over the page
 * the user is on: nothing on screen is lost, and the action that was refused can simply be tried again. Signing
 * in as someone else reloads everything (what was shown belonged to the other person).
 *
 * @example
 * {expired && <SignInAgain userId={session.me.id} onSignedIn={(same) => same ? setExpired(false) : reload()} onSignOut={logout} />}
 */
export function SignInAgain(props: { userId: string; onSignedIn: (sameUser: boolean) => void; onSignOut: () => void }) {
  const { t } = useI18n();
  const [token, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const box = useRef<HTMLFormElement>(null);
  // No Escape: the page behind cannot be used without a working sign-in.
  useFocusTrap(box);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!token.trim()) return;
    const previous = getToken();
    setToken(token.trim());
    try {
      const me = await filesApi.me();
      props.onSignedIn(me.id === props.userId);
    } catch (err) {
      setToken(previous);
      setError(errorText(err, t));
    }
  };

  return (
    <div className="modal-back">
      <form ref={box} className="modal" role="dialog" aria-modal="true" aria-labelledby="sign-in-again-title" onSubmit={(e) => void submit(e)}>
        <h2 id="sign-in-again-title">{t('session.endedTitle')}</h2>
        <p>{t('session.endedHelp')}</p>
        {error && (
          <p className="notice error" role="alert">
            {error}
          </p>
        )}
        <label>
          {t('login.token')} <input type="password" value={token} onChange={(e) => setText(e.target.value)} autoComplete="off" />
        </label>
        <div className="modal-actions">
          <button type="submit" disabled={!token.trim()}>
            {t('session.continue')}
          </button>
          <button type="button" onClick={props.onSignOut}>
            {t('nav.logout')}
          </button>
        </div>
      </form>
    </div>
  );
}
