export { openDb, nowIso, sql, type StoaDb, type DbConfig, type Dialect } from './create-db.js';
export { migrateToLatest } from './migrate.js';
export type { InlineBlobRows } from './inline-blobs.js';
export type * from './schema.js';
