export { openDb, nowIso, sql, type StoaDb, type DbConfig, type DbOptions, type Dialect } from './create-db.js';
export type { WalSync } from './wal-sync.js';
export { migrateToLatest } from './migrate.js';
export type * from './schema.js';
