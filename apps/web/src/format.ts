import type { Lang, T } from './i18n/index.js';
import { ApiError } from './api/client.js';
import { en, type MessageKey } from './i18n/en.js';

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

/** The rules of F1 a path may break, as the server names them in a path_invalid problem's `rule`. */
const PATH_RULES = new Set([
  'not_string',
  'empty',
  'control',
  'backslash',
  'absolute',
  'trailing_slash',
  'empty_segment',
  'dot_segment',
  'segment_too_long',
  'too_deep',
  'too_long',
]);

/**
 * A message for an error in the UI language: the translated reason from its stable code, then what the API
 * says in detail (issue 29) — in the UI language where the problem names its rule (which path segment is not
 * allowed, which limit), else the server's own words in an English UI. Network failures and server faults say
 * the reason only (an unknown code still names itself, for a bug report).
 *
 * @example
 * errorText(new ApiError('path_invalid', 400, 'segment ".." is not allowed', { rule: 'dot_segment', segment: '..' }), t)
 * // "Недопустимый путь: сегмент «..» не допускается" in Russian
 */
export function errorText(e: unknown, t: T): string {
  if (!(e instanceof ApiError)) return t('error.other');
  const key = `error.${e.code}` as MessageKey;
  const title = t(key);
  if (title === key) return `${t('error.other')} (${e.code})`;
  const detail = errorDetail(e, t);
  return detail ? `${title}: ${detail}` : title;
}

function errorDetail(e: ApiError, t: T): string | null {
  if (e.status < 400 || e.status >= 500) return null;
  const rule = e.details.rule;
  if (e.code === 'path_invalid' && typeof rule === 'string' && PATH_RULES.has(rule)) {
    const segment = typeof e.details.segment === 'string' ? e.details.segment : '';
    const limit = typeof e.details.limit === 'number' ? String(e.details.limit) : '';
    return t(`error.path.${rule}` as MessageKey, { segment, limit });
  }
  // A name refused for a deceiving or invisible character names it (docs/security.md).
  if (typeof e.details.codePoint === 'string' && /^U\+[0-9A-F]{4,6}$/.test(e.details.codePoint))
    return t('error.codePoint', { codePoint: e.details.codePoint });
  // The server's own words are English: shown to an English UI only, never mixed into another language.
  const said = e.message.trim();
  return said && said !== e.details.title && t('error.other') === en['error.other'] ? said.slice(0, 300) : null;
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
