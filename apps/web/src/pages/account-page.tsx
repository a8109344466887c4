import { useCallback, useEffect, useState } from 'react';
import { signInApi } from '../api/sign-in.js';
import { useI18n } from '../i18n/index.js';
import { errorText, formatDate } from '../format.js';
import { ApiError } from '../api/client.js';
import { LoadState } from '../components/load-state.js';
import { applyTheme, savedTheme, type ThemeChoice } from '../theme.js';

type Account = Awaited<ReturnType<typeof signInApi.account>>;

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
  const { t, lang } = useI18n();
  const [account, setAccount] = useState<Account | null>(null);
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

  const addPasskey = async () => {
    try {
      await signInApi.addPasskey(navigator.platform || undefined);
      setError(null);
      await load();
    } catch (err) {
      if (err instanceof Error && err.name === 'NotAllowedError') return;
      setError(errorText(err, t));
    }
  };
  const removePasskey = (id: string) => signInApi.removePasskey(id).then(load, (e: unknown) => setError(errorText(e, t)));

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
      <ThemeSection />
      <section className="card" aria-labelledby="passkeys-title">
        <h2 id="passkeys-title">{t('passkey.title')}</h2>
        <p>{t('passkey.help')}</p>
        {account.passkeys.length > 0 && (
          <ul className="passkeys">
            {account.passkeys.map((p) => (
              <li key={p.id} data-passkey>
                {p.name ?? t('passkey.unnamed')} · {formatDate(p.createdAt, lang)}{' '}
                <button className="danger" onClick={() => void removePasskey(p.id)}>
                  {t('passkey.remove')}
                </button>
              </li>
            ))}
          </ul>
        )}
        <button onClick={() => void addPasskey()}>{t('passkey.add')}</button>
      </section>
    </div>
  );
}

const THEMES: Array<{ value: ThemeChoice; label: 'theme.system' | 'theme.light' | 'theme.dark' }> = [
  { value: 'system', label: 'theme.system' },
  { value: 'light', label: 'theme.light' },
  { value: 'dark', label: 'theme.dark' },
];

/** Light or dark colours, or the system's (the default); kept in this browser, not on the account. */
function ThemeSection() {
  const { t } = useI18n();
  const [choice, setChoice] = useState<ThemeChoice>(savedTheme);
  return (
    <section className="card" aria-labelledby="theme-title">
      <h2 id="theme-title">{t('theme.title')}</h2>
      <fieldset className="theme-choice">
        <legend>{t('theme.legend')}</legend>
        {THEMES.map((o) => (
          <label key={o.value}>
            <input
              type="radio"
              name="theme"
              value={o.value}
              checked={choice === o.value}
              onChange={() => {
                setChoice(o.value);
                applyTheme(o.value, true);
              }}
            />{' '}
            {t(o.label)}
          </label>
        ))}
      </fieldset>
    </section>
  );
}
