import { startFirstLoad } from './first-load.js';
import { warmIntl } from './intl-cache.js';
import { applyTheme, savedTheme } from './theme.js';
import './styles.css';

/**
 * How long the first render may wait for the first screen's answers. Rendered with them, the page comes whole in
 * one frame; rendered before, it shows placeholders that the answers replace a frame later (two renders and two
 * layouts). A slow server still gets its loading state on screen after this long.
 */
const FIRST_RENDER_WAIT_MS = 300;

// The entry is small on purpose: the first load's requests start as soon as it runs, while the renderer and the app
// (preloaded by index.html, see vite.config.ts) are still arriving and being evaluated.
// The chosen colours before the first paint, so a dark choice never flashes light.
applyTheme(savedTheme());
const { answersIn, warm } = startFirstLoad();
warmIntl();
// With last visit's answers to draw from (warm-cache.ts), the first render waits for nothing: the fresh answers
// replace them when they come.
const waited = warm ? null : Promise.race([answersIn, new Promise((done) => setTimeout(done, FIRST_RENDER_WAIT_MS))]);
void import('./render-app.js').then(async (m) => {
  await waited;
  m.renderApp(document.getElementById('root')!);
});

// The service worker keeps the shell for an offline reload (service-worker.ts). Registered once the page has loaded,
// the first screen's answers are in and the page is idle: installing it fetches every asset of the build, which
// during the first load took the server and the network from the first screen's requests (a cold first screen
// ≈ 90 ms later, bench/README.md). The dev server has none: the registration fails.
if ('serviceWorker' in navigator) {
  const loaded = new Promise((done) => addEventListener('load', done, { once: true }));
  void Promise.all([loaded, answersIn]).then(() => {
    const register = () => void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
    if (typeof requestIdleCallback === 'function') requestIdleCallback(register, { timeout: 2000 });
    else setTimeout(register, 0);
  });
}
