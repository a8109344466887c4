/**
 * The one search of B1 over wiki pages, memory files and text files' contents, plus the file-contents
 * index hook it relies on (registered as an area installer when this module loads).
 */
export * from './providers.js';
export * from './file-index.js';
export * from './search-all.js';
export * from './search-results.js';
export * from './reindex.js';
