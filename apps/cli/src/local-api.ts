import type { Readable } from 'node:stream';
import { filesRoutes, StoaError, type RouteDef } from '@stoa/contract';
import { bootstrap, contextFor, loadConfig, localAdminPrincipal, openFile, openPlatform, putFile, type Platform, type Principal } from '@stoa/core';
// Only the handler table: local mode must not load the HTTP server (Fastify, MCP) to run one command.
import { handlersById } from '@stoa/server/handlers';
import type { Api } from './api.js';

export interface LocalOptions {
  dataDir?: string;
  project?: string;
  agent?: string;
  conversation?: string;
  env: NodeJS.ProcessEnv;
}

/**
 * Local mode (§7): the command works in-process on a data folder as its local administrator, or as an
 * agent with --agent, calling the very handlers the server mounts.
 */
export async function openLocalApi(opts: LocalOptions): Promise<Api & { platform: Platform; principal: Principal }> {
  const config = loadConfig({ dataDir: opts.dataDir, env: opts.env });
  const platform = await openPlatform(config);
  await bootstrap(platform);
  let principal: Principal = await localAdminPrincipal(platform);
  if (opts.agent) {
    const a = await platform.db.kysely.selectFrom('agents').select(['id', 'project_id']).where('id', '=', opts.agent).where('deleted_at', 'is', null).executeTakeFirst();
    if (!a) {
      await platform.close();
      throw new StoaError('not_found', `agent "${opts.agent}" does not exist`);
    }
    principal = { kind: 'agent', agentId: a.id, projectId: a.project_id };
  }
  const ctxOpts = { project: opts.project, conversationId: opts.conversation ?? null, processId: `pid:${process.pid}` };
  const ctx = () => contextFor(platform, principal, ctxOpts);
  const project = opts.project ?? (principal.kind === 'agent' ? principal.projectId : 'default');
  return {
    mode: 'local',
    project,
    platform,
    principal,
    async call(route: RouteDef, input: any) {
      const h = handlersById.get(route.id);
      if (!h) throw new StoaError('internal', `no handler for ${route.id}`);
      const parsed = route.input.parse(input) as any;
      if (h.scope === 'project') return h.run(await contextFor(platform, principal, { ...ctxOpts, project: parsed.project }), parsed);
      return h.run({ platform, principal }, parsed);
    },
    async upload(path: string, source: () => Readable, _size: number, o = {}) {
      return putFile(await ctx(), { path, source: source(), expectedVersion: o.expectedVersion });
    },
    async download(path: string, o = {}) {
      const f = await openFile(await ctx(), path, { version: o.version });
      return { stream: f.stream, size: f.size, name: f.info.name };
    },
    close: () => platform.close(),
  } as Api & { platform: Platform; principal: Principal };
}

export { filesRoutes };
