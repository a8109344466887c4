import { languages, useI18n, type Lang } from '../i18n/index.js';

/**
 * The language picker (English, Русский, 中文); the choice is remembered in this browser.
 *
 * @example
 * <LanguagePicker />
 */
export function LanguagePicker() {
  const { lang, setLang, t } = useI18n();
  return (
    <select aria-label={t('nav.language')} value={lang} onChange={(e) => setLang(e.target.value as Lang)} className="lang-picker">
      {languages.map((l) => (
        <option key={l.code} value={l.code}>
          {l.label}
        </option>
      ))}
    </select>
  );
}
