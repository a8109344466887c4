import { sql, type RawBuilder } from 'kysely';
import { likeEscape } from '../paths.js';

/**
 * SQL for whole-folder statements (one statement per table, whatever the number of files): `below(col, f)` is
 * true for every path under folder `f`; `rebased(col, from, to)` is that path with its `from` prefix swapped
 * for `to`. Lengths count code points, as substr does on both SQLite and PostgreSQL.
 */
export function below(column: string, folder: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(column)} like ${likeEscape(folder) + '/%'} escape '\\'`;
}

export function rebased(column: string, from: string, to: string): RawBuilder<string> {
  return sql<string>`${to} || substr(${sql.ref(column)}, ${Array.from(from).length + 1})`;
}
