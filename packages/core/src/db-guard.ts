import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { StoaError } from '@stoa/contract';
import type { StoaDb } from '@stoa/db';

/** True when a query tree carries a string with U+0000 anywhere (values, value lists, raw SQL parameters). */
function holdsNul(node: unknown, depth = 0): boolean {
  if (typeof node === 'string') return node.includes('\u0000');
  if (!node || typeof node !== 'object' || depth > 64 || ArrayBuffer.isView(node)) return false;
  if (Array.isArray(node)) return node.some((n) => holdsNul(n, depth + 1));
  for (const k in node) if (holdsNul((node as Record<string, unknown>)[k], depth + 1)) return true;
  return false;
}

/** The NUL rule for the values of a statement run without the plugin below (hot-query.ts): the same refusal. */
export function refuseNul(values: readonly unknown[]): void {
  if (holdsNul(values)) throw nulRefusal();
}

function nulRefusal(): StoaError {
  return new StoaError('invalid_text', 'text contains U+0000 (NUL), which is not allowed in text');
}

/**
 * The NUL rule's safety net below every operation: a query that would store or compare text holding U+0000 is
 * refused with `invalid_text` before it reaches the database, on SQLite exactly as on PostgreSQL (which cannot
 * store it). Operations check their own inputs first, with clearer messages; this catches what they miss.
 */
class RefuseNulPlugin implements KyselyPlugin {
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (holdsNul(args.node)) throw nulRefusal();
    return args.node;
  }
  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}

/** True for a unique-index violation on either back end (or the already_exists `inTx` made of one). */
export function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; cause?: unknown };
  if (err?.code === 'already_exists' && err.cause) return isUniqueViolation(err.cause);
  return err?.code === '23505' || err?.code === 'SQLITE_CONSTRAINT_UNIQUE' || err?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** PostgreSQL chose this transaction to end a deadlock (40P01): nothing of it was kept, and it may run again. */
export function isDeadlock(e: unknown): boolean {
  return (e as { code?: string })?.code === '40P01';
}

/** The database handle every operation uses: the opened one with the NUL rule installed. */
export function guardedDb(db: StoaDb): StoaDb {
  return { ...db, kysely: db.kysely.withPlugin(new RefuseNulPlugin()) };
}

/**
 * The one place where database refusals become Stoa errors (issue 9: races end in a 4xx). Two writers that
 * create the same name at once both pass their "does it exist?" check; the unique index stops the second, which
 * then gets `already_exists` like any writer that came later. Returns null for faults that are not the
 * caller's doing.
 */
export function refusalOfDbError(e: unknown): StoaError | null {
  if (isUniqueViolation(e)) {
    const err = new StoaError('already_exists', 'another request created the same name at the same moment; nothing was overwritten');
    return Object.assign(err, { cause: e });
  }
  const code = (e as { code?: unknown })?.code;
  // character_not_in_repertoire / untranslatable_character: text PostgreSQL cannot store.
  if (code === '22021' || code === '22P05') return new StoaError('invalid_text', 'text holds characters that cannot be stored');
  // program_limit_exceeded (an index row or tsvector too large) / string_data_right_truncation.
  if (code === '54000' || code === '22001') return new StoaError('too_large', 'a value is too large to store');
  return null;
}
