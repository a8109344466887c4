import { createQueryId, type Compilable, type CompiledQuery, type Kysely, type QueryResult } from 'kysely';
import type { DB } from '@stoa/db';
import { refuseNul } from './db-guard.js';

/** Marks a stand-in for a value while a statement is built: a noncharacter, which no caller means as text. */
const MARK = '\uFDD0';

/** One parameter of a built statement: a value the caller gives (by name) or one the statement itself holds. */
type Slot = { arg: string } | { value: unknown };

interface Built {
  sql: string;
  query: CompiledQuery['query'];
  slots: Slot[];
}

/** A statement's values, by name. */
type Args = Record<string, unknown>;

/**
 * A statement built and compiled once per database engine, then run with new values (issue 30). Kysely builds a
 * query tree, runs it through its plugins and compiles it to SQL on every call; for the handful of statements
 * every request runs that cost more CPU than running them. `build` gets stand-ins for the values (`a.path`) and
 * must use each as a whole value — compared, inserted, set — never inside other text (`${a.path}/%`) nor as a
 * list; a statement whose shape depends on a value (a list of n paths) gives that as `shape`, and is built once
 * per shape. The NUL rule of the database guard (db-guard.ts) is applied to the values, as its plugin would.
 *
 * @example
 * const byPath = hotQuery((db, a: { project: string; path: string }) =>
 *   db.selectFrom('files').selectAll().where('project_id', '=', a.project).where('path', '=', a.path));
 * const rows = await byPath(ctx.platform.db.kysely, { project: ctx.project.id, path: 'a.md' });
 */
export function hotQuery<A extends Args, R>(
  build: (db: Kysely<DB>, a: A, shape: number) => Compilable<R>,
): (db: Kysely<DB>, args: A, shape?: number) => Promise<R[]> {
  const run = hotStatement(build);
  return async (db, args, shape) => (await run(db, args, shape)).rows;
}

/**
 * {@link hotQuery} for a change whose caller needs how many rows it changed (`numAffectedRows`).
 *
 * @example
 * const r = await charge(trx, { project: ctx.project.id, delta: 10 });
 * if (Number(r.numAffectedRows) === 0) throw new StoaError('quota_exceeded', '…');
 */
export function hotStatement<A extends Args, R>(
  build: (db: Kysely<DB>, a: A, shape: number) => Compilable<R>,
): (db: Kysely<DB>, args: A, shape?: number) => Promise<QueryResult<R>> {
  // By engine (the SQL differs: `?` or `$1`, `for update`), then by shape.
  const built = new Map<unknown, Map<number, Built>>();
  return (db, args, shape = 0) => {
    const engine = db.getExecutor().adapter.constructor;
    let shapes = built.get(engine);
    if (!shapes) built.set(engine, (shapes = new Map()));
    let b = shapes.get(shape);
    if (!b) shapes.set(shape, (b = compile(db, build, shape)));
    const parameters = b.slots.map((s) => ('arg' in s ? args[s.arg] : s.value));
    refuseNul(parameters);
    return db.executeQuery<R>({ sql: b.sql, parameters, query: b.query, queryId: createQueryId() });
  };
}

function compile<A extends Args, R>(db: Kysely<DB>, build: (db: Kysely<DB>, a: A, shape: number) => Compilable<R>, shape: number): Built {
  const stand = new Proxy({} as A, { get: (_t, k) => `${MARK}${String(k)}${MARK}` });
  const c = build(db, stand, shape).compile();
  if (c.sql.includes(MARK)) throw new Error('hotQuery: a value was written into the SQL text; pass it as a value');
  const slots = c.parameters.map((p): Slot => {
    if (typeof p !== 'string' || !p.includes(MARK)) return { value: p };
    const m = /^\uFDD0([^\uFDD0]+)\uFDD0$/.exec(p);
    if (!m) throw new Error('hotQuery: a value stand-in was used inside other text; pass the whole value');
    return { arg: m[1]! };
  });
  return { sql: c.sql, query: c.query, slots };
}
