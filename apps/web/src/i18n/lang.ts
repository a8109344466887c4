/** The UI languages, in a module of their own so the entry can read the language without the dictionaries. */
export type Lang = 'en' | 'ru' | 'zh';

/** Where the picked language is remembered. */
export const LANG_KEY = 'stoa.lang';

/**
 * The language picked before, else the browser's first language we have, else English.
 *
 * @example
 * initialLang() // 'ru' for a browser set to ru-RU, unless a language was picked
 */
export function initialLang(): Lang {
  const saved = localStorage.getItem(LANG_KEY);
  if (saved === 'en' || saved === 'ru' || saved === 'zh') return saved;
  for (const l of navigator.languages ?? [navigator.language]) {
    const base = l.toLowerCase().split('-')[0];
    if (base === 'ru' || base === 'zh' || base === 'en') return base;
  }
  return 'en';
}

/**
 * The BCP 47 tag the browser's Intl and `<html lang>` get for a UI language.
 *
 * @example
 * localeOf('zh') // 'zh-CN'
 */
export function localeOf(lang: Lang): string {
  return lang === 'zh' ? 'zh-CN' : lang;
}
