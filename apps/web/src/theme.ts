/** The colours a person chose on the Account page: the system's (the default), or always light or dark. */
export type ThemeChoice = 'system' | 'light' | 'dark';

const THEME_KEY = 'stoa.theme';

/**
 * The choice kept in this browser; anything unknown counts as following the system.
 *
 * @example
 * savedTheme() // "system"
 */
export function savedTheme(): ThemeChoice {
  try {
    const v = localStorage.getItem(THEME_KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

/**
 * Puts a choice in force on the page (styles.css reads `data-theme`; without it the system's
 * `prefers-color-scheme` decides) and, with `keep`, remembers it in this browser.
 *
 * @example
 * applyTheme(savedTheme()); // at start
 * applyTheme('dark', true); // from the Account page
 */
export function applyTheme(choice: ThemeChoice, keep = false): void {
  const root = document.documentElement;
  if (choice === 'system') delete root.dataset.theme;
  else root.dataset.theme = choice;
  if (!keep) return;
  try {
    if (choice === 'system') localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, choice);
  } catch {
    // Storage refused (a private window's quota): the choice still holds for this page.
  }
}
