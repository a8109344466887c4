import type { Command } from 'commander';
import type { RouteInput, RouteOutput, searchRoutes } from '@stoa/contract';
import { routeIndex } from '@stoa/contract/route-index';
import type { Api } from '../api.js';
import { action } from '../context.js';
import { print, UsageError } from '../output.js';
import { foundBy, searchModeOption, type SearchModeFlag } from './search-mode.js';
import { textArg } from '../text-arg.js';

/** Where in a document a hit is, as `stoa docs validate` takes it. */
const cited = (c: { fileAssetId: string; chunkId: string; version: number; page: number | null } | undefined) =>
  c ? ` [version ${c.version}${c.page ? `, page ${c.page}` : ''}; ${c.fileAssetId}:${c.chunkId}]` : '';

type Hits = RouteOutput<typeof searchRoutes.results>;

/** "12 wiki · 3 memory · 100+ file · 0 document" (counts stop at 100). */
const countLine = (counts: Hits['counts']) =>
  Object.entries(counts)
    .map(([k, n]) => `${n >= 100 ? '100+' : n} ${k}`)
    .join(' · ');

/** Up to `limit` hits, a page at a time: each page's cursor asks for the next until there are enough or no more. */
async function searchPages(
  api: Api,
  input: Omit<RouteInput<typeof searchRoutes.results>, 'project' | 'limit' | 'cursor'>,
  limit: number,
): Promise<{ hits: Hits['hits']; counts: Hits['counts'] }> {
  const hits: Hits['hits'] = [];
  let cursor: string | undefined;
  let counts: Hits['counts'] = { wiki: 0, memory: 0, file: 0, document: 0 };
  do {
    const page = await api.call(routeIndex.search.results, { ...input, project: api.project, limit: Math.min(100, limit - hits.length), cursor });
    hits.push(...page.hits);
    if (!cursor) counts = page.counts;
    cursor = page.nextCursor ?? undefined;
  } while (cursor && hits.length < limit);
  return { hits, counts };
}

export function registerSearch(program: Command): void {
  program
    .command('search [query]')
    .description('One ranked search over wiki pages, memory files, file contents and understood documents you may read')
    .option('--kind <kinds>', 'only these kinds, comma-separated: wiki,memory,file,document')
    .option('--limit <n>', 'at most N results (default 20); more than a page (100) follows the cursors')
    .addOption(searchModeOption())
    .option('--reindex', 'admins: index the contents of every text file again (files stored before the index existed)')
    .action(
      action(async (api, g, query: string | undefined, o: { kind?: string; limit?: string; reindex?: boolean; mode?: SearchModeFlag }) => {
        if (o.reindex) {
          const r = await api.call(routeIndex.search.reindex, { project: api.project });
          print(!!g.json, r, () => `Indexed the contents of ${r.files} file(s) again`);
          if (query === undefined) return;
        }
        if (query === undefined) throw new UsageError('give a QUERY (or --reindex)');
        const limit = o.limit !== undefined ? Number(o.limit) : undefined;
        if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw new UsageError(`--limit must be a positive integer, got "${o.limit}"`);
        const { hits, counts } = await searchPages(api, { q: await textArg(query), kinds: o.kind, mode: o.mode }, limit ?? 20);
        print(!!g.json, hits, () =>
          hits.length === 0
            ? '(no matches)'
            : hits
                .map(
                  (h) =>
                    `[${h.kind}] ${h.path}${h.title && h.title !== h.path ? ` — ${h.title}` : ''}${cited(h.citation)}  (${h.score.toFixed(2)}, ${foundBy(h.matchedBy)})\n  ${h.snippet}`,
                )
                .join('\n') + `\n(${countLine(counts)})`,
        );
      }),
    );
}
