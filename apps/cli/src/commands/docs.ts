import { foundBy, searchModeOption, type SearchModeFlag } from './search-mode.js';
import type { Command } from 'commander';
import { describeVectorIndex } from '@stoa/contract/format';
import { routeIndex } from '@stoa/contract/route-index';
import { action } from '../context.js';
import { print, table, UsageError } from '../output.js';
import { textArg } from '../text-arg.js';

function positiveInt(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${name} must be a positive integer, got "${v}"`);
  return n;
}

function statusLine(s: {
  path: string;
  version: number;
  status: string;
  vectorIndexStatus: string;
  chunkCount: number;
  error: string | null;
  fileAssetId: string;
}): string {
  return `${s.path} (version ${s.version}, asset ${s.fileAssetId}): ${s.status}, ${s.chunkCount} chunks; vector index ${describeVectorIndex(s.vectorIndexStatus)}${s.error ? `; ${s.error}` : ''}`;
}

/** `stoa docs …`: file understanding (R6) — parse, chunk, search, validate citations. */
export function registerDocs(program: Command): void {
  const docs = program.command('docs').description('Understand documents: parse, chunk, search and cite');
  docs
    .command('understand <path>')
    .description('Parse and index a file (text, PDF, DOCX)')
    .option('--wait', 'wait until parsing is done (parsing runs as part of the command, so this is always so)')
    .option('--mode <mode>', 'parser: auto | text | pdf | docx', 'auto')
    .action(
      action(async (api, g, path: string, opts: { mode: string }) => {
        const s = await api.call(routeIndex.docs.understand, { project: api.project, path, parseMode: opts.mode as 'auto' });
        print(!!g.json, s, () => statusLine(s));
        if (s.status === 'failed') process.exitCode = 1;
      }),
    );
  docs
    .command('status <path>')
    .description('Parse and vector-index status of a file')
    .action(
      action(async (api, g, path: string) => {
        const s = await api.call(routeIndex.docs.status, { project: api.project, path });
        print(!!g.json, s, () => statusLine(s));
      }),
    );
  docs
    .command('retry <path>')
    .description('Parse a failed file again')
    .action(
      action(async (api, g, path: string) => {
        const s = await api.call(routeIndex.docs.retry, { project: api.project, path });
        print(!!g.json, s, () => statusLine(s));
      }),
    );
  docs
    .command('chunks <path>')
    .description("A page of a file's chunks")
    .option('--page <n>', 'page, from 1', '1')
    .option('--page-size <n>', 'chunks per page (the host answers at most 50)', '20')
    .action(
      action(async (api, g, path: string, opts: { page: string; pageSize: string }) => {
        const r = await api.call(routeIndex.docs.chunks, {
          project: api.project,
          path,
          page: positiveInt('--page', opts.page),
          pageSize: positiveInt('--page-size', opts.pageSize),
        });
        print(!!g.json, r, () =>
          [
            ...r.chunks.map((c) => `[${c.index}] ${c.chunkId}${c.page ? ` p.${c.page}` : ''} ${c.span.start}–${c.span.end}\n${c.text}\n`),
            r.hasMore ? `(more: --page ${r.page + 1})` : '(end)',
          ].join('\n'),
        );
      }),
    );
  docs
    .command('search <query>')
    .description('Search document chunks; hits are citations (file, version, span, hash)')
    .option('--file <path>', 'only this file')
    .option('--limit <n>', 'hits (the host answers at most 50)', '10')
    .option('--content-length <n>', 'characters of chunk text per hit (the host cuts at 4000)')
    .addOption(searchModeOption())
    .action(
      action(async (api, g, query: string, opts: { file?: string; limit: string; contentLength?: string; mode?: SearchModeFlag }) => {
        const hits = await api.call(routeIndex.docs.search, {
          project: api.project,
          q: await textArg(query),
          file: opts.file,
          limit: positiveInt('--limit', opts.limit),
          contentLength: opts.contentLength !== undefined ? Number(opts.contentLength) : undefined,
          mode: opts.mode,
        });
        print(!!g.json, hits, () =>
          hits.length === 0
            ? '(no matches)'
            : hits
                .map(
                  (h) =>
                    `${h.path}${h.page ? ` p.${h.page}` : ''}  ${h.score.toFixed(2)} (${foundBy(h.matchedBy)})  ${h.fileAssetId}:${h.chunkId}\n  ${h.snippet}`,
                )
                .join('\n'),
        );
      }),
    );
  docs
    .command('validate <refs...>')
    .description('Re-check citations given as ASSET:CHUNK')
    .action(
      action(async (api, g, refs: string[]) => {
        const references = refs.map((r) => {
          const [fileAssetId, chunkId, ...rest] = r.split(':');
          if (!fileAssetId || !chunkId || rest.length) throw new UsageError(`reference must be ASSET:CHUNK, got "${r}"`);
          return { fileAssetId, chunkId };
        });
        const checks = await api.call(routeIndex.docs.validate, { project: api.project, references });
        print(!!g.json, checks, () =>
          table([
            ['REFERENCE', 'STATUS', 'PATH', 'VERSION'],
            ...checks.map((c) => [`${c.fileAssetId}:${c.chunkId}`, c.status, c.path ?? '', c.currentVersion === null ? '' : String(c.currentVersion)]),
          ]),
        );
      }),
    );
}
