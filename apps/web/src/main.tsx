import { startFirstLoad } from './first-load.js';
import { initialLang } from './i18n/lang.js';
import { warmIntl } from './intl-cache.js';
import './styles.css';

// The entry is small on purpose: the first load's requests start as soon as it runs, while React and the app
// (preloaded by index.html, see vite.config.ts) are still arriving and being evaluated.
startFirstLoad();
warmIntl(initialLang());
void import('./render-app.js').then((m) => m.renderApp(document.getElementById('root')!));
