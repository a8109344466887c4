/**
 * The UI's service worker (built by vite.config.ts into dist/sw.js, registered by main.tsx with scope "/"). It
 * keeps the app shell (index.html) and the build's hashed assets, so a reload while offline still shows the UI
 * (with "You are offline" and Retry) instead of the browser's error page. It never answers for the API, WebDAV
 * or MCP: those always go to the network, so no answer of a project's data is ever kept or served stale.
 * Self-contained (no imports): the build compiles this one file as it is.
 */

/* eslint-disable no-restricted-globals -- the worker passes the browser's own requests on (pages, assets); it calls no route of the API */

/** Filled in by the build: its version and the assets it made (paths from "/"). */
declare const STOA_BUILD: { version: string; assets: string[] };

// The parts of the service worker scope used here (the DOM library the UI is typed with has no WebWorker types).
interface FetchEventLike {
  request: Request;
  respondWith(answer: Promise<Response>): void;
}
interface ExtendableEventLike {
  waitUntil(done: Promise<unknown>): void;
  /** The static routing API (Chromium 123+): requests it names are served without running the worker's script. */
  addRoutes?: (rules: RouterRule[]) => Promise<void>;
}
interface RouterRule {
  condition: { urlPattern?: unknown; requestMode?: 'navigate' };
  source: 'network' | 'race-network-and-fetch-handler' | { cacheName: string };
}
interface WorkerScope {
  addEventListener(type: 'install' | 'activate', fn: (e: ExtendableEventLike) => void): void;
  addEventListener(type: 'fetch', fn: (e: FetchEventLike) => void): void;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  location: Location;
}

const scope = self as unknown as WorkerScope;
const CACHE = `stoa-shell-${STOA_BUILD.version}`;
const SHELL = '/';
/** Never from the cache: the data (API), the file doors (WebDAV, MCP), and the service worker itself. */
const NEVER = ['/api/', '/dav/', '/dav', '/mcp', '/sw.js'];

scope.addEventListener('install', (e) => {
  // Where the browser can, most requests are served without waking the worker (a reload would wait for it to
  // start, bench/README.md): the API and the file doors go to the network (an upload's body goes straight there,
  // its progress stays true); the build's assets come from the kept copy (from the network while it has none);
  // a page races the network against the worker, whose answer is used only when the network fails (offline).
  const Pattern = (globalThis as { URLPattern?: new (init: { pathname: string }) => unknown }).URLPattern;
  if (e.addRoutes && Pattern)
    void e
      .addRoutes([
        ...['/api/*', '/dav', '/dav/*', '/mcp', '/mcp/*'].map((pathname): RouterRule => ({
          condition: { urlPattern: new Pattern({ pathname }) },
          source: 'network',
        })),
        { condition: { urlPattern: new Pattern({ pathname: '/assets/*' }) }, source: { cacheName: CACHE } },
        { condition: { requestMode: 'navigate' }, source: 'race-network-and-fetch-handler' },
      ])
      .catch(() => undefined);
  e.waitUntil(
    caches
      .open(CACHE)
      .then((c) => c.addAll([SHELL, ...STOA_BUILD.assets]))
      .then(() => scope.skipWaiting()),
  );
});

scope.addEventListener('activate', (e) => {
  // An older build's shell and assets go: a release reloads the new ones.
  e.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('stoa-shell-') && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => scope.clients.claim()),
  );
});

scope.addEventListener('fetch', (e) => {
  const req = e.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== scope.location.origin || NEVER.some((p) => url.pathname === p || url.pathname.startsWith(p.endsWith('/') ? p : `${p}/`))) return;
  if (req.mode === 'navigate') {
    // The network first (a new release is seen at once); offline, the kept shell, which routes on the client.
    e.respondWith(
      fetch(req).catch(() =>
        caches
          .open(CACHE)
          .then((c) => c.match(SHELL))
          .then((r) => r ?? Response.error()),
      ),
    );
    return;
  }
  if (url.pathname.startsWith('/assets/')) {
    // Hashed names never change their bytes: the kept copy is the right one.
    e.respondWith(
      caches.open(CACHE).then(async (c) => {
        const kept = await c.match(req);
        if (kept) return kept;
        const res = await fetch(req);
        if (res.ok) await c.put(req, res.clone());
        return res;
      }),
    );
  }
});
