import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fastifyStatic from '@fastify/static';
import fastifyCompress from '@fastify/compress';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { StoaError, systemRoutes } from '@stoa/contract';
import { operations, type Platform } from '@stoa/core';
import { mountOperation } from './http/mount.js';
import { mountAuthRoutes } from './http/auth-routes.js';
import { mountSignInRoutes } from './http/sign-in-routes.js';
import { addSecurityHeaders } from './http/security-headers.js';
import { refuseCrossSiteChanges } from './http/origin-check.js';
import { sendProblem } from './http/problem.js';
import { refuseBadlyEncodedUrls } from './http/url-check.js';
import { limitJsonBodies } from './http/json-body.js';
import { apiDocument, apiRoutes } from './http/openapi.js';
import { allowedMethodsFor } from './http/allowed-methods.js';
import { fastifyPath } from './http/mount.js';
import { mountDownload, mountSignedLinks } from './routes/files/download.js';
import { mountPreview, mountThumbnails } from './routes/files/preview.js';
import { mountArchive } from './routes/files/archive.js';
import { mountUploads } from './routes/files/upload.js';
import { mountUploadForm } from './routes/files/upload-form.js';
import { serverExtensions } from './extensions.js';
import { boundClose } from './http/close-deadline.js';
import { answerClientError } from './http/client-errors.js';

export interface AppOptions {
  platform: Platform;
  /** Folder of the built web UI; defaults to apps/web/dist when it exists. */
  webRoot?: string | null;
  /** true: every request; 'errors': only unexpected errors (500s), on stderr, as `stoa serve` runs; false: nothing. */
  logger?: boolean | 'errors';
  /** How long closing waits for requests in flight before it cuts their connections (close-deadline.ts). */
  closeGraceMs?: number;
}

/**
 * Assets under `assets/` carry a hash of their content in their name (Vite; `.br`/`.gz` beside them), so a browser may keep them for good;
 * everything else, `index.html` first, is revalidated so a new release is picked up at the next load.
 *
 * @example
 * webCacheControl('/srv/web/assets/index-BKWxlTET.js') // 'public, max-age=31536000, immutable'
 */
function webCacheControl(path: string): string {
  // Read in parts rather than by one pattern, which could backtrack super-linearly (issue 27).
  const parts = path.split(/[\\/]/);
  const name = parts.pop() ?? '';
  const dot = name.indexOf('.');
  const stem = dot < 0 ? name : name.slice(0, dot);
  const dash = stem.indexOf('-', 1);
  const hashed = parts.pop() === 'assets' && dash > 0 && /^[\w-]{8,}$/.test(stem.slice(dash + 1)) && /^(?:\.\w+)+$/.test(name.slice(stem.length));
  return hashed ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/**
 * Builds the HTTP server: `/api/v1` (JSON routes from the contract, raw file routes), the OpenAPI document,
 * the web UI at `/`, and whatever areas register in `serverExtensions` (MCP, WebDAV…).
 *
 * @example
 * const app = await buildApp({ platform });
 * const res = await app.inject({ url: '/api/v1/openapi.json' });
 */
export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const { platform } = opts;
  // Whose X-Forwarded-* to believe is configured (STOA_TRUST_PROXY); by default nobody's, so a client cannot
  // choose the address the auth throttle counts.
  const options: FastifyServerOptions = {
    logger: opts.logger === 'errors' ? { level: 'error', stream: process.stderr } : (opts.logger ?? false),
    // Parsed bodies (JSON, text) are small by design; uploads stream past this through their own parsers.
    bodyLimit: platform.config.limits.jsonBodyBytes,
    routerOptions: { maxParamLength: 2048 },
    trustProxy: platform.config.trustProxy ?? false,
    // A path the router cannot decode (bad percent-encoding) gets a problem answer like any other refusal.
    frameworkErrors: (err, req, reply) =>
      sendProblem(reply, req, err.code === 'FST_ERR_BAD_URL' ? new StoaError('bad_request', 'the URL holds a malformed percent-encoding') : err),
    // And so does a request the HTTP parser refuses before any route (headers too large, malformed, late).
    clientErrorHandler: answerClientError,
  };
  const app = Fastify(options);
  boundClose(app, opts.closeGraceMs);
  addSecurityHeaders(app);
  refuseCrossSiteChanges(app, platform);
  app.setErrorHandler((err, req, reply) => sendProblem(reply, req, err));
  refuseBadlyEncodedUrls(app);
  limitJsonBodies(app, platform.config.limits.jsonBodyBytes);
  const allowedMethods = allowedMethodsFor(apiRoutes());
  app.setNotFoundHandler((req, reply) => {
    if (req.url.startsWith('/api/')) {
      const urlPath = req.url.split('?')[0]!;
      const allowed = allowedMethods(urlPath);
      if (allowed.length > 0) {
        reply.header('Allow', allowed.join(', '));
        return sendProblem(reply, req, new StoaError('method_not_allowed', `${req.method} is not served at ${urlPath}; use ${allowed.join(', ')}`));
      }
      return sendProblem(reply, req, new StoaError('not_found', `no route ${req.method} ${urlPath}`));
    }
    if (webRoot && req.method === 'GET') return reply.header('cache-control', 'no-cache').sendFile('index.html');
    return sendProblem(reply, req, new StoaError('not_found', 'not found'));
  });

  // JSON answers opt in per route (mountOperation): downloads, ranges, previews and WebDAV stream bytes with their
  // own length and must reach the client as stored.
  await app.register(fastifyCompress, { global: false });

  // Built on the first request for it, not at start: hundreds of kB of JSON schema an idle server need not hold
  // (issue 31: idle memory). Compressed like every JSON answer (mountOperation): many repeated keys.
  let openapi: ReturnType<typeof apiDocument> | undefined;
  app.get(
    '/api/v1' + fastifyPath(systemRoutes.openapi.path),
    { compress: { threshold: 1024, encodings: ['br', 'gzip'] } },
    async () => (openapi ??= apiDocument()),
  );
  app.get('/api/v1' + fastifyPath(systemRoutes.health.path), async () => ({ ok: true, database: platform.db.dialect, storage: platform.blobs.kind }));
  // What a client needs to choose an upload's way as this server does (issue 29); no project's data.
  const { directUploadBytes, uploadPartBytes } = platform.config.limits;
  app.get('/api/v1' + fastifyPath(systemRoutes.limits.path), async () => ({ directUploadBytes, uploadPartBytes }));
  mountAuthRoutes(app, platform);
  mountSignInRoutes(app, platform);

  // Every JSON operation of the core's table; the raw ones (bytes in or out) have their own mounts below, the public
  // ones (session cookie, client address) theirs in auth-routes.ts.
  for (const op of operations) if (!op.route.raw && op.scope !== 'public') mountOperation(app, platform, op);
  mountDownload(app, platform);
  mountSignedLinks(app, platform);
  mountPreview(app, platform);
  mountThumbnails(app, platform);
  mountArchive(app, platform);
  await app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (_req, _payload, done) => done(null));
    mountUploads(raw, platform);
  });
  await app.register(async (form) => mountUploadForm(form, platform));
  for (const ext of serverExtensions) await ext(app, platform);

  const defaultWeb = fileURLToPath(new URL('../../web/dist/', import.meta.url));
  const webRoot = opts.webRoot === undefined ? (existsSync(defaultWeb) ? defaultWeb : null) : opts.webRoot;
  if (webRoot) {
    await app.register(fastifyStatic, {
      root: webRoot,
      prefix: '/',
      wildcard: false,
      index: ['index.html'],
      // Brotli or gzip files written beside each asset at build time (scripts/compress-web.mjs).
      preCompressed: true,
      cacheControl: false,
      setHeaders: (res, path) => {
        res.setHeader('cache-control', webCacheControl(path));
        // A cache between us and the browser must not hand brotli to a client that asked for gzip only.
        res.setHeader('vary', 'accept-encoding');
      },
    });
  }
  return app;
}
