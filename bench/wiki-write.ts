/**
 * Wiki page saves through the operation runner (`wiki.put`, as every door calls it), this checkout beside a base
 * checkout in one run: 8 concurrent writers save new versions of pages of ~4 KB of words, each its own pages
 * ("own pages") and then all one page ("one page", queued on its row lock), on SQLite and PostgreSQL. Reported:
 * save latency p50/p99, saves/s, and this process's CPU per save counted until the index has caught up
 * (the drain after the commit included), so work moved out of the transaction is not hidden. Sides alternate,
 * rounds interleaved; each child process gets a fresh database.
 *
 *   BENCH_BASE_ROOT=/work/base-x node --import tsx bench/wiki-write.ts [--rounds 2] [--saves 30] [--sqlite-only]
 *
 * The child mode (`--child <engine>`) runs one side and prints its figures as JSON; the base checkout needs this
 * file copied in (it only uses what main already exports).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';

const argv = process.argv.slice(2);
const get = (name: string, d: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1]! : d;
};
const WRITERS = 8;
const SAVES = Number(get('--saves', '30'));

interface Figures {
  scenario: string;
  p50: number;
  p99: number;
  perSecond: number;
  cpuPerSave: number;
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;

async function child(engine: 'sqlite' | 'postgres'): Promise<void> {
  const { createTestPlatform, runOperation, searchWiki } = await import('@stoa/core/testing');
  const t = await createTestPlatform(engine, { agentWritesPerConversation: 1_000_000 });
  try {
    const ctx = await t.userCtx('writer', 'editor');
    let seed = 11;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const vocab = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}${'aeiou'[i % 5]}x`);
    const text = (tag: string) => {
      const words: string[] = [tag];
      while (words.join(' ').length < 4096) words.push(vocab[Math.floor(rand() * vocab.length)]!);
      return words.join(' ');
    };
    const out: Figures[] = [];
    for (const scenario of ['own pages', 'one page'] as const) {
      const pathOf = (w: number, i: number) => (scenario === 'one page' ? 'shared/page' : `w${w}/page-${i % 5}`);
      for (let w = 0; w < WRITERS; w++) await runOperation(ctx, 'wiki.put', { path: pathOf(w, w), text: text('warmup') });
      await t.platform.outbox.idle();
      const lat: number[] = [];
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: WRITERS }, async (_, w) => {
          for (let i = 0; i < SAVES; i++) {
            const s = performance.now();
            await runOperation(ctx, 'wiki.put', { path: pathOf(w, i), text: text(`tag${w}x${i}`) });
            lat.push(performance.now() - s);
          }
        }),
      );
      const elapsed = performance.now() - t0;
      // The index caught up: a search drains what is pending (both sides) and the background pass is done.
      await searchWiki(ctx, { query: 'tag0x0' });
      await t.platform.outbox.idle();
      const cpu = process.cpuUsage(cpu0);
      out.push({
        scenario,
        p50: pct(lat, 50),
        p99: pct(lat, 99),
        perSecond: (lat.length / elapsed) * 1000,
        cpuPerSave: (cpu.user + cpu.system) / 1000 / lat.length,
      });
    }
    console.log(JSON.stringify(out));
  } finally {
    await t.cleanup();
  }
}

function driver(): void {
  const base = process.env.BENCH_BASE_ROOT;
  if (!base) throw new Error('BENCH_BASE_ROOT: a built checkout of main to compare with');
  const here = join(import.meta.dirname, '..');
  const self = join(base, 'bench', 'wiki-write.ts');
  if (!existsSync(self)) copyFileSync(join(here, 'bench', 'wiki-write.ts'), self);
  const rounds = Number(get('--rounds', '2'));
  const engines = argv.includes('--sqlite-only') ? (['sqlite'] as const) : (['sqlite', 'postgres'] as const);
  const sides = { this: here, base } as const;
  const runs: Record<string, Figures[]> = {};
  const loads: number[] = [];
  for (let r = 0; r < rounds; r++)
    for (const engine of engines)
      for (const side of (r % 2 === 0 ? ['base', 'this'] : ['this', 'base']) as Array<keyof typeof sides>) {
        loads.push(loadavg()[0]!);
        const json = execFileSync('node', ['--import', 'tsx', 'bench/wiki-write.ts', '--child', engine, '--saves', String(SAVES)], {
          cwd: sides[side],
          encoding: 'utf8',
          maxBuffer: 1 << 24,
        });
        const key = `${engine}|${side}`;
        runs[key] = [...(runs[key] ?? []), ...(JSON.parse(json.trim().split('\n').pop()!) as Figures[])];
      }
  loads.push(loadavg()[0]!);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const avg = (engine: string, side: string, scenario: string, f: keyof Omit<Figures, 'scenario'>) =>
    mean(runs[`${engine}|${side}`]!.filter((x) => x.scenario === scenario).map((x) => x[f]));
  console.log(
    `wiki.put, ${WRITERS} writers × ${SAVES} saves of ~4 KB, ${rounds} rounds per side (means); load average ${loads.map((l) => l.toFixed(1)).join(' → ')}\n`,
  );
  console.log('| engine | scenario | side | p50 ms | p99 ms | saves/s | CPU ms/save (to index caught up) |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  const ratios: string[] = [];
  for (const engine of engines)
    for (const scenario of ['own pages', 'one page']) {
      for (const side of ['this', 'base'])
        console.log(
          `| ${engine} | ${scenario} | ${side} | ${avg(engine, side, scenario, 'p50').toFixed(1)} | ${avg(engine, side, scenario, 'p99').toFixed(1)} | ${avg(engine, side, scenario, 'perSecond').toFixed(0)} | ${avg(engine, side, scenario, 'cpuPerSave').toFixed(2)} |`,
        );
      const r = (f: keyof Omit<Figures, 'scenario'>) => (avg(engine, 'this', scenario, f) / avg(engine, 'base', scenario, f)).toFixed(2);
      ratios.push(`| ${engine} | ${scenario} | ${r('p50')}× | ${r('p99')}× | ${r('perSecond')}× | ${r('cpuPerSave')}× |`);
    }
  console.log('\n| engine | scenario | p50 this ÷ base | p99 this ÷ base | saves/s this ÷ base | CPU/save this ÷ base |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const l of ratios) console.log(l);
}

const c = argv.indexOf('--child');
if (c >= 0) await child(argv[c + 1] as 'sqlite' | 'postgres');
else driver();
