import { wikiRoutes } from '@stoa/contract';
import { deletePage, putPage, renamePage } from '../wiki/put-page.js';
import { movePage } from '../wiki/move-page.js';
import { getPage, listPages } from '../wiki/read-page.js';
import { diffPageVersions, pageHistory, showPageVersion } from '../wiki/history.js';
import { searchWiki } from '../wiki/search-wiki.js';
import { importPages } from '../wiki/import-pages.js';
import { changes, projectOperation, reads, type Operation, type OperationTraits } from './operation.js';

const w = wikiRoutes;

/** A change to pages: an agent's counts in its window (the runner counts it); `charges` adds its text to the quota. */
const pageChange = (charges?: OperationTraits['charges']): OperationTraits => ({
  ...changes('wiki.write', null),
  window: 'runner',
  ...(charges ? { charges } : {}),
});
const textBytes = (t: string) => Buffer.byteLength(t, 'utf8');

/** The wiki (W1–W7). */
export const wikiOperations: Operation[] = [
  projectOperation(w.list, reads('wiki.read'), (ctx, i) => listPages(ctx, { prefix: i.prefix })),
  projectOperation(w.get, reads('wiki.read'), (ctx, i) => getPage(ctx, { path: i.path })),
  projectOperation(
    w.put,
    pageChange((i: { text: string }) => textBytes(i.text)),
    (ctx, i) => putPage(ctx, { path: i.path, text: i.text, title: i.title, base: i.base, channel: i.channel }),
  ),
  projectOperation(w.rename, pageChange(), (ctx, i) => renamePage(ctx, { path: i.path, title: i.title, base: i.base })),
  projectOperation(w.move, pageChange(), (ctx, i) => movePage(ctx, { from: i.from, to: i.to, dryRun: i.dryRun })),
  projectOperation(w.remove, pageChange(), (ctx, i) => deletePage(ctx, { path: i.path, base: i.base })),
  projectOperation(w.history, reads('wiki.read'), (ctx, i) => pageHistory(ctx, { path: i.path })),
  projectOperation(w.version, reads('wiki.read'), (ctx, i) => showPageVersion(ctx, { path: i.path, version: i.version })),
  projectOperation(w.diff, reads('wiki.read'), (ctx, i) => diffPageVersions(ctx, { path: i.path, from: i.from, to: i.to })),
  projectOperation(w.search, reads('wiki.read'), (ctx, i) => searchWiki(ctx, { query: i.q, prefix: i.prefix, limit: i.limit, offset: i.offset })),
  projectOperation(
    w.import,
    pageChange((i: { files: Array<{ text: string }> }) => i.files.reduce((n, f) => n + textBytes(f.text), 0)),
    (ctx, i) => importPages(ctx, { files: i.files, prefix: i.prefix, channel: i.channel }),
  ),
];
