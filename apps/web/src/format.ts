import type { Lang, T } from './i18n/index.js';
import { ApiError } from './api/client.js';
import { dateFormat } from './intl-cache.js';
import type { MessageKey } from './i18n/en.js';

// One formatter for server and UI: "12.4 MB", "1.0 GB" (binary multiples, one decimal).
export { formatBytes } from '@stoa/contract/format';

/**
 * A date and time in the UI language.
 *
 * @example
 * formatDate('2026-01-02T10:00:00Z', 'ru') // "2 янв. 2026 г., 10:00" (in the browser's time zone; UTC here)
 */
export function formatDate(iso: string, lang: Lang): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  // One formatter per language: toLocaleString builds a new one per call, which is slow over 20,000 rows.
  return dateFormat(lang).format(d);
}

/**
 * A message for an error in the UI language, from its stable code only: the server's own text is English, so it
 * is never shown (an unknown code still names itself, for a bug report).
 *
 * @example
 * errorText(new ApiError('already_exists', 409, 'file "a" already exists'), t) // "Файл по этому пути уже существует" in Russian
 */
export function errorText(e: unknown, t: T): string {
  if (e instanceof ApiError) {
    const key = `error.${e.code}` as MessageKey;
    const title = t(key);
    return title !== key ? title : `${t('error.other')} (${e.code})`;
  }
  return t('error.other');
}

/**
 * Who saved something, in the UI language: a person's name, "agent: <name>", or "agent" when unmapped.
 *
 * @example
 * authorLabel(t, { kind: 'agent', label: 'Researcher' }) // "агент: Researcher" in Russian
 */
export function authorLabel(t: T, a: { kind: string; label?: string | null; name?: string | null; id?: string | null } | null, fallback = '—'): string {
  if (!a) return fallback;
  const name = a.label ?? a.name ?? null;
  if (a.kind === 'agent' || a.kind === 'unmapped_agent') return name ? t('files.agentTag', { name }) : t('files.agent');
  return name ?? a.id ?? fallback;
}

/**
 * The same for the server's ready-made strings ("agent: Researcher", "agent", "alice").
 *
 * @example
 * authorText(t, 'agent: Researcher') // "агент: Researcher" in Russian
 */
export function authorText(t: T, s: string): string {
  if (s === 'agent') return t('files.agent');
  return s.startsWith('agent: ') ? t('files.agentTag', { name: s.slice(7) }) : s;
}
