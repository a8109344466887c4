import type { Dialect } from '@stoa/db';

/**
 * Most parameters one statement may bind: SQLite as better-sqlite3 builds it (SQLITE_MAX_VARIABLE_NUMBER 32766),
 * PostgreSQL's wire protocol (a 16-bit count, 65535).
 */
const MAX_PARAMS: Record<Dialect, number> = { sqlite: 32766, postgres: 65535 };
/** Parameters left for the rest of a statement (project, ids, limits) beside the batched list. */
const OTHER_PARAMS = 100;

/**
 * Splits a user-sized list (a page's links, the ids a listing names) into batches small enough for one statement
 * each on `dialect`, `perItem` parameters an item: a page with tens of thousands of `[[links]]` answered 500
 * (too many SQL variables) on both engines (issue 27).
 *
 * @example
 * for (const batch of sqlBatches('sqlite', links, 5)) await trx.insertInto('wiki_links').values(batch).execute();
 */
export function sqlBatches<T>(dialect: Dialect, items: readonly T[], perItem = 1): T[][] {
  const size = Math.max(1, Math.floor((MAX_PARAMS[dialect] - OTHER_PARAMS) / perItem));
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Runs a query for each batch of `items` (see sqlBatches) and joins the rows, in batch order.
 *
 * @example
 * const rows = await inSqlBatches(dialect, ids, (batch) => db.selectFrom('files').selectAll().where('id', 'in', batch).execute());
 */
export async function inSqlBatches<T, R>(dialect: Dialect, items: readonly T[], run: (batch: T[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (const batch of sqlBatches(dialect, items)) out.push(...(await run(batch)));
  return out;
}
