import type { Command } from 'commander';
import { routeIndex } from '@stoa/contract/route-index';
import { action } from '../context.js';
import { print, table } from '../output.js';

/** `stoa locks list|release` (issue 26): WebDAV locks of the project; holders and project admins release them. */
export function registerLocks(program: Command): void {
  const locks = program.command('locks').description('WebDAV locks of the project: who holds what; release a forgotten one');
  locks
    .command('list')
    .description('List the live locks with their holder and expiry')
    .action(
      action(async (api, g) => {
        const list = await api.call(routeIndex.locks.list, { project: api.project });
        print(!!g.json, list, () =>
          list.length === 0
            ? 'No locks.'
            : table([
                ['PATH', 'DEPTH', 'HOLDER', 'EXPIRES', 'TOKEN'],
                ...list.map((l) => [l.path === '' ? '/' : l.path, l.depth, `${l.holder.kind}: ${l.holder.name ?? l.holder.id}`, l.expiresAt, l.token]),
              ]),
        );
      }),
    );
  locks
    .command('release <token>')
    .description('Release a lock by its token (its holder, a project admin or the installation administrator)')
    .action(
      action(async (api, g, token: string) => {
        const l = await api.call(routeIndex.locks.release, { project: api.project, token });
        print(!!g.json, l, () => `Released the lock on ${l.path === '' ? '/' : l.path}`);
      }),
    );
}
