import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nProvider } from './i18n/index.js';
import { App } from './app.js';
import { options } from 'preact';

/**
 * Renders the app into `el`. Its own chunk, loaded by main.tsx after the first load's requests have started.
 *
 * @example
 * renderApp(document.getElementById('root')!);
 */
export function renderApp(el: HTMLElement): void {
  // Preact (decision 0017) runs effects after the next frame; the first load's effects start requests (a project
  // picked, the live feed), and on a busy machine a frame comes late. In a task of their own, as React's scheduler
  // does, they run as soon as the render is done.
  options.requestAnimationFrame = (flush) => void setTimeout(flush);
  createRoot(el).render(
    <StrictMode>
      <I18nProvider>
        <App />
      </I18nProvider>
    </StrictMode>,
  );
}
