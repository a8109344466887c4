import { wikiRoutes } from '@stoa/contract';
import { deletePage, putPage, renamePage } from '../wiki/put-page.js';
import { movePage } from '../wiki/move-page.js';
import { getPage, listPages } from '../wiki/read-page.js';
import { diffPageVersions, pageHistory, showPageVersion } from '../wiki/history.js';
import { searchWiki } from '../wiki/search-wiki.js';
import { importPages } from '../wiki/import-pages.js';
import { changes, projectOperation, reads, type Operation } from './operation.js';

const w = wikiRoutes;

/** The wiki (W1–W7). */
export const wikiOperations: Operation[] = [
  projectOperation(w.list, reads('wiki.read'), (ctx, i) => listPages(ctx, { prefix: i.prefix })),
  projectOperation(w.get, reads('wiki.read'), (ctx, i) => getPage(ctx, { path: i.path })),
  projectOperation(w.put, changes('wiki.write', null), (ctx, i) =>
    putPage(ctx, { path: i.path, text: i.text, title: i.title, base: i.base, channel: i.channel }),
  ),
  projectOperation(w.rename, changes('wiki.write', null), (ctx, i) => renamePage(ctx, { path: i.path, title: i.title, base: i.base })),
  projectOperation(w.move, changes('wiki.write', null), (ctx, i) => movePage(ctx, { from: i.from, to: i.to, dryRun: i.dryRun })),
  projectOperation(w.remove, changes('wiki.write', null), (ctx, i) => deletePage(ctx, { path: i.path, base: i.base })),
  projectOperation(w.history, reads('wiki.read'), (ctx, i) => pageHistory(ctx, { path: i.path })),
  projectOperation(w.version, reads('wiki.read'), (ctx, i) => showPageVersion(ctx, { path: i.path, version: i.version })),
  projectOperation(w.diff, reads('wiki.read'), (ctx, i) => diffPageVersions(ctx, { path: i.path, from: i.from, to: i.to })),
  projectOperation(w.search, reads('wiki.read'), (ctx, i) => searchWiki(ctx, { query: i.q, prefix: i.prefix, limit: i.limit, offset: i.offset })),
  projectOperation(w.import, changes('wiki.write', null), (ctx, i) => importPages(ctx, { files: i.files, prefix: i.prefix, channel: i.channel })),
];
