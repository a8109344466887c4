import { execFileSync } from 'node:child_process';
import type { FastifyInstance } from 'fastify';
import type { Limits } from '@stoa/contract';
import { addMember, bootstrap, createToken, newToken, type Role } from '@stoa/core/testing';
import { createTestPlatform, type TestPlatform } from '@stoa/core/testing';
import { buildApp } from '../app.js';

export interface TestApp {
  app: FastifyInstance;
  t: TestPlatform;
  /** A bearer token of the bootstrap admin. */
  adminToken: string;
  /** A bearer token of a member with a role (the user is created on first use). */
  tokenFor(name: string, role: Role): Promise<string>;
  /** `Authorization` header for a token. */
  auth(token: string): { authorization: string };
  /** One request under `/api/v1` with a token; the body parsed as JSON when it is JSON, else the text. */
  api(method: string, url: string, token: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/**
 * Test helper: a fresh platform (see createTestPlatform) behind `buildApp`, without the web UI, plus tokens.
 *
 * @example
 * const s = await createTestApp('sqlite', { quotaBytes: 1000 });
 * const res = await s.app.inject({ url: '/api/v1/projects/default/usage', headers: s.auth(s.adminToken) });
 */
export async function createTestApp(kind: 'sqlite' | 'postgres' = 'sqlite', limits: Partial<Limits> = {}): Promise<TestApp> {
  const t = await createTestPlatform(kind, limits);
  const app = await buildApp({ platform: t.platform, webRoot: null });
  const admin = await t.admin();
  // The installation's own admin token, as `STOA_ADMIN_TOKEN` gives it at `serve`.
  const adminToken = newToken();
  t.platform.config.adminToken = adminToken;
  await bootstrap(t.platform);
  return {
    app,
    t,
    adminToken,
    tokenFor: async (name, role) => {
      await addMember(admin, { user: name, role });
      return (await createToken(admin, { user: name })).token;
    },
    auth: (token) => ({ authorization: `Bearer ${token}` }),
    api: async (method, url, token, body, headers = {}) => {
      const r = await app.inject({
        method: method as 'GET',
        url: `/api/v1${url}`,
        headers: { authorization: `Bearer ${token}`, ...headers },
        ...(body !== undefined ? { payload: body as string } : {}),
      });
      let json: any = null;
      try {
        json = r.json();
      } catch {
        json = r.body;
      }
      return { status: r.statusCode, body: json };
    },
    close: async () => {
      await app.close();
      await t.cleanup();
    },
  };
}

/**
 * Whether Info-ZIP's `unzip` is installed: the zip download tests read the server's zips with a reader its zip
 * library did not write, and skip where there is none (`.ci/run` installs it).
 *
 * @example
 * describe.skipIf(!unzipInstalled())('zip downloads', () => {});
 */
export function unzipInstalled(): boolean {
  try {
    execFileSync('unzip', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
