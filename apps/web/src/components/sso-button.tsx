import { useEffect, useState } from 'react';
import { signInApi } from '../api/sign-in.js';
import { useI18n } from '../i18n/index.js';

/**
 * "Sign in with <provider>" when the server has single sign-on configured (issue 31): a link to the provider, which
 * sends the browser back signed in. From an invitation link, it carries the invitation along.
 *
 * @example
 * <SsoButton invite={code} />
 */
export function SsoButton(props: { invite?: string }) {
  const { t } = useI18n();
  const [name, setName] = useState<string | null>(null);
  useEffect(() => {
    signInApi.methods().then(
      (m) => setName(m.sso?.name ?? null),
      () => setName(null),
    );
  }, []);
  if (!name) return null;
  return (
    <p className="sso-sign-in">
      <a className="button" href={signInApi.ssoUrl(props.invite)}>
        {t('sso.signIn', { name })}
      </a>
    </p>
  );
}
