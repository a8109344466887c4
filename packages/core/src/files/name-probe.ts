import { sql } from 'kysely';
import type { Platform } from '../platform.js';

/**
 * Which trigrams of a name-search needle to ask the trigram index for (issue 30, item 5; decision 0024).
 *
 * Both trigram indexes (SQLite FTS5 `files_name_fts`, PostgreSQL pg_trgm `files_name_trgm`) intersect the full
 * list of every trigram of the needle they are given, and in names like "invoice 2003-0012345.pdf" trigrams
 * such as " 20", "200" or "-00" are in nearly every name: the lookup then reads a posting per file of the
 * database. Any trigram of the needle is a necessary condition, so probing with the two rarest alone still
 * gives a superset of the matches, and the exact substring test (always applied) removes the rest.
 *
 * How rare a trigram is comes from a sample of names (`SAMPLE` rows of `files`, all projects: the indexes are
 * shared by all projects too), taken on the first name search of a process and again in the background once it
 * is `FRESH_MS` old. It only chooses which trigrams to probe and whether a scan in path order is cheaper; it
 * never decides what matches, so a stale or skewed sample can cost time, never a result. Nothing is written on
 * the write path (no counter rows, so no hot row under concurrent writes on PostgreSQL).
 */

/** Names in a sample. A trigram absent from it is in fewer than about 1 in SAMPLE names. */
const SAMPLE = 1000;
/** A sample this old is retaken (in the background: the old one serves meanwhile). */
const FRESH_MS = 5 * 60_000;
/** A sample of fewer than half SAMPLE names (a young database) is retaken sooner. */
const YOUNG_MS = 10_000;
/**
 * A scan in path order is chosen without probing when the sample says it finds `limit` matches within this many
 * rows (a frequent needle such as "report": the path-ordered rows hold a match every few rows).
 */
const SCAN_ROWS = 20_000;
/** What reading a candidate row costs, in postings read from a trigram list (a random page against a sequential one). */
const ROW_COST = 30;
/** SQLite probes with two trigrams only when the rarest is in this many sample names (2 %) or more. */
const SQLITE_COMMON = 20;
/** Fewer sample names than this containing the needle are too few to estimate its share from. */
const MIN_HITS = 3;
/**
 * The scan is chosen on the needle's share in the sample less this many standard deviations (√hits, a count of
 * rare events): a needle in 0.23 % of the names is in 5 of 1,000 sample names for one process in twelve, which
 * read as 0.5 % made that process scan 43,000 rows in path order (61 ms at 1M files; 20–47 ms probed).
 */
const SCAN_SIGMAS = 2.5;

interface NameSample {
  /** When it was taken (platform clock, ms). */
  at: number;
  /** How many names it holds. */
  size: number;
  /** The sample's names (folded like `files.name_lower`), for the needle's own share. */
  names: string[];
  /** Of the sample's names, how many hold each trigram (by code point, as FTS5's trigram tokenizer splits). */
  counts: Map<string, number>;
  /** PostgreSQL: whether non-ASCII letters and digits are word characters for pg_trgm (the database's ctype). */
  unicodeWords: boolean;
}

interface Entry {
  sample: NameSample | null;
  taking: Promise<NameSample> | null;
}

// One sample per database handle: a statistic of the process, like a statement cache (not data of record).
const samples = new WeakMap<object, Entry>();

/**
 * How to search a needle: `scan` in path order (the index cannot help, or `limit` matches come within a short
 * scan), probe the index with the `whole` needle (its trigrams together narrow it where no two of them do), or
 * `probe` with these few trigrams.
 */
export type NamePlan = { kind: 'scan' } | { kind: 'whole' } | { kind: 'probe'; trigrams: string[] };

/** The needle's trigrams, by code point, in order, without repeats. */
function trigramsOf(s: string): string[] {
  const cps = [...s];
  const out = new Set<string>();
  for (let i = 0; i + 3 <= cps.length; i++) out.add(cps.slice(i, i + 3).join(''));
  return [...out];
}

async function takeSample(platform: Platform): Promise<NameSample> {
  const db = platform.db.kysely;
  let names: string[];
  let unicodeWords = true;
  if (platform.db.dialect === 'sqlite') {
    // Random rows of the rowid range (not evenly spaced ones: names often repeat with a period, and a stride
    // can fall in step with it): each is a lookup by rowid, so the sample costs SAMPLE lookups whatever the
    // size of the table. Rowids of deleted rows find nothing; the sample is a little smaller then.
    const top = Number((await sql<{ m: number | null }>`select max(rowid) as m from files`.execute(db)).rows[0]?.m ?? 0);
    const ids = top <= SAMPLE ? null : Array.from({ length: SAMPLE }, () => 1 + Math.floor(Math.random() * top));
    const rows = ids
      ? await sql<{
          n: string;
        }>`select name_lower as n from files where rowid in (select value from json_each(${JSON.stringify(ids)})) limit ${SAMPLE}`.execute(db)
      : await sql<{ n: string }>`select name_lower as n from files limit ${SAMPLE}`.execute(db);
    names = rows.rows.map((r) => r.n);
  } else {
    // Whole pages picked at random (SYSTEM sampling reads only the pages it picks), a share of the table sized
    // from the planner's row estimate for about SAMPLE rows; LIMIT bounds it when the estimate is stale.
    const est = await sql<{ rows: number; ctype: string }>`select c.reltuples::float8 as rows, d.datctype as ctype
      from pg_class c, pg_database d where c.oid = 'files'::regclass and d.datname = current_database()`.execute(db);
    const rows = Number(est.rows[0]?.rows ?? -1);
    const ctype = est.rows[0]?.ctype ?? 'C';
    unicodeWords = !/^(c|posix)$/i.test(ctype);
    const share = rows > SAMPLE ? Math.min(100, (100 * SAMPLE) / rows) : 100;
    const got = await sql<{
      n: string;
    }>`select name_lower as n from files tablesample system (${sql.lit(Number(share.toFixed(4)))}) limit ${2 * SAMPLE}`.execute(db);
    names = got.rows.map((r) => r.n);
  }
  const counts = new Map<string, number>();
  for (const n of names) for (const t of trigramsOf(n)) counts.set(t, (counts.get(t) ?? 0) + 1);
  return { at: platform.clock().getTime(), size: names.length, names, counts, unicodeWords };
}

/** The sample of this database: taken now if there is none, retaken in the background once it is old. */
async function sampleFor(platform: Platform): Promise<NameSample> {
  let entry = samples.get(platform.db);
  if (!entry) samples.set(platform.db, (entry = { sample: null, taking: null }));
  const e = entry;
  const take = (): Promise<NameSample> =>
    (e.taking ??= takeSample(platform)
      .then((s) => (e.sample = s))
      .finally(() => (e.taking = null)));
  if (!e.sample) return take();
  const age = platform.clock().getTime() - e.sample.at;
  // A failed retake keeps the old sample: it only orders the probes.
  if (age > (e.sample.size < SAMPLE / 2 ? YOUNG_MS : FRESH_MS)) take().catch(() => undefined);
  return e.sample;
}

/** Trigrams the engine's index can probe with alone. pg_trgm indexes words: three word characters in a row. */
function probeable(t: string, dialect: string, unicodeWords: boolean): boolean {
  if (dialect === 'sqlite') return true;
  return unicodeWords ? /^[\p{L}\p{N}]{3}$/u.test(t) : /^[a-z0-9]{3}$/.test(t);
}

/**
 * How to find names holding `needle` (already folded) for a page of `limit`: probe the index with the needle's
 * rarest trigrams, or scan in path order when the needle is so frequent that `limit` matches come within a
 * short scan (or has no trigram the index can take alone).
 */
export async function planNameSearch(platform: Platform, needle: string, limit: number): Promise<NamePlan> {
  const all = trigramsOf(needle);
  if (all.length === 0) return { kind: 'scan' };
  const s = await sampleFor(platform);
  const usable = all.filter((t) => probeable(t, platform.db.dialect, s.unicodeWords));
  if (usable.length === 0) return { kind: 'scan' };
  const count = (t: string): number => s.counts.get(t) ?? 0;
  // The rarest trigram first, then the one that the fewest of its holders also hold: trigrams of one needle are
  // often found together ("003" and "03-" in every "2003-"), and a second one that always comes with the first
  // narrows nothing. Ties go to the rarer, then to the needle's order, so a needle always gets the same probe.
  const order = (t: string): number => usable.indexOf(t);
  const first = usable.reduce((a, b) => (count(b) < count(a) ? b : a));
  const holders = s.names.filter((n) => n.includes(first));
  const both = (t: string): number => holders.reduce((k, n) => k + (n.includes(t) ? 1 : 0), 0);
  const second = usable
    .filter((t) => t !== first)
    .map((t) => ({ t, kept: both(t) }))
    .sort((a, b) => a.kept - b.kept || count(a.t) - count(b.t) || order(a.t) - order(b.t))[0];
  const trigrams = second ? [first, second.t] : [first];
  const common = count(first) >= MIN_HITS;
  const hits = common ? s.names.reduce((k, n) => k + (n.includes(needle) ? 1 : 0), 0) : 0;
  const fewest = hits - SCAN_SIGMAS * Math.sqrt(hits);
  if (hits >= MIN_HITS && fewest > 0 && (limit * s.size) / fewest <= SCAN_ROWS) return { kind: 'scan' };
  // SQLite's FTS5 walks a phrase by seeking in each list to the next rowid of the rarest one: the whole needle
  // costs little while its rarest trigram is rare (measured: "-0123456." at 1M files, 0.7 ms whole against
  // 3.2 ms with two trigrams, whose extra candidates each cost a row read). Only when even the rarest one is
  // common do two trigrams pay ("invoice 2003-" at 100k files: 30 against 54 ms).
  if (platform.db.dialect === 'sqlite' && count(first) < SQLITE_COMMON) return { kind: 'whole' };
  if (common) {
    // Even the rarest trigrams are common. Probing with all of them (the whole needle) reads every list but
    // keeps only about the matches; probing with two reads two lists but keeps every name holding both, and
    // each candidate costs a row read (e.g. "2000-0": "200" and "000" are in most names).
    const kept = second ? second.kept : holders.length;
    const lists = (ts: string[]): number => ts.reduce((k, t) => k + count(t), 0);
    if (lists(all) + ROW_COST * hits < lists(trigrams) + ROW_COST * kept) return { kind: 'whole' };
  }
  return { kind: 'probe', trigrams };
}

/** Test only: drops this database's sample, so the next search takes one of the names there are now. */
export function forgetNameSample(platform: Platform): void {
  samples.delete(platform.db);
}
