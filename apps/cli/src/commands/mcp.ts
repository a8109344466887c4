import type { Command } from 'commander';
import { isStoaError } from '@stoa/contract/errors';
import { routeIndex } from '@stoa/contract/route-index';
import type { AnyToolDef, Principal } from '@stoa/core';
import type { McpBackend, McpCallOutcome } from '@stoa/server/mcp-server';
import { globalsOf, localDataDir, refuseEmptyOptions } from '../context.js';
import { reportError, UsageError } from '../output.js';
import { volumeRequest } from '../volume-spec.js';

/**
 * Errors around a call (the agent was deleted, its token revoked, the server is down) reach the model as a
 * refusal too, so it can tell the user instead of the client showing a protocol error.
 */
async function asRefusal(fn: () => Promise<McpCallOutcome>): Promise<McpCallOutcome> {
  try {
    return await fn();
  } catch (e) {
    if (isStoaError(e)) return { text: `Refused: ${e.message}`, refused: true, code: e.code };
    return { text: 'Refused: the Stoa server could not be reached; try again later', refused: true, code: 'unavailable' };
  }
}

/**
 * The backend with its calls in flight tracked, so closing stdin (the client is done sending) still lets every
 * call already received finish and its answer reach stdout before the process ends.
 */
function draining(backend: McpBackend): { backend: McpBackend; drained: () => Promise<void> } {
  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>): Promise<T> => {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p)).catch(() => undefined);
    return p;
  };
  return {
    backend: { project: () => backend.project(), listTools: () => track(backend.listTools()), callTool: (n, a) => track(backend.callTool(n, a)) },
    drained: async () => {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
      // The transport writes an answer right after its handler settles: give it that turn.
      await new Promise((r) => setImmediate(r));
    },
  };
}

/** A backend whose calls wait until it has opened. */
function deferred(opening: Promise<{ backend: McpBackend }>): McpBackend {
  return {
    project: async () => (await opening).backend.project(),
    listTools: async () => (await opening).backend.listTools(),
    callTool: async (name, args) => (await opening).backend.callTool(name, args),
  };
}

/** Local: the core in-process on the data folder, as the agent; each call gets a fresh context (R3). */
async function localBackend(
  g: ReturnType<typeof globalsOf> & { agent: string },
  published: boolean,
): Promise<{ backend: McpBackend; close: () => Promise<void> }> {
  // Loaded here, not at the top: other commands should not pay for loading the core (see commands/serve.ts).
  const { callOperation, contextFor, runOperation } = await import('@stoa/core');
  const { openLocalApi } = await import('../local-api.js');
  const api = await openLocalApi({ dataDir: localDataDir(g), project: g.project, agent: g.agent, conversation: g.conversation, env: process.env });
  const principal: Principal = published && api.principal.kind === 'agent' ? { ...api.principal, published: true } : api.principal;
  // --volume: the agent works in a volume beyond its project (R1), e.g. its own files (`--volume xperts`).
  const project = g.volume
    ? ((await callOperation({ platform: api.platform, principal }, 'volumes.open', volumeRequest(g.volume, g.project))) as { volumeId: string }).volumeId
    : undefined;
  const opts = { conversationId: g.conversation ?? null, processId: `stoa-mcp:${process.pid}`, project };
  // Fail at start-up, not at the first call, when the agent or conversation is wrong.
  const started = await contextFor(api.platform, principal, opts);
  return {
    backend: {
      project: async () => started.project.id,
      // Through the operation table, as at every door: the tool routes' operations.
      listTools: async () => (await runOperation(await contextFor(api.platform, principal, opts), 'tools.list', { format: 'mcp' })) as AnyToolDef[],
      callTool: (name, args) =>
        asRefusal(async () => (await runOperation(await contextFor(api.platform, principal, opts), 'tools.call', { name, arguments: args })) as McpCallOutcome),
    },
    close: () => api.close(),
  };
}

/** Remote: every call goes to the server's tool route with the agent's token (`stoa mcp --url U --token T`). */
async function remoteBackend(url: string, token: string, g: ReturnType<typeof globalsOf>): Promise<{ backend: McpBackend; close: () => Promise<void> }> {
  const [{ StoaClient }, { jsonFetch }] = await Promise.all([import('@stoa/sdk/client'), import('../json-http.js')]);
  // Every call here is JSON: no need for the global fetch (see json-http.ts).
  const client = new StoaClient({ url, token, conversationId: g.conversation, fetch: jsonFetch });
  const me = await client.call(routeIndex.projects.me, {});
  const project = g.volume
    ? (await client.call(routeIndex.projects.openVolume, volumeRequest(g.volume, g.project))).volumeId
    : (g.project ?? me.projectId ?? 'default');
  let tools: AnyToolDef[] | null = null;
  return {
    backend: {
      project: async () => project,
      listTools: async () => (tools ??= (await client.call(routeIndex.tools.list, { project, format: 'mcp' })) as AnyToolDef[]),
      callTool: (name, args) => asRefusal(() => client.call(routeIndex.tools.call, { project, name, arguments: args, conversation: g.conversation })),
    },
    close: async () => undefined,
  };
}

/**
 * `stoa mcp`: an MCP server on stdio for one agent — local (`--data DIR --agent A --conversation C`) or remote
 * (`--url U --token AGENT_TOKEN --conversation C`, proxying each call to the HTTP API). Nothing but MCP is
 * written to stdout; diagnostics go to stderr.
 */
export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description('Serve the agent file tools over MCP on stdio (local with --agent, or remote with --url/--token)')
    .option('--published', "local mode: act with the settings frozen at the agent's publication")
    // --agent, --conversation, --url, --token and --data are the program's options, but they are how this command
    // is used: show them in its help (issue 32).
    .configureHelp({ showGlobalOptions: true })
    .action(async (o: { published?: boolean }, cmd: Command) => {
      const g = globalsOf(cmd);
      const url = g.url ?? process.env.STOA_URL;
      try {
        refuseEmptyOptions(g);
        if (g.url && g.data) throw new UsageError('give either --url (remote mode) or --data (local mode), not both');
        const remote = url && !g.data ? url : undefined;
        const token = g.token ?? process.env.STOA_TOKEN;
        if (remote && !token) throw new UsageError('stoa mcp --url needs --token AGENT_TOKEN (or STOA_TOKEN)');
        const agent = g.agent;
        if (!remote && !agent) throw new UsageError('stoa mcp in local mode needs --agent AGENT_ID (and usually --conversation CONV_ID)');
        // `initialize` is answered from static facts (server info, capabilities), so the MCP server and its
        // transport load and answer it first; the backend (the core, the database, migrations — or the remote
        // server's first calls) opens just after, and tools/list, tools/call and resources wait for it. Loading both at
        // once would make the client's first answer wait for the core too (bench/README.md, "MCP": start-up).
        const [{ createStoaMcpServer }, { StdioServerTransport }] = await Promise.all([
          import('@stoa/server/mcp-server'),
          import('@modelcontextprotocol/sdk/server/stdio.js'),
        ]);
        let startOpening!: () => void;
        const opening = new Promise<void>((resolve) => (startOpening = resolve)).then(() =>
          remote ? remoteBackend(remote, token!, g) : localBackend({ ...g, agent: agent! }, !!o.published),
        );
        let closing = false;
        // A wrong agent, conversation or token still ends the process at once with the error.
        opening.catch((e: unknown) => {
          closing = true;
          process.exit(reportError(e));
        });
        const { backend, drained } = draining(deferred(opening));
        const close = () => opening.then((opened) => opened.close());
        const server = createStoaMcpServer(backend);
        const transport = new StdioServerTransport();
        const stop = async (finishInFlight: boolean) => {
          if (closing) return;
          closing = true;
          startOpening();
          if (finishInFlight) await drained();
          await server.close().catch(() => undefined);
          await close().catch(() => undefined);
          process.exit(0);
        };
        process.stdin.once('end', () => void stop(true));
        process.stdin.once('close', () => void stop(true));
        process.once('SIGINT', () => void stop(false));
        process.once('SIGTERM', () => void stop(true));
        await server.connect(transport);
        // After one turn of the event loop: an `initialize` already waiting on stdin is read and answered first.
        setImmediate(startOpening);
      } catch (e) {
        process.exitCode = reportError(e);
      }
    });
}
