import Fastify, { type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { allRoutes, StoaError } from '@stoa/contract';
import type { Platform } from '@stoa/core';
import { mountJson } from './http/mount.js';
import { mountAuthRoutes } from './http/auth-routes.js';
import { addSecurityHeaders } from './http/security-headers.js';
import { sendProblem } from './http/problem.js';
import { refuseBadlyEncodedUrls } from './http/url-check.js';
import { buildOpenApi } from './http/openapi.js';
import { jsonHandlers } from './routes/index.js';
import { mountDownload } from './routes/files/download.js';
import { mountPreview } from './routes/files/preview.js';
import { mountUploads } from './routes/files/upload.js';
import { mountUploadForm } from './routes/files/upload-form.js';
import { serverExtensions } from './extensions.js';

export interface AppOptions {
  platform: Platform;
  /** Folder of the built web UI; defaults to apps/web/dist when it exists. */
  webRoot?: string | null;
  logger?: boolean;
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
  const app = Fastify({ logger: opts.logger ?? false, bodyLimit: 16 * 1024 * 1024, routerOptions: { maxParamLength: 2048 }, trustProxy: true,
    // A path the router cannot decode (bad percent-encoding) gets a problem answer like any other refusal.
    frameworkErrors: (err, req, reply) => sendProblem(reply, req, err.code === 'FST_ERR_BAD_URL' ? new StoaError('bad_request', 'the URL holds a malformed percent-encoding') : err),
  });
  addSecurityHeaders(app);
  app.setErrorHandler((err, req, reply) => sendProblem(reply, req, err));
  refuseBadlyEncodedUrls(app);
  app.setNotFoundHandler((req, reply) => {
    if (req.url.startsWith('/api/')) return sendProblem(reply, req, new StoaError('not_found', `no route ${req.method} ${req.url.split('?')[0]}`));
    if (webRoot && req.method === 'GET') return reply.sendFile('index.html');
    return sendProblem(reply, req, new StoaError('not_found', 'not found'));
  });

  const openapi = buildOpenApi(allRoutes, { version: '0.1.0' });
  app.get('/api/v1/openapi.json', async () => openapi);
  app.get('/api/v1/health', async () => ({ ok: true, database: platform.db.dialect, storage: platform.blobs.kind }));
  mountAuthRoutes(app, platform);

  for (const h of jsonHandlers) mountJson(app, platform, h);
  mountDownload(app, platform);
  mountPreview(app, platform);
  await app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (_req, _payload, done) => done(null));
    mountUploads(raw, platform);
  });
  await app.register(async (form) => mountUploadForm(form, platform));
  for (const ext of serverExtensions) await ext(app, platform);

  const defaultWeb = fileURLToPath(new URL('../../web/dist/', import.meta.url));
  const webRoot = opts.webRoot === undefined ? (existsSync(defaultWeb) ? defaultWeb : null) : opts.webRoot;
  if (webRoot) await app.register(fastifyStatic, { root: webRoot, prefix: '/', wildcard: false, index: ['index.html'] });
  return app;
}
