import { useState } from 'react';
import { useI18n } from '../i18n/index.js';

/**
 * Copies a value shown once (an invitation link, a token) to the clipboard and says so on the button.
 *
 * @example
 * <CopyButton value={link} />
 */
export function CopyButton(props: { value: string; label?: string }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);
  const copy = () =>
    navigator.clipboard?.writeText(props.value).then(
      () => setCopied(true),
      () => undefined,
    );
  return (
    <button type="button" onClick={() => void copy()} aria-live="polite">
      {copied ? t('invite.copied') : (props.label ?? t('invite.copy'))}
    </button>
  );
}
