import type { Readable } from 'node:stream';
import { docsRoutes, filesRoutes, searchRoutes, type RouteDef } from '@stoa/contract';
import type { RouteRef } from '@stoa/contract/route-ref';
import {
  agentPrincipal,
  bootstrap,
  callOperation,
  embedPending,
  loadConfig,
  localAdminPrincipal,
  openPlatform,
  processPendingAssets,
  type OpenedFile,
  type Platform,
  type Principal,
} from '@stoa/core';
import type { Api } from './api.js';

interface LocalOptions {
  dataDir?: string;
  project?: string;
  agent?: string;
  conversation?: string;
  env: NodeJS.ProcessEnv;
}

/** Texts embedded before one local search at most; beyond that, newer documents rank by words until later searches. */
const LOCAL_EMBED_MAX = 2000;
/** Rounds of parsing (20 documents each) before one local search at most; the rest waits for later searches. */
const LOCAL_PARSE_ROUNDS = 10;

/**
 * Local mode (§7): the command works in-process on a data folder as its local administrator, or as an
 * agent with --agent, dispatching through the core's operation table — the very operations the server mounts,
 * with the same policy and agent limits.
 */
export async function openLocalApi(opts: LocalOptions): Promise<Api & { platform: Platform; principal: Principal }> {
  const config = loadConfig({ dataDir: opts.dataDir, env: opts.env });
  const platform = await openPlatform(config);
  // No admin token here: nobody would see it, and the first `serve` prints one.
  await bootstrap(platform, { issueToken: false });
  let principal: Principal;
  try {
    principal = opts.agent ? await agentPrincipal(platform, opts.agent) : await localAdminPrincipal(platform);
  } catch (e) {
    await platform.close();
    throw e;
  }
  const call = { platform, principal, context: { conversationId: opts.conversation ?? null, processId: `pid:${process.pid}` } };
  const project = opts.project ?? (principal.kind === 'agent' ? principal.projectId : 'default');
  return {
    mode: 'local',
    project,
    platform,
    principal,
    call: async (route: RouteDef | RouteRef, input: any) => {
      // Local mode has no background process: documents uploaded since the last command are parsed, and what was
      // indexed since gets its vectors (up to LOCAL_EMBED_MAX texts), before a search, so it searches as a server does.
      if (route.id === searchRoutes.all.id || route.id === searchRoutes.results.id || route.id === docsRoutes.search.id) {
        for (let round = 0; round < LOCAL_PARSE_ROUNDS && (await processPendingAssets(platform)) > 0; round++);
        await embedPending(platform, { max: LOCAL_EMBED_MAX });
      }
      return callOperation(call, route.id, input) as Promise<any>;
    },
    upload: (path: string, source: () => Readable, _size: number, o = {}) =>
      callOperation(call, filesRoutes.upload.id, { project, path, expectedVersion: o.expectedVersion }, { source: source() }),
    async download(path: string, o = {}) {
      const f = (await callOperation(call, filesRoutes.download.id, { project, path, version: o.version })) as OpenedFile;
      return { stream: f.stream, size: f.size, name: f.info.name };
    },
    close: () => platform.close(),
  } as Api & { platform: Platform; principal: Principal };
}
