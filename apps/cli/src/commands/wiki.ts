import type { Command } from 'commander';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { StoaError } from '@stoa/contract/errors';
import { routeIndex } from '@stoa/contract/route-index';
import type { Api } from '../api.js';
import { action } from '../context.js';
import { print, table, UsageError } from '../output.js';
import { textArg } from '../text-arg.js';

function intArg(v: string, what: string, min = 1): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`${what} must be an integer ≥ ${min}, got "${v}"`);
  return n;
}

/** Every .md / .markdown file under a folder (dot folders skipped), with its path relative to the folder. */
function markdownFiles(dir: string): Array<{ file: string; text: string }> {
  let st;
  try {
    st = statSync(dir);
  } catch {
    throw new StoaError('not_found', `folder "${dir}" does not exist`);
  }
  if (!st.isDirectory()) throw new UsageError(`"${dir}" is not a folder`);
  const out: Array<{ file: string; text: string }> = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name.startsWith('.')) continue;
      const full = join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.isFile() && /\.(md|markdown)$/i.test(e.name)) out.push({ file: relative(dir, full).split(sep).join('/'), text: readFileSync(full, 'utf8') });
    }
  };
  walk(dir);
  return out;
}

/** Sends imported files in batches that stay well below the server's request size limit. */
async function importBatches(api: Api, files: Array<{ file: string; text: string }>, opts: { prefix?: string; channel?: string }) {
  const result = { imported: [] as any[], skipped: [] as any[] };
  let batch: typeof files = [];
  let bytes = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const r = await api.call(routeIndex.wiki.import, { project: api.project, files: batch, prefix: opts.prefix, channel: opts.channel });
    result.imported.push(...r.imported);
    result.skipped.push(...r.skipped);
    batch = [];
    bytes = 0;
  };
  for (const f of files) {
    // Counted as sent (JSON-escaped), against the server's JSON body limit (STOA_JSON_BODY_BYTES, 6 MiB by default).
    const size = Buffer.byteLength(JSON.stringify(f));
    if (batch.length >= 500 || (batch.length > 0 && bytes + size > 4_000_000)) await flush();
    batch.push(f);
    bytes += size;
  }
  await flush();
  return result;
}

export function registerWiki(program: Command): void {
  const wiki = program.command('wiki').description('The wiki: markdown pages at lowercase paths, with links, versions and search');

  wiki
    .command('list [prefix]')
    .description('Pages you can see, as a tree ordered by path (only PREFIX and below, if given)')
    .action(
      action(async (api, g, prefix?: string) => {
        const pages = await api.call(routeIndex.wiki.list, { project: api.project, prefix });
        print(
          !!g.json,
          pages.map((p) => ({ path: p.path, title: p.title, version: p.version, channel: p.channel, updated: p.updated, updatedBy: p.updatedBy })),
          () =>
            pages.length === 0
              ? '(no pages)'
              : table([
                  ['PATH', 'TITLE', 'VERSION', 'SEEN BY'],
                  ...pages.map((p) => [
                    '  '.repeat(p.path.split('/').length - 1) + p.path,
                    p.title,
                    String(p.version),
                    p.channel ? `channel ${p.channel}` : 'workspace',
                  ]),
                ]),
        );
      }),
    );

  wiki
    .command('get <path>')
    .description('Show a page with "Linked here", missing links and unlinked mentions')
    .action(
      action(async (api, g, path: string) => {
        const p = await api.call(routeIndex.wiki.get, { project: api.project, path });
        print(!!g.json, p, () => {
          const out = [`# ${p.title}  (${p.path}, version ${p.version}${p.channel ? `, channel ${p.channel}` : ''})`, '', p.text];
          if (p.linkedHere.length) out.push('', 'Linked here:', ...p.linkedHere.map((l) => `  ${l.path} — ${l.title}`));
          const missing = p.links.filter((l) => l.missing);
          if (missing.length) out.push('', 'Missing pages:', ...missing.map((l) => `  ${l.path}`));
          if (p.unlinkedMentions.length) out.push('', 'Unlinked mentions:', ...p.unlinkedMentions.map((m) => `  ${m.path} — ${m.snippet}`));
          return out.join('\n');
        });
      }),
    );

  wiki
    .command('put <path> <source>')
    .description('Create a page or save a new version; SOURCE is @file, - (stdin) or the text itself')
    .option('--title <title>', 'page title (absent keeps the current one; new pages derive one from the path)')
    .option('--base <version>', 'refuse with version_conflict if someone saved after this version')
    .option('--channel <channel>', 'only this channel (conversation ID or name) sees the page')
    .option('--workspace', 'make the page visible to the whole workspace again')
    .action(
      action(async (api, g, path: string, source: string, o: { title?: string; base?: string; channel?: string; workspace?: boolean }) => {
        if (o.channel && o.workspace) throw new UsageError('give either --channel or --workspace');
        const text = await textArg(source);
        const r = await api.call(routeIndex.wiki.put, {
          project: api.project,
          path,
          text,
          title: o.title === undefined ? undefined : await textArg(o.title),
          base: o.base !== undefined ? intArg(o.base, '--base', 0) : undefined,
          channel: o.workspace ? null : o.channel,
        });
        print(!!g.json, r, () => `${r.created ? 'Created' : r.changed ? 'Saved' : 'Unchanged'} ${r.path} — "${r.title}", version ${r.version}`);
      }),
    );

  wiki
    .command('rename <path> <title>')
    .description('Change the title of a page (saved as a new version)')
    .option('--base <version>', 'refuse with version_conflict if someone saved after this version')
    .action(
      action(async (api, g, path: string, title: string, o: { base?: string }) => {
        const r = await api.call(routeIndex.wiki.rename, {
          project: api.project,
          path,
          title: await textArg(title),
          base: o.base !== undefined ? intArg(o.base, '--base', 0) : undefined,
        });
        print(!!g.json, r, () => `Renamed ${r.path} to "${r.title}", version ${r.version}`);
      }),
    );

  wiki
    .command('search <query>')
    .description('Search the pages you can see, best first, with snippets')
    .option('--limit <n>', 'at most N results (default 20)')
    .action(
      action(async (api, g, query: string, o: { limit?: string }) => {
        const hits = await api.call(routeIndex.wiki.search, {
          project: api.project,
          q: await textArg(query),
          limit: o.limit ? intArg(o.limit, '--limit') : undefined,
        });
        print(!!g.json, hits, () =>
          hits.length === 0 ? '(no matches)' : hits.map((h) => `${h.path} — ${h.title}  (${h.score.toFixed(2)})\n  ${h.snippet}`).join('\n'),
        );
      }),
    );

  wiki
    .command('mv <from> <to>')
    .description('Move a page and its nested pages; links are not rewritten')
    .option('--dry-run', 'only list what would move and which links would break')
    .action(
      action(async (api, g, from: string, to: string, o: { dryRun?: boolean }) => {
        const r = await api.call(routeIndex.wiki.move, { project: api.project, from, to, dryRun: !!o.dryRun });
        print(!!g.json, r, () =>
          [
            `${r.dryRun ? 'Would move' : 'Moved'}:`,
            ...r.moved.map((m) => `  ${m.from} → ${m.to}`),
            ...(r.hidden ? [`  and ${r.hidden} page(s) you cannot see`] : []),
            ...(r.brokenLinks.length
              ? [`Links that ${r.dryRun ? 'would' : 'now'} point to a missing page:`, ...r.brokenLinks.map((b) => `  ${b.page} → [[${b.target}]]`)]
              : []),
          ].join('\n'),
        );
      }),
    );

  wiki
    .command('rm <path>')
    .description('Delete a page and its history (nested pages remain)')
    .option('--base <version>', 'refuse with version_conflict if someone saved after this version')
    .action(
      action(async (api, g, path: string, o: { base?: string }) => {
        const r = await api.call(routeIndex.wiki.remove, { project: api.project, path, base: o.base !== undefined ? intArg(o.base, '--base', 0) : undefined });
        print(!!g.json, r, () => `Deleted ${r.path}`);
      }),
    );

  wiki
    .command('history <path>')
    .description('Versions of a page, newest first, with author and time')
    .action(
      action(async (api, g, path: string) => {
        const vs = await api.call(routeIndex.wiki.history, { project: api.project, path });
        print(!!g.json, vs, () =>
          table([
            ['VERSION', 'TIME', 'AUTHOR', 'ACTION', 'TITLE'],
            ...vs.map((v) => [String(v.version) + (v.current ? '*' : ''), v.time, v.author, v.action, v.title]),
          ]),
        );
      }),
    );

  wiki
    .command('show <path> <version>')
    .description('Show one version of a page')
    .action(
      action(async (api, g, path: string, version: string) => {
        const v = await api.call(routeIndex.wiki.version, { project: api.project, path, version: intArg(version, 'VERSION') });
        print(!!g.json, v, () => `# ${v.title}  (${v.path}, version ${v.version} by ${v.author} at ${v.time})\n\n${v.text}`);
      }),
    );

  wiki
    .command('diff <path> <from> [to]')
    .description('Line diff between two versions (TO defaults to the current one)')
    .action(
      action(async (api, g, path: string, from: string, to?: string) => {
        const d = await api.call(routeIndex.wiki.diff, {
          project: api.project,
          path,
          from: intArg(from, 'FROM'),
          to: to !== undefined ? intArg(to, 'TO') : undefined,
        });
        print(!!g.json, d, () =>
          [
            `--- ${d.path} version ${d.from}${d.titleBefore !== d.titleAfter ? ` "${d.titleBefore}"` : ''}`,
            `+++ ${d.path} version ${d.to}${d.titleBefore !== d.titleAfter ? ` "${d.titleAfter}"` : ''}`,
            d.text || '(no changes in the text)',
          ].join('\n'),
        );
      }),
    );

  wiki
    .command('import <dir>')
    .description('Turn a folder of .md files into pages (paths from file paths, lowercased, .md dropped; titles from the first # heading)')
    .option('--prefix <path>', 'put the pages below this path')
    .option('--channel <channel>', 'only this channel sees the imported pages')
    .action(
      action(async (api, g, dir: string, o: { prefix?: string; channel?: string }) => {
        const files = markdownFiles(dir);
        const r = await importBatches(api, files, o);
        print(!!g.json, r, () =>
          [
            `Imported ${r.imported.length} page(s)${r.skipped.length ? `, skipped ${r.skipped.length}` : ''}:`,
            ...r.imported.map((i) => `  ${i.file} → ${i.path} ("${i.title}", version ${i.version})`),
            ...r.skipped.map((s) => `  skipped ${s.file}: ${s.reason}`),
          ].join('\n'),
        );
        if (r.skipped.length > 0 && r.imported.length === 0 && files.length > 0) process.exitCode = 1;
      }),
    );
}
