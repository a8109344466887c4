import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import { en, type Dict, type MessageKey } from './en.js';
import { ru } from './ru.js';
import { zh } from './zh.js';
import { initialLang, LANG_KEY, localeOf, type Lang } from './lang.js';

export type { Lang };
export const languages: Array<{ code: Lang; label: string }> = [
  { code: 'en', label: 'English' },
  { code: 'ru', label: 'Русский' },
  { code: 'zh', label: '中文' },
];
const dicts: Record<Lang, Dict> = { en, ru, zh };
export type T = (key: MessageKey, vars?: Record<string, string | number>) => string;

/**
 * Looks a key up in one language (falling back to English) and fills in `{name}` values.
 *
 * @example
 * translate('ru', 'files.usage', { used: '12.4 MiB', quota: '1.0 GiB' }) // "Занято 12.4 MiB из 1.0 GiB"
 */
export function translate(lang: Lang, key: MessageKey, vars?: Record<string, string | number>): string {
  const s = dicts[lang][key] ?? en[key] ?? key;
  return vars ? s.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m)) : s;
}

interface I18n {
  lang: Lang;
  setLang: (l: Lang) => void;
  t: T;
}
const Ctx = createContext<I18n | null>(null);

/**
 * Provides the language and `t` to the tree.
 *
 * @example
 * const { t } = useI18n(); t('files.usage', { used: '12.4 MiB', quota: '1.0 GiB' })
 */
export function I18nProvider({ children }: { children: ReactNode }) {
  const [lang, setLangState] = useState<Lang>(initialLang);
  const value = useMemo<I18n>(() => {
    document.documentElement.lang = localeOf(lang);
    return {
      lang,
      setLang: (l) => {
        localStorage.setItem(LANG_KEY, l);
        setLangState(l);
      },
      t: (key, vars) => translate(lang, key, vars),
    };
  }, [lang]);
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

/**
 * @example
 * const { t, lang, setLang } = useI18n();
 */
export function useI18n(): I18n {
  const v = useContext(Ctx);
  if (!v) throw new Error('useI18n outside I18nProvider');
  return v;
}

export type { MessageKey };
