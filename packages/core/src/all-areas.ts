/**
 * Loads every area that registers hooks in `areaInstallers`, so a platform opened from any entry point — the
 * server, the CLI, a test — keeps the same derived data (search index, document chunks) in step. An area with
 * an installer adds its module here.
 */
import './unified-search/file-index.js';
import './understanding/hook.js';
