import { useCallback, useEffect, useState } from 'react';
import { signInApi } from '../api/sign-in.js';
import { useI18n } from '../i18n/index.js';
import { errorText } from '../format.js';
import { ApiError } from '../api/client.js';
import { LoadState } from '../components/load-state.js';

/** Shortest password the server accepts (packages/core/src/projects/passwords.ts). */
const PASSWORD_MIN = 10;

/**
 * /account: how the signed-in person signs in, and setting or changing their password (issue 31). Changing one
 * needs the current password; a person who came in with a token or a login link sets a first one without.
 *
 * @example
 * {route.page === 'account' && <AccountPage />}
 */
export function AccountPage() {
  const { t } = useI18n();
  const [account, setAccount] = useState<{ user: string; password: boolean } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [saved, setSaved] = useState(false);
  const load = useCallback(() => signInApi.account().then(setAccount, (e: unknown) => setError(errorText(e, t))), [t]);
  useEffect(() => {
    void load();
  }, [load]);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setSaved(false);
    if (password.length < PASSWORD_MIN) return setError(t('join.tooShort', { n: String(PASSWORD_MIN) }));
    if (password !== repeat) return setError(t('join.mismatch'));
    try {
      await signInApi.changePassword(password, account?.password ? current : undefined);
      setError(null);
      setCurrent('');
      setPassword('');
      setRepeat('');
      setSaved(true);
      await load();
    } catch (err) {
      setError(err instanceof ApiError && err.code === 'forbidden' ? t('account.wrongCurrent') : errorText(err, t));
    }
  };

  if (!account)
    return (
      <div className="account-page">
        <h1>{t('account.title')}</h1>
        <LoadState error={error} onRetry={() => void load()} />
      </div>
    );
  return (
    <div className="account-page">
      <h1>{t('account.title')}</h1>
      <p>{t('account.signedInAs', { name: account.user })}</p>
      <section className="card" aria-labelledby="password-title">
        <h2 id="password-title">{t('signin.password')}</h2>
        <p>{account.password ? t('account.hasPassword') : t('account.noPassword')}</p>
        {error && (
          <p className="notice error" role="alert">
            {error}
          </p>
        )}
        {saved && (
          <p className="notice" role="status">
            {t('account.saved')}
          </p>
        )}
        <form onSubmit={(e) => void submit(e)}>
          {/* Browsers' password managers find the account by this (hidden) name field. */}
          <input name="username" autoComplete="username" value={account.user} readOnly hidden />
          {account.password && (
            <label>
              {t('account.current')}{' '}
              <input type="password" value={current} onChange={(e) => setCurrent(e.target.value)} autoComplete="current-password" required />
            </label>
          )}
          <label>
            {t('join.password')} <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="new-password" required />
          </label>
          <label>
            {t('join.repeat')} <input type="password" value={repeat} onChange={(e) => setRepeat(e.target.value)} autoComplete="new-password" required />
          </label>
          <button type="submit">{account.password ? t('account.change') : t('account.set')}</button>
        </form>
      </section>
    </div>
  );
}
