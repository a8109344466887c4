import type { Command } from 'commander';
import { formatBytes } from '@stoa/contract/format';
import { routeIndex } from '@stoa/contract/route-index';
import { action } from '../context.js';
import { print, table } from '../output.js';

/**
 * `stoa trash list|restore|purge` (issue 29): what was deleted in the project (or, with --volume, the volume), put
 * back, or deleted forever by an admin.
 */
export function registerTrash(program: Command): void {
  const trash = program.command('trash').description('Deleted files and folders: list them, restore one, or delete one forever');
  trash
    .command('list')
    .description('List the trash, newest deletion first: who deleted what, when, and until when it is kept')
    .option('--limit <n>', 'entries to show (default 100)')
    .action(
      action(async (api, g, opts: { limit?: string }) => {
        const r = await api.call(routeIndex.trash.list, { project: api.project, limit: opts.limit ? Number(opts.limit) : undefined });
        print(!!g.json, r, () =>
          r.items.length === 0
            ? 'The trash is empty.'
            : table([
                ['ID', 'PATH', 'SIZE', 'DELETED', 'BY', 'KEPT UNTIL'],
                ...r.items.map((i) => [
                  i.id,
                  i.kind === 'folder' ? `${i.path}/ (${i.files} files)` : i.path,
                  formatBytes(i.size),
                  i.deletedAt,
                  i.deletedBy.kind === 'user' ? (i.deletedBy.label ?? '') : `agent: ${i.deletedBy.label ?? i.deletedBy.id ?? ''}`,
                  i.expiresAt,
                ]),
              ]),
        );
      }),
    );
  trash
    .command('restore <id>')
    .description('Restore an entry with its versions; beside the original ("x (restored).md") when that path is taken')
    .action(
      action(async (api, g, id: string) => {
        const r = await api.call(routeIndex.trash.restore, { project: api.project, id });
        print(!!g.json, r, () => r.text);
      }),
    );
  trash
    .command('purge <id>')
    .description('Delete an entry forever, with all its versions (admins of the project or volume)')
    .action(
      action(async (api, g, id: string) => {
        const r = await api.call(routeIndex.trash.purge, { project: api.project, id });
        print(!!g.json, r, () => `Deleted ${r.path} forever`);
      }),
    );
}
