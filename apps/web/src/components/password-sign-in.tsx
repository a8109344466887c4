import { useState } from 'react';
import { signInApi } from '../api/sign-in.js';
import { ApiError } from '../api/client.js';
import { useI18n } from '../i18n/index.js';
import { errorText } from '../format.js';

/**
 * Name and password, the way a person signs in (issue 31). A refusal says only "wrong name or password" (the
 * server never tells which); too many tries from this address say when to try again.
 *
 * @example
 * <PasswordSignIn onSignedIn={(user) => go(user)} />
 */
export function PasswordSignIn(props: { user?: string; onSignedIn: (user: string) => void; submitLabel?: string }) {
  const { t } = useI18n();
  const [user, setUser] = useState(props.user ?? '');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!user.trim() || !password) return;
    setBusy(true);
    try {
      const session = await signInApi.password(user.trim(), password);
      props.onSignedIn(session.user);
    } catch (err) {
      setError(err instanceof ApiError && err.code === 'unauthorized' ? t('signin.failed') : errorText(err, t));
      setBusy(false);
    }
  };

  return (
    <form className="password-sign-in" onSubmit={(e) => void submit(e)}>
      {error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      <label>
        {t('signin.name')} <input name="username" value={user} onChange={(e) => setUser(e.target.value)} autoComplete="username" required />
      </label>
      <label>
        {t('signin.password')}{' '}
        <input name="password" type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" required />
      </label>
      <button type="submit" disabled={busy || !user.trim() || !password}>
        {props.submitLabel ?? t('login.submit')}
      </button>
    </form>
  );
}
