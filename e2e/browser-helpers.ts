import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { Limits } from '@stoa/contract';
import { createLoginCode, type Ctx } from '@stoa/core';
import { createTestPlatform, type TestPlatform } from '@stoa/core/testing';
import type { EmbeddingsConfig } from '@stoa/core';
import { buildApp } from '@stoa/server';
import type { FastifyInstance } from 'fastify';

const repo = fileURLToPath(new URL('..', import.meta.url));
const webDist = join(repo, 'apps/web/dist');
const CHROMIUM = '/usr/bin/chromium';

/** Whether the browser tests can run here (Chromium installed: the CI installs it, `apt-get install chromium`). */
export const hasChromium = existsSync(CHROMIUM);

/** Builds the UI once when `npm test` has not (a run of only the browser tests). */
function ensureWebBuilt(): void {
  if (existsSync(join(webDist, 'index.html'))) return;
  execFileSync('npm', ['run', 'build', '-w', '@stoa/web', '--silent'], { cwd: repo, stdio: 'inherit' });
}

export interface UiServer {
  url: string;
  t: TestPlatform;
  app: FastifyInstance;
  browser: Browser;
  /** A one-time login link for a user (like the one `stoa serve` prints). */
  loginLink: (userId?: string) => Promise<string>;
  /** A browser context (own storage) signed in as the admin, or as the user of `ctx`. */
  signedIn: (opts?: { as?: Ctx; locale?: string; serviceWorkers?: 'allow' | 'block' }) => Promise<{ context: BrowserContext; page: Page }>;
  close: () => Promise<void>;
}

/**
 * A fresh browser context (own cookies and storage) with the timeouts every browser test uses: a missing element
 * costs 15 s, not the 30 s default, while a navigation gets 60 s, because on a loaded 2-core CI machine a new
 * renderer process loading the UI's scripts has been seen to take longer than 15 s.
 */
export async function newTestContext(
  browser: Browser,
  opts: { locale?: string; viewport?: { width: number; height: number }; acceptDownloads?: boolean; serviceWorkers?: 'allow' | 'block' } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    locale: opts.locale ?? 'en-US',
    viewport: opts.viewport ?? { width: 1280, height: 800 },
    acceptDownloads: opts.acceptDownloads ?? false,
    // The UI's service worker (offline shell) is off unless a test is about it: page.route() does not see the
    // requests of a page a service worker controls.
    serviceWorkers: opts.serviceWorkers ?? 'block',
  });
  context.setDefaultTimeout(15_000);
  context.setDefaultNavigationTimeout(60_000);
  return context;
}

function userIdOf(ctx: Ctx): string {
  if (ctx.actor.kind !== 'user') throw new Error('not a user context');
  return ctx.actor.userId;
}

/**
 * A real server (buildApp on a fresh test platform, listening on a free port, serving the built UI) and a real
 * headless Chromium driven by playwright-core.
 *
 * @example
 * const s = await startUiServer();
 * const { page } = await s.signedIn();
 * await page.getByText('Project files').waitFor();
 */
export async function startUiServer(limits: Partial<Limits> = {}, opts: { embeddings?: EmbeddingsConfig } = {}): Promise<UiServer> {
  ensureWebBuilt();
  const t = await createTestPlatform('sqlite', limits, { embeddings: opts.embeddings });
  const app = await buildApp({ platform: t.platform, webRoot: webDist });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  // playwright-core refuses --user-data-dir in args; it launches every browser on a fresh temporary profile of
  // its own (deleted on close), which is what the flag was for.
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
  const adminId = userIdOf(await t.admin());
  const loginLink = async (userId = adminId) =>
    `${url}/login?code=${encodeURIComponent(await createLoginCode(t.platform, userId, { superuser: userId === adminId }))}`;
  return {
    url,
    t,
    app,
    browser,
    loginLink,
    signedIn: async (opts = {}) => {
      const context = await newTestContext(browser, {
        locale: opts.locale,
        acceptDownloads: true,
        viewport: { width: 1400, height: 900 },
        serviceWorkers: opts.serviceWorkers,
      });
      const page = await context.newPage();
      await page.goto(await loginLink(opts.as ? userIdOf(opts.as) : adminId));
      await page.waitForURL(/\/files$/);
      return { context, page };
    },
    close: async () => {
      await browser.close().catch(() => undefined);
      await app.close();
      await t.cleanup();
    },
  };
}

/** Uploads files through the page's Upload button (the hidden file input behind it). */
export async function uploadViaUi(page: Page, files: Array<{ name: string; body: string | Buffer; type?: string }>): Promise<void> {
  await page
    .locator('[data-testid=upload-input]')
    .setInputFiles(
      files.map((f) => ({ name: f.name, mimeType: f.type ?? 'application/octet-stream', buffer: Buffer.isBuffer(f.body) ? f.body : Buffer.from(f.body) })),
    );
}

/** The table row of a file, by its full path. */
export const fileRow = (page: Page, path: string) => page.locator(`table.files tr[data-path="${path.replace(/"/g, '\\"')}"]`);
