import { useEffect, useRef, useState } from 'react';
import { routeIndex } from '@stoa/contract/route-index';
import { call, setToken } from '../api/client.js';
import { takeReturnPath } from '../api/oauth.js';
import { useI18n } from '../i18n/index.js';
import { navigate } from '../router.js';
import { LanguagePicker } from '../components/language-picker.js';
import { PasswordSignIn } from '../components/password-sign-in.js';
import { PasskeySignIn } from '../components/passkey-sign-in.js';
import { SsoButton } from '../components/sso-button.js';

/**
 * /login?code=… redeems the one-time link that `stoa serve` prints, keeps the token and goes to Files.
 * Without a code (or when it fails) a person signs in with their name and password; an API token can still be
 * pasted (programs' credentials; the installation administrator's first way in), folded away below.
 *
 * @example
 * {route.page === 'login' && <LoginPage onSignedIn={reload} />}
 */
export function LoginPage({ onSignedIn }: { onSignedIn: () => void }) {
  const { t } = useI18n();
  const code = new URLSearchParams(location.search).get('code');
  const [state, setState] = useState<'idle' | 'redeeming' | 'failed'>(code ? 'redeeming' : 'idle');
  const [token, setTokenText] = useState('');
  const once = useRef(false);

  useEffect(() => {
    // A code works once: StrictMode's double effect must not spend it twice.
    if (!code || once.current) return;
    once.current = true;
    call(routeIndex.system.login, { code })
      .then((r) => {
        setToken(r.token);
        navigate(takeReturnPath() ?? '/files', true);
        onSignedIn();
      })
      .catch(() => setState('failed'));
  }, [code, onSignedIn]);

  const done = () => {
    navigate(takeReturnPath() ?? '/files', true);
    onSignedIn();
  };

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!token.trim()) return;
    setToken(token.trim());
    navigate(takeReturnPath() ?? '/files', true);
    onSignedIn();
  };

  return (
    <main className="login">
      <div className="login-box">
        <div className="login-top">
          <h1>{t('login.title')}</h1>
          <LanguagePicker />
        </div>
        {state === 'redeeming' && <p>{t('login.redeeming')}</p>}
        {new URLSearchParams(location.search).get('sso') === 'failed' && (
          <p className="error" role="alert">
            {t('sso.failed')}
          </p>
        )}
        {state === 'failed' && (
          <p className="error" role="alert">
            {t('login.failed')}
          </p>
        )}
        {state !== 'redeeming' && (
          <>
            <p>{t('signin.help')}</p>
            <PasswordSignIn onSignedIn={done} />
            <PasskeySignIn onSignedIn={done} />
            <SsoButton />
            <details className="token-sign-in">
              <summary>{t('signin.withToken')}</summary>
              <form onSubmit={submit}>
                <p>{t('login.help')}</p>
                <label>
                  {t('login.token')} <input type="password" value={token} onChange={(e) => setTokenText(e.target.value)} autoComplete="off" />
                </label>
                <button type="submit">{t('login.submit')}</button>
              </form>
            </details>
          </>
        )}
      </div>
    </main>
  );
}
