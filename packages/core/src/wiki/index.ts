/**
 * The wiki (§6 W1–W7, B10): markdown pages at lowercase paths, `[[links]]` with "Linked here" backlinks
 * and unlinked mentions, versions with history and diffs, workspace or channel visibility, move and delete.
 * Every operation is `op(ctx, input)`; doors (HTTP, CLI, MCP tools) call these and nothing else.
 */
export * from './wiki-paths.js';
export * from './links.js';
export * from './types.js';
export * from './visibility.js';
export { WIKI_KIND, WIKI_MAX_TEXT_BYTES, authorName } from './page-store.js';
export * from './put-page.js';
export * from './read-page.js';
export * from './mentions.js';
export * from './diff.js';
export * from './history.js';
export * from './move-page.js';
export * from './search-wiki.js';
export * from './import-pages.js';
export * from './tools.js';
