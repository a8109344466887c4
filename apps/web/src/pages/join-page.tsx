import { useState } from 'react';
import { signInApi } from '../api/sign-in.js';
import { useI18n } from '../i18n/index.js';
import { navigate } from '../router.js';
import { errorText } from '../format.js';
import { ApiError, getToken, setToken } from '../api/client.js';
import { LanguagePicker } from '../components/language-picker.js';
import { SsoButton } from '../components/sso-button.js';

/** Shortest password the server accepts (packages/core/src/projects/passwords.ts). */
const PASSWORD_MIN = 10;

/**
 * /join?code=…[&user=…]: an invitation link. The invited person chooses their password (their name too, when
 * the invitation names none) and is signed in at once; from then on they sign in with name and password.
 *
 * @example
 * {route.page === 'join' && <JoinPage onSignedIn={reload} />}
 */
export function JoinPage({ onSignedIn }: { onSignedIn: () => void }) {
  const { t } = useI18n();
  const params = new URLSearchParams(location.search);
  const code = params.get('code') ?? '';
  const named = params.get('user');
  const [user, setUser] = useState(named ?? '');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Signed in already in this browser: the invitation is for this person's account (another project to join).
  const [signedIn, setSignedIn] = useState(() => !!getToken());

  const joinAsMe = async () => {
    setBusy(true);
    try {
      await signInApi.join(code, undefined);
      navigate('/files', true);
      onSignedIn();
    } catch (err) {
      setBusy(false);
      setError(err instanceof ApiError && err.code === 'unauthorized' ? t('join.failed') : errorText(err, t));
    }
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (password.length < PASSWORD_MIN) return setError(t('join.tooShort', { n: String(PASSWORD_MIN) }));
    if (password !== repeat) return setError(t('join.mismatch'));
    setBusy(true);
    try {
      await signInApi.join(code, user.trim() || undefined, password);
      navigate('/files', true);
      onSignedIn();
    } catch (err) {
      setBusy(false);
      setError(err instanceof ApiError && err.code === 'unauthorized' ? t('join.failed') : errorText(err, t));
    }
  };

  // The account is made first (its session kept by this browser), then this device's passkey is added to it; if
  // the person cancels the passkey prompt they are still in, and can add one (or a password) on their account page.
  const withPasskey = async () => {
    if (!user.trim()) return setError(t('join.nameFirst'));
    setBusy(true);
    try {
      await signInApi.join(code, user.trim());
    } catch (err) {
      setBusy(false);
      return setError(err instanceof ApiError && err.code === 'unauthorized' ? t('join.failed') : errorText(err, t));
    }
    const added = await signInApi.addPasskey().then(
      () => true,
      () => false,
    );
    navigate(added ? '/files' : '/account', true);
    onSignedIn();
  };

  return (
    <main className="login">
      <div className="login-box">
        <div className="login-top">
          <h1>{t('join.title')}</h1>
          <LanguagePicker />
        </div>
        {code && signedIn ? (
          <div>
            <p>{t('join.signedIn')}</p>
            {error && (
              <p className="notice error" role="alert">
                {error}
              </p>
            )}
            <div className="modal-actions">
              <button type="button" disabled={busy} onClick={() => void joinAsMe()}>
                {t('join.asMe')}
              </button>
              <button
                type="button"
                onClick={() => {
                  setToken(null);
                  setSignedIn(false);
                }}
              >
                {t('join.notMe')}
              </button>
            </div>
          </div>
        ) : !code ? (
          <p className="error" role="alert">
            {t('join.failed')}
          </p>
        ) : (
          <form onSubmit={(e) => void submit(e)}>
            <p>{t('join.help', { n: String(PASSWORD_MIN) })}</p>
            {error && (
              <p className="notice error" role="alert">
                {error}
              </p>
            )}
            <label>
              {t('signin.name')}{' '}
              <input name="username" value={user} readOnly={!!named} onChange={(e) => setUser(e.target.value)} autoComplete="username" required />
            </label>
            <label>
              {t('join.password')}{' '}
              <input name="new-password" type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="new-password" required />
            </label>
            <label>
              {t('join.repeat')}{' '}
              <input name="repeat-password" type="password" value={repeat} onChange={(e) => setRepeat(e.target.value)} autoComplete="new-password" required />
            </label>
            <button type="submit" disabled={busy || !user.trim() || !password}>
              {t('join.submit')}
            </button>
            {signInApi.passkeysWork() && (
              <p>
                {t('join.orPasskey')}{' '}
                <button type="button" disabled={busy} onClick={() => void withPasskey()}>
                  {t('join.withPasskey')}
                </button>
              </p>
            )}
            <SsoButton invite={code} />
          </form>
        )}
      </div>
    </main>
  );
}
