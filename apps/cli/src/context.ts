import { Command } from 'commander';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isStoaError, StoaError } from '@stoa/contract/errors';
import { routeIndex } from '@stoa/contract/route-index';
import type { Api } from './api.js';
import { reportError, UsageError } from './output.js';
import { volumeRequest } from './volume-spec.js';

/** Global options every command accepts (§7). */
export interface GlobalOptions {
  data?: string;
  url?: string;
  token?: string;
  project?: string;
  /** A volume beyond projects (R1), e.g. `users` or `knowledges:Handbook`; commands then act on it. */
  volume?: string;
  agent?: string;
  conversation?: string;
  json?: boolean;
}

/** Options of the whole command line: the command's own plus the program's globals. */
export function globalsOf(cmd: Command): GlobalOptions {
  return cmd.optsWithGlobals() as GlobalOptions;
}

/**
 * The data folder of local mode: --data, else STOA_DATA, else the current folder when it is a data folder, else
 * ./stoa-data when it exists (as `npm start` leaves it). Otherwise a usage error: a command run in the wrong place
 * must not quietly create an empty installation there. With STOA_DATABASE_URL the database is elsewhere, and
 * ./stoa-data (created if missing) holds only the local files.
 */
export function localDataDir(g: GlobalOptions, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string {
  const given = g.data ?? env.STOA_DATA;
  if (given) return given;
  if (existsSync(join(cwd, 'stoa.db'))) return cwd;
  if (existsSync(join(cwd, 'stoa-data', 'stoa.db')) || env.STOA_DATABASE_URL) return join(cwd, 'stoa-data');
  throw new UsageError(
    'no data folder here: give --data DIR (local mode; the folder is created if it does not exist) or --url URL (remote mode), or set STOA_DATA or STOA_URL',
  );
}

/**
 * Commands that only read: with --volume knowledges:NAME or skills:NAME they never create the volume
 * (`--volume knowledges:Typo files ls` must not make a knowledge base; issue 32). Anything not listed may
 * write, and creates the volume on first use.
 */
const READ_COMMANDS = new Set([
  'files ls',
  'files find',
  'files stat',
  'files get',
  'files usage',
  'files versions',
  'wiki list',
  'wiki get',
  'wiki search',
  'wiki history',
  'wiki show',
  'wiki diff',
  'memory get',
  'memory search',
  'memory pull',
  'memory history',
  'memory show',
  'memory list',
  'docs status',
  'docs chunks',
  'docs search',
  'search',
  'trash list',
]);

/** The command's name below the program, e.g. "files ls". */
function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** An option given but empty (`--url "$URL"` with URL unset) is a mistake, never a silent fall-back to another mode. */
export function refuseEmptyOptions(g: GlobalOptions): void {
  for (const name of ['url', 'token', 'data', 'project', 'volume'] as const) {
    const v = g[name];
    if (v !== undefined && v.trim() === '')
      throw new UsageError(
        `--${name} is empty (an unset shell variable?)` + (name === 'url' ? ': give the server URL, or leave --url out for local mode on a data folder' : ''),
      );
  }
}

/**
 * Opens the Api for a command: remote with --url (or STOA_URL), otherwise local on the data folder (see
 * localDataDir). Giving both --url and --data is a usage error, and so is an empty --url or --token.
 */
export async function openApi(g: GlobalOptions, env: NodeJS.ProcessEnv = process.env, opts: { readOnly?: boolean } = {}): Promise<Api> {
  refuseEmptyOptions(g);
  if (g.volume) {
    // The server (or the core, locally) resolves the volume for this token; every command then names it by its ID.
    const request = volumeRequest(g.volume, g.project);
    // Only a volume found by name can be mistyped; your own files (users, xperts…) are one per owner, so a
    // read may bring them into being (empty) without surprise.
    const readOnly = opts.readOnly && (request.catalog === 'knowledges' || request.catalog === 'skills');
    const first = await openApi({ ...g, volume: undefined }, env);
    let volumeId: string;
    try {
      volumeId = (await first.call(routeIndex.projects.openVolume, { ...request, ...(readOnly ? { create: false } : {}) })).volumeId;
    } catch (e) {
      if (readOnly && isStoaError(e) && e.code === 'not_found')
        throw new StoaError('not_found', `volume "${g.volume}" does not exist, or you may not see it (a read never creates one; a write does)`);
      throw e;
    } finally {
      await first.close().catch(() => undefined);
    }
    return openApi({ ...g, volume: undefined, project: volumeId }, env);
  }
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
  return openLocalApi({ dataDir: localDataDir({ ...g, data }, env), project: g.project, agent: g.agent, conversation: g.conversation, env });
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
      api = await openApi(g, process.env, { readOnly: READ_COMMANDS.has(commandPath(cmd)) });
      await fn(api, g, ...(args.slice(0, -1) as A));
    } catch (e) {
      process.exitCode = reportError(e, g.json);
    } finally {
      await api?.close().catch(() => undefined);
    }
  };
}
