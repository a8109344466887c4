import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nProvider } from './i18n/index.js';
import { App } from './app.js';

/**
 * Renders the app into `el`. Its own chunk, loaded by main.tsx after the first load's requests have started.
 *
 * @example
 * renderApp(document.getElementById('root')!);
 */
export function renderApp(el: HTMLElement): void {
  createRoot(el).render(
    <StrictMode>
      <I18nProvider>
        <App />
      </I18nProvider>
    </StrictMode>,
  );
}
