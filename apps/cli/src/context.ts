import { Command } from 'commander';
import type { Api } from './api.js';
import { reportError, UsageError } from './output.js';

/** Global options every command accepts (§7). */
export interface GlobalOptions {
  data?: string;
  url?: string;
  token?: string;
  project?: string;
  agent?: string;
  conversation?: string;
  json?: boolean;
}

/** Options of the whole command line: the command's own plus the program's globals. */
export function globalsOf(cmd: Command): GlobalOptions {
  return cmd.optsWithGlobals() as GlobalOptions;
}

/**
 * Opens the Api for a command: remote with --url (or STOA_URL), otherwise local on --data (or STOA_DATA, or
 * ./stoa-data). Exactly one is used; giving both is a usage error.
 */
export async function openApi(g: GlobalOptions, env: NodeJS.ProcessEnv = process.env): Promise<Api> {
  const url = g.url ?? env.STOA_URL;
  const data = g.data ?? env.STOA_DATA;
  if (g.url && g.data) throw new UsageError('give either --url (remote mode) or --data (local mode), not both');
  // Loaded on demand: remote mode needs only the SDK, so it does not pay for loading the core, the database
  // drivers and the server (most of a command's start-up time).
  if (url && !g.data) {
    const { openRemoteApi } = await import('./remote-api.js');
    return openRemoteApi({ url, token: g.token ?? env.STOA_TOKEN, project: g.project, conversation: g.conversation, env });
  }
  const { openLocalApi } = await import('./local-api.js');
  return openLocalApi({ dataDir: data, project: g.project, agent: g.agent, conversation: g.conversation, env });
}

/**
 * Wraps a command action: opens the Api, runs, closes, and turns errors into `error <code>: <message>` with
 * the exit status of §7.
 */
export function action<A extends unknown[]>(fn: (api: Api, g: GlobalOptions, ...args: A) => Promise<void>) {
  return async (...args: unknown[]) => {
    const cmd = args[args.length - 1] as Command;
    const g = globalsOf(cmd);
    let api: Api | undefined;
    try {
      api = await openApi(g);
      await fn(api, g, ...(args.slice(0, -1) as A));
    } catch (e) {
      process.exitCode = reportError(e);
    } finally {
      await api?.close().catch(() => undefined);
    }
  };
}
