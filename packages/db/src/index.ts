export { openDb, nowIso, sql, SQLITE_MEMORY_DEFAULTS, type StoaDb, type DbConfig, type SqliteConfig, type DbOptions, type Dialect } from './create-db.js';
export type { WalSync } from './wal-sync.js';
export type { Maintenance, VacuumMode } from './pg-vacuum.js';
export { migrateToLatest } from './migrate.js';
export type { InlineBlobRows } from './inline-blobs.js';
export type * from './schema.js';
