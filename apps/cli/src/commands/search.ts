import type { Command } from 'commander';
import { searchRoutes } from '@stoa/contract';
import { action } from '../context.js';
import { print, UsageError } from '../output.js';
import { foundBy, searchModeOption, type SearchModeFlag } from './search-mode.js';
import { textArg } from '../text-arg.js';

/** Where in a document a hit is, as `stoa docs validate` takes it. */
const cited = (c: { fileAssetId: string; chunkId: string; version: number; page: number | null } | undefined) =>
  c ? ` [version ${c.version}${c.page ? `, page ${c.page}` : ''}; ${c.fileAssetId}:${c.chunkId}]` : '';

export function registerSearch(program: Command): void {
  program
    .command('search [query]')
    .description('One ranked search over wiki pages, memory files, file contents and understood documents you may read')
    .option('--kind <kinds>', 'only these kinds, comma-separated: wiki,memory,file,document')
    .option('--limit <n>', 'at most N results (default 20)')
    .addOption(searchModeOption())
    .option('--reindex', 'admins: index the contents of every text file again (files stored before the index existed)')
    .action(
      action(async (api, g, query: string | undefined, o: { kind?: string; limit?: string; reindex?: boolean; mode?: SearchModeFlag }) => {
        if (o.reindex) {
          const r = await api.call(searchRoutes.reindex, { project: api.project });
          print(!!g.json, r, () => `Indexed the contents of ${r.files} file(s) again`);
          if (query === undefined) return;
        }
        if (query === undefined) throw new UsageError('give a QUERY (or --reindex)');
        const limit = o.limit !== undefined ? Number(o.limit) : undefined;
        if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw new UsageError(`--limit must be a positive integer, got "${o.limit}"`);
        const hits = await api.call(searchRoutes.all, { project: api.project, q: await textArg(query), kinds: o.kind, limit, mode: o.mode });
        print(!!g.json, hits, () =>
          hits.length === 0
            ? '(no matches)'
            : hits
                .map(
                  (h) =>
                    `[${h.kind}] ${h.path}${h.title && h.title !== h.path ? ` — ${h.title}` : ''}${cited(h.citation)}  (${h.score.toFixed(2)}, ${foundBy(h.matchedBy)})\n  ${h.snippet}`,
                )
                .join('\n'),
        );
      }),
    );
}
