import {
  shareAuthFailures,
  bootstrap,
  checkStores,
  createLoginCode,
  housekeepingOf,
  openPlatform,
  startHousekeeping,
  type Platform,
  type StoaConfig,
} from '@stoa/core';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { startBackgroundPasses, startDatabaseUpkeep } from './background.js';

interface RunningServer {
  app: FastifyInstance;
  platform: Platform;
  url: string;
  adminToken: string | null;
  loginUrl: string;
  close(): Promise<void>;
}

/**
 * Opens the platform, checks that its database and blob store answer (see checkStores), bootstraps a fresh
 * data folder, listens, and starts the background sweeper (expired direct uploads, unreferenced blobs).
 */
export async function startServer(config: StoaConfig, opts: { port: number; host: string; logger?: boolean | 'errors' }): Promise<RunningServer> {
  const platform = await openPlatform(config);
  // The database and the bucket answer before "listening" is printed, or the start stops with their reason.
  try {
    await checkStores(platform);
  } catch (e) {
    await platform.close().catch(() => undefined);
    throw e;
  }
  const boot = await bootstrap(platform);
  // Servers sharing a database count failed credentials together (with one server: a no-op).
  const stopSharing = await shareAuthFailures(platform);
  // An unexpected error is answered as a bare 500 to the client; its cause goes to stderr for the operator.
  const app = await buildApp({ platform, logger: opts.logger ?? 'errors' });
  await app.listen({ port: opts.port, host: opts.host });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : opts.port;
  const shownHost = opts.host === '0.0.0.0' || opts.host === '::' ? '127.0.0.1' : opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  const url = config.publicUrl ?? `http://${shownHost}:${port}`;
  const code = await createLoginCode(platform, boot.adminUserId, { superuser: true });
  // Leftovers of interrupted writes and abandoned uploads are collected at start-up and then periodically.
  const sweep = housekeepingOf(config);
  const stopSweeping = startHousekeeping(platform, {
    intervalMs: sweep.sweepIntervalSeconds * 1000,
    graceMs: sweep.sweepGraceSeconds * 1000,
    onError: (e) => app.log.error({ err: e }, 'sweeper failed'),
  });
  // New PDF and DOCX files and understood files that changed are parsed in the background, then embedded.
  const stopBackground = startBackgroundPasses(platform, { onError: (e, what) => app.log.error({ err: e }, what) });
  const stopUpkeep = startDatabaseUpkeep(platform, { onError: (e) => app.log.error({ err: e }, 'database upkeep failed') });
  return {
    app,
    platform,
    url,
    adminToken: boot.generatedToken,
    loginUrl: `${url}/login?code=${encodeURIComponent(code)}`,
    close: async () => {
      stopSweeping();
      stopBackground();
      await stopUpkeep();
      await stopSharing();
      await app.close();
      await platform.close();
    },
  };
}
