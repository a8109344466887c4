import type { Lang, T } from './i18n/index.js';
import { ApiError } from './api/client.js';
import type { MessageKey } from './i18n/en.js';

// One formatter for server and UI: "12.4 MB", "1.0 GB" (binary multiples, one decimal).
export { formatBytes } from '@stoa/contract/format';

/** Month names as a medium date abbreviates them (CLDR's, as `Intl.DateTimeFormat` gives them). */
const MONTHS = {
  en: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
  ru: ['янв.', 'февр.', 'мар.', 'апр.', 'мая', 'июн.', 'июл.', 'авг.', 'сент.', 'окт.', 'нояб.', 'дек.'],
} as const;
const two = (n: number) => String(n).padStart(2, '0');

/**
 * A date and time in the UI language, in the browser's time zone: the medium date and short time of
 * `Intl.DateTimeFormat` for en, ru and zh-CN, spelled out here because building the browser's first formatter
 * loads the locale's data and costs 35–50 ms of the first render (bench/README.md, "Dates without Intl, and the
 * main thread's CPU counted"); format.test.ts holds the two to the same text.
 *
 * @example
 * formatDate('2026-01-02T10:00:00Z', 'ru') // "2 янв. 2026 г., 10:00" (in a browser on UTC)
 */
export function formatDate(iso: string, lang: Lang): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const [year, month, day, hour, minute] = [d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), two(d.getMinutes())];
  if (lang === 'zh') return `${year}年${month + 1}月${day}日 ${two(hour)}:${minute}`;
  if (lang === 'ru') return `${day} ${MONTHS.ru[month]} ${year} г., ${two(hour)}:${minute}`;
  return `${MONTHS.en[month]} ${day}, ${year}, ${hour % 12 || 12}:${minute} ${hour < 12 ? 'AM' : 'PM'}`;
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
