import { useState } from 'react';
import { signInApi } from '../api/sign-in.js';
import { ApiError } from '../api/client.js';
import { useI18n } from '../i18n/index.js';
import { errorText } from '../format.js';

/**
 * "Sign in with a passkey" (issue 31): the browser offers this site's passkeys and asks for a touch or a PIN; no
 * name is typed. Shown only where the browser has WebAuthn.
 *
 * @example
 * <PasskeySignIn onSignedIn={(user) => go(user)} />
 */
export function PasskeySignIn(props: { onSignedIn: (user: string) => void }) {
  const { t } = useI18n();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!signInApi.passkeysWork()) return null;
  const go = async () => {
    setBusy(true);
    try {
      const session = await signInApi.passkey();
      props.onSignedIn(session.user);
    } catch (err) {
      setBusy(false);
      // The person closed the browser's prompt: nothing to say. Any refusal of the server: one sentence for all.
      if (err instanceof Error && err.name === 'NotAllowedError') return setError(null);
      setError(err instanceof ApiError && err.code === 'unauthorized' ? t('passkey.failed') : errorText(err, t));
    }
  };
  return (
    <div className="passkey-sign-in">
      {error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      <button type="button" disabled={busy} onClick={() => void go()}>
        {t('passkey.signIn')}
      </button>
    </div>
  );
}
