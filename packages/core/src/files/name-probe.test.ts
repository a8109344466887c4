import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { testDbKinds } from '@stoa/db/testing';
import { createTestPlatform, fillProject, type TestPlatform } from '../testing.js';
import type { Ctx } from '../platform.js';
import { putFile } from './put-file.js';
import { findFiles } from './list-files.js';
import { forgetNameSample, planNameSearch } from './name-probe.js';

// Names and needles made of a few pieces, so that they share many trigrams (as " 20" and "200" are in nearly
// every real name) and a needle's trigrams often all occur in a name that lacks the needle; with the characters
// that need care: LIKE's wildcards and escape, FTS5's quote, non-ASCII letters (pg_trgm word characters or
// not), case. (A backslash is not allowed in a path, so only needles have it.)
const PIECES = ['ab', 'ba', 'a', 'A', '20', '02', '0', ' ', '-', 'é', 'É', 'яЯ', '纪', '"', '%', '_', '.'];
const text = (min: number, max: number, extra: string[] = []) =>
  fc.array(fc.constantFrom(...PIECES, ...extra), { minLength: min, maxLength: max }).map((a) => a.join(''));
const fold = (s: string): string => s.normalize('NFC').toLowerCase();

// The probe by the needle's rarest trigrams (name-probe.ts) only narrows the candidates: whatever the sample
// says, name search must answer what a plain scan of the names answers, in path order, with the same limit.
describe.each(testDbKinds())('name search by rare trigrams answers what a plain scan does (%s)', (kind) => {
  let t: TestPlatform;
  let ctx: Ctx;
  beforeAll(async () => {
    t = await createTestPlatform(kind, { quotaBytes: 2 ** 40 });
    ctx = await t.admin();
    // A background of names whose trigrams " 20", "200", "-0" are in nearly all of them, so the sample calls
    // them common and the probe picks others.
    await fillProject(
      ctx,
      Array.from({ length: 3000 }, (_, i) => `bg/ab 20${i % 27}-${String(i).padStart(5, '0')}.pdf`),
    );
  }, 120_000);
  afterAll(async () => {
    await t?.cleanup();
  });

  // First, while the folder holds only the background: other tests' names would thin its trigrams in the sample.
  it('probes a needle of common trigrams with its rare ones', async () => {
    // "ab ", "b 2", " 20" and "-0" are in every background name, "-01" in a third; "13-" in 1 in 27, and the
    // needle in 4 of 3,000. The plan rests on a random sample of 1,000 names, where the rarest trigram ("13-" or
    // "012", each ≈ 35 times) can fall under SQLite's threshold of 20 in about one sample in a hundred, and then
    // the whole needle is rightly preferred: three samples are taken and two must choose the probe.
    const plans = [];
    for (let i = 0; i < 3; i++) {
      forgetNameSample(t.platform);
      plans.push(await planNameSearch(t.platform, 'ab 2013-012', 100));
    }
    const probes = plans.flatMap((p) => (p.kind === 'probe' ? [p] : []));
    expect(probes.length).toBeGreaterThanOrEqual(2);
    const plan = probes[0]!;
    // Two of the rare ones, none of those every name has.
    for (const common of ['ab ', 'b 2', ' 20', '-01']) expect(plan.trigrams).not.toContain(common);
    // A name holding the probe's trigrams but not the needle is a candidate, and only a candidate.
    await putFile(ctx, { path: `decoy/${plan.trigrams.join('~')}.txt`, source: 'x' });
    const found = await findFiles(ctx, { text: 'ab 2013-012', limit: 1000 });
    expect(found.files.map((f) => f.path)).toEqual(
      Array.from({ length: 3000 }, (_, i) => `bg/ab 20${i % 27}-${String(i).padStart(5, '0')}.pdf`)
        .filter((p) => p.includes('ab 2013-012'))
        .sort(),
    );
  });

  let run = 0;
  it('on random names and needles', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(text(1, 10), { minLength: 1, maxLength: 12, selector: (s) => fold(`n${s}.t`) }),
        fc.oneof(text(1, 6, ['\\']), fc.tuple(fc.nat(), fc.nat(), fc.nat(9))),
        fc.integer({ min: 1, max: 6 }),
        fc.boolean(),
        async (raw, pick, limit, fresh) => {
          const folder = `p${run++}`;
          const names = raw.map((s) => `n${s}.t`);
          for (const [i, n] of names.entries()) await putFile(ctx, { path: i % 2 ? `${folder}/${n}` : `${folder}/sub/${n}`, source: 'x' });
          // A needle from one of the names (found at least once) or made up.
          let needle: string;
          if (typeof pick === 'string') needle = pick;
          else {
            const n = [...names[pick[0] % names.length]!];
            const from = pick[1] % n.length;
            needle = n.slice(from, from + 1 + pick[2]).join('');
          }
          if (fresh) forgetNameSample(t.platform);
          const paths = names.map((n, i) => (i % 2 ? `${folder}/${n}` : `${folder}/sub/${n}`));
          const want = paths.filter((p) => fold(p.slice(p.lastIndexOf('/') + 1)).includes(fold(needle))).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
          const got = await findFiles(ctx, { text: needle, limit, within: folder });
          expect(got.files.map((f) => f.path)).toEqual(want.slice(0, limit));
          expect(got.truncated).toBe(want.length > limit);
        },
      ),
      { numRuns: kind === 'postgres' ? 40 : 80 },
    );
  }, 300_000);
});

// The scan in path order is for needles so frequent that a page of matches comes within a short scan. A needle
// in 1 of 400 names is in 5 or more of a sample's 1,000 names for about one sample in nine: read as its share,
// that made a process scan a long stretch of the project (43,000 rows for "invoice 2003-" at 1M files).
describe.each(testDbKinds())('the scan is chosen for frequent needles only, whatever the sample (%s)', (kind) => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await createTestPlatform(kind, { quotaBytes: 2 ** 40 });
    const ctx = await t.admin();
    // "rare" in 1 of 400 names, "often" in 1 of 16.
    await fillProject(
      ctx,
      Array.from({ length: 4000 }, (_, i) => `f/file ${String(i).padStart(5, '0')}${i % 400 === 0 ? ' rare' : ''}${i % 16 === 0 ? ' often' : ''}.txt`),
    );
  }, 120_000);
  afterAll(async () => {
    await t?.cleanup();
  });

  it('never for a needle in 0.25 % of the names, always for one in 6 %, over 100 samples', async () => {
    const kinds = { rare: new Set<string>(), often: new Set<string>() };
    for (let i = 0; i < 100; i++) {
      forgetNameSample(t.platform);
      kinds.rare.add((await planNameSearch(t.platform, 'rare', 100)).kind);
      kinds.often.add((await planNameSearch(t.platform, 'often', 100)).kind);
    }
    expect(kinds.rare.has('scan')).toBe(false);
    expect([...kinds.often]).toEqual(['scan']);
  }, 60_000);
});
