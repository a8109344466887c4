import { sql, type RawBuilder } from 'kysely';
import type { RankRequest } from './types.js';

/**
 * Filters on the `d` alias of search_docs, valid SQL on both back ends: SQLite's ranking and the vector scan use them.
 *
 * @example
 * sql`where ${docFilters(req)}`
 */
export function docFilters(req: Pick<RankRequest, 'projectId' | 'visibility' | 'exclude' | 'kinds' | 'pathPrefix'>): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [sql`d.project_id = ${req.projectId}`];
  parts.push(sql`d.visibility in (${sql.join(req.visibility)})`);
  if (req.exclude && req.exclude.length > 0) parts.push(sql`d.id not in (${sql.join(req.exclude)})`);
  if (req.kinds) parts.push(sql`d.kind in (${sql.join(req.kinds)})`);
  if (req.pathPrefix !== undefined && req.pathPrefix !== '') {
    // substr, not LIKE: LIKE is case-insensitive on SQLite and its wildcards would need escaping.
    // Lengths are in code points on both back ends.
    const p = req.pathPrefix;
    const len = (s: string) => Array.from(s).length;
    if (p.endsWith('/')) {
      parts.push(sql`substr(d.path, 1, ${len(p)}) = ${p}`);
    } else {
      const below = `${p}/`;
      parts.push(sql`(d.path = ${p} or substr(d.path, 1, ${len(below)}) = ${below})`);
    }
  }
  return sql.join(parts, sql` and `);
}
