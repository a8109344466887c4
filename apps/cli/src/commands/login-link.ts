import type { Command } from 'commander';
import { routeIndex } from '@stoa/contract/route-index';
import { action } from '../context.js';
import { print } from '../output.js';

/**
 * `stoa login-link`: a fresh one-time link that signs the installation administrator in to the web UI (issue 32),
 * so a lost link needs no restart. Remote: on the --url server. Local: on STOA_PUBLIC_URL, else the address
 * `serve` uses by default.
 */
export function registerLoginLink(program: Command): void {
  program
    .command('login-link')
    .description('Print a fresh one-time link that signs the installation administrator in to the web UI (valid 15 minutes)')
    .action(
      action(async (api, g) => {
        const r = await api.call(routeIndex.admin.loginLink, {});
        const base = (g.url ?? process.env.STOA_URL ?? process.env.STOA_PUBLIC_URL ?? 'http://127.0.0.1:8080').replace(/(?<!\/)\/+$/, '');
        const url = `${base}${r.path}`;
        print(!!g.json, { url, expiresInSeconds: r.expiresInSeconds }, () => url);
      }),
    );
}
