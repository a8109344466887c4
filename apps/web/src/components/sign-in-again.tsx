import { useRef, useState } from 'react';
import { getToken, setToken } from '../api/client.js';
import { filesApi } from '../api/files.js';
import { useI18n } from '../i18n/index.js';
import { errorText } from '../format.js';
import { useFocusTrap } from './focus-trap.js';
import { PasswordSignIn } from './password-sign-in.js';
import { PasskeySignIn } from './passkey-sign-in.js';
import { SsoButton } from './sso-button.js';

/**
 * Asks the person to sign in again — with their own name and password, or (folded away) an API token — when the server stops accepting this browser's one (revoked or expired), over the page
 * the user is on: nothing on screen is lost, and the action that was refused can simply be tried again. Signing
 * in as someone else reloads everything (what was shown belonged to the other person).
 *
 * @example
 * {expired && <SignInAgain userId={session.me.id} onSignedIn={(same) => same ? setExpired(false) : reload()} onSignOut={logout} />}
 */
export function SignInAgain(props: { userId: string; userName?: string; onSignedIn: (sameUser: boolean) => void; onSignOut: () => void }) {
  const { t } = useI18n();
  const [token, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const box = useRef<HTMLDivElement>(null);
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
      <div ref={box} className="modal" role="dialog" aria-modal="true" aria-labelledby="sign-in-again-title">
        <h2 id="sign-in-again-title">{t('session.endedTitle')}</h2>
        <p>{t('signin.againHelp')}</p>
        <PasswordSignIn user={props.userName} submitLabel={t('session.continue')} onSignedIn={(user) => props.onSignedIn(user === props.userName)} />
        <PasskeySignIn onSignedIn={(user) => props.onSignedIn(user === props.userName)} />
        <SsoButton />
        <details className="token-sign-in">
          <summary>{t('signin.withToken')}</summary>
          <form onSubmit={(e) => void submit(e)}>
            {error && (
              <p className="notice error" role="alert">
                {error}
              </p>
            )}
            <label>
              {t('login.token')} <input type="password" value={token} onChange={(e) => setText(e.target.value)} autoComplete="off" />
            </label>
            <button type="submit" disabled={!token.trim()}>
              {t('session.continue')}
            </button>
          </form>
        </details>
        <div className="modal-actions">
          <button type="button" onClick={props.onSignOut}>
            {t('nav.logout')}
          </button>
        </div>
      </div>
    </div>
  );
}
