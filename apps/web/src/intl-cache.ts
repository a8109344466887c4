import { localeOf, type Lang } from './i18n/lang.js';

/*
 * The browser's date formatter and name collator, built once per language. Building the first one loads the
 * locale's data and costs tens of milliseconds, so the entry builds them while the first load's requests are
 * still on the wire (`warmIntl`), instead of in the middle of rendering the first rows.
 */
const dateFormats = new Map<Lang, Intl.DateTimeFormat>();
let names: Intl.Collator | undefined;

/**
 * The medium date and short time formatter of a language.
 *
 * @example
 * dateFormat('ru').format(new Date()) // "2 янв. 2026 г., 10:00"
 */
export function dateFormat(lang: Lang): Intl.DateTimeFormat {
  let f = dateFormats.get(lang);
  if (!f) dateFormats.set(lang, (f = new Intl.DateTimeFormat(localeOf(lang), { dateStyle: 'medium', timeStyle: 'short' })));
  return f;
}

/**
 * Compares names as people read them: "file 2" before "file 10", case and accents aside.
 *
 * @example
 * ['b', 'file 10', 'file 2'].sort(nameCollator().compare) // ['b', 'file 2', 'file 10']
 */
export function nameCollator(): Intl.Collator {
  return (names ??= new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' }));
}

/**
 * Builds both for a language when the page is next idle (the first load waits on the network then).
 *
 * @example
 * warmIntl(initialLang());
 */
export function warmIntl(lang: Lang): void {
  const warm = () => {
    dateFormat(lang).format(0);
    nameCollator().compare('a', 'b');
  };
  if (typeof requestIdleCallback === 'function') requestIdleCallback(warm, { timeout: 1000 });
  else setTimeout(warm, 0);
}
