import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDb } from '@stoa/db/testing';
import type { WalSync } from '@stoa/db';
import { createFsBlobStore } from '@stoa/blob';
import { limitSettings, type Limits } from '@stoa/contract';
import { defaultParsingLimits, type EmbeddingsConfig, type ParsingLimits, type StoaConfig } from './config.js';
import { closeParsers } from './understanding/parsing.js';
import { assemblePlatform, type PlatformOptions } from './open-platform.js';
import type { Ctx, Platform } from './platform.js';
import { bootstrap, DEFAULT_PROJECT } from './projects/bootstrap.js';
import { addMember } from './projects/members.js';
import { contextFor, localAdminPrincipal } from './context.js';
import type { Role } from './actors.js';
import { findProject } from './projects/projects.js';

export interface TestPlatform {
  platform: Platform;
  /** The bootstrap admin's context in the default project. */
  admin: () => Promise<Ctx>;
  /** A member with a role (created on first use) in the default project. */
  userCtx: (name: string, role: Role) => Promise<Ctx>;
  /** Context of an agent (optionally in a conversation). */
  agentCtx: (agentId: string, conversationId?: string) => Promise<Ctx>;
  dataDir: string;
  cleanup: () => Promise<void>;
}

/**
 * Test-only (the `@stoa/core/testing` entry, never the production one). A fresh platform for one test: an empty migrated database of the given kind (SQLite file or a new PostgreSQL
 * database that cleanup drops), a temp blob folder, bootstrapped like a fresh data folder. It is wired by
 * `assemblePlatform`, like every door, so tests run with the same hooks as the server.
 *
 * @example
 * const t = await createTestPlatform('sqlite', { quotaBytes: 1000 });
 * const ctx = await t.admin();
 */
export async function createTestPlatform(
  kind: 'sqlite' | 'postgres' = 'sqlite',
  limits: Partial<Limits> = {},
  opts: PlatformOptions & { parsing?: Partial<ParsingLimits>; embeddings?: EmbeddingsConfig; syncWal?: WalSync; indexDelayMs?: number } = {},
): Promise<TestPlatform> {
  const dataDir = mkdtempSync(join(tmpdir(), 'stoa-test-'));
  const { db, cleanup: dropDb, url, file } = await createTestDb(kind, { syncWal: opts.syncWal });
  const all = Object.fromEntries(Object.entries(limitSettings).map(([k, s]) => [k, s.default])) as Limits;
  const config: StoaConfig = {
    dataDir,
    database: kind === 'sqlite' ? { kind: 'sqlite', file: file! } : { kind: 'postgres', url: url! },
    storage: { kind: 'fs', root: join(dataDir, 'blobs') },
    limits: { ...all, ...limits },
    parsing: defaultParsingLimits(opts.parsing),
    embeddings: opts.embeddings,
    ...(opts.indexDelayMs !== undefined ? { indexDelayMs: opts.indexDelayMs } : {}),
  };
  // `cleanup` owns the database (it drops it), so closing the platform — as a server stopping does — leaves it open.
  const wired = assemblePlatform({ db, blobs: createFsBlobStore({ root: join(dataDir, 'blobs') }), config, clock: opts.clock, hooks: opts.hooks });
  const platform: Platform = { ...wired, close: async () => undefined };
  await bootstrap(platform);
  const principal = await localAdminPrincipal(platform);
  return {
    platform,
    dataDir,
    admin: () => contextFor(platform, principal, {}),
    userCtx: async (name, role) => {
      const admin = await contextFor(platform, principal, {});
      const m = await addMember(admin, { user: name, role });
      return contextFor(platform, { kind: 'user', userId: m.userId, name, superuser: false }, {});
    },
    agentCtx: async (agentId, conversationId) => {
      const project = await findProject(platform, DEFAULT_PROJECT);
      return contextFor(platform, { kind: 'agent', agentId, projectId: project.id }, { conversationId: conversationId ?? null });
    },
    cleanup: async () => {
      await platform.outbox.idle();
      await closeParsers(platform);
      await platform.embeddings?.close?.();
      await dropDb();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** What must hold after any change (usage, versions, folders), for tests of every door. */
export { storeViolations } from './files/test-invariants.js';
export * from './internal.js';
/** Many files at once, with the rows a write leaves (benchmarks and scale tests). */
export { fillProject } from './files/bulk-fill.js';
/** Small real PDF and DOCX files, for tests of every door that upload documents. */
export { makeDocx, makePdf } from './understanding/test-documents.js';
