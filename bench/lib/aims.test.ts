import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { aimsTable, parseAims, reportAims, verdict, type Aim } from './aims.js';

const put: Aim = { aim: 'files: PUT 4 KB ÷ bare-fsync', value: 0.8, line: 0.8, unit: '×', better: 'higher' };
const ls: Aim = { aim: '`stoa files ls`, local mode', value: 300, line: 300, unit: 'ms', better: 'lower', strict: true };

describe('an aim held to its line', () => {
  test('a figure exactly on a line it may reach is met; on a strict line it is not', () => {
    expect(verdict(put)).toBe('met');
    expect(verdict({ ...put, value: 0.79 })).toBe('not met');
    expect(verdict(ls)).toBe('not met');
    expect(verdict({ ...ls, value: 299.9 })).toBe('met');
    expect(verdict({ ...ls, strict: false })).toBe('met');
  });

  test('a figure that could not be measured is reported as such, never as met', () => {
    expect(verdict({ ...put, value: Number.NaN })).toBe('not measured');
    expect(verdict({ ...ls, value: Number.POSITIVE_INFINITY })).toBe('not measured');
  });
});

describe('the run’s summary', () => {
  const dirs: string[] = [];
  afterEach(() => {
    vi.restoreAllMocks();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  test('what each benchmark reports is gathered into one table, in order, unmeasured figures kept', () => {
    const dir = mkdtempSync(join(tmpdir(), 'stoa-aims-'));
    dirs.push(dir);
    const file = join(dir, 'aims.jsonl');
    const printed: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((s) => (printed.push(String(s)), true));
    reportAims([put, { ...put, aim: 'files: PUT 64 KB ÷ bare-fsync', value: 0.41 }], file);
    reportAims([{ ...ls, value: Number.NaN }], file);
    // A benchmark stopped while it wrote leaves a partial line: not an aim.
    writeFileSync(file, readFileSync(file, 'utf8') + '{"aim": "search: Postgre');

    expect(printed.join('')).toContain('Aim files: PUT 64 KB ÷ bare-fsync: 0.41× (line ≥ 0.80×) — not met');
    const aims = parseAims(readFileSync(file, 'utf8'));
    expect(aims.map((a) => [a.aim, verdict(a)])).toEqual([
      ['files: PUT 4 KB ÷ bare-fsync', 'met'],
      ['files: PUT 64 KB ÷ bare-fsync', 'not met'],
      ['`stoa files ls`, local mode', 'not measured'],
    ]);
    expect(aimsTable(aims)).toEqual([
      '| aim | this run | line | met |',
      '| --- | --- | --- | --- |',
      '| files: PUT 4 KB ÷ bare-fsync | 0.80× | ≥ 0.80× | met |',
      '| files: PUT 64 KB ÷ bare-fsync | 0.41× | ≥ 0.80× | not met |',
      '| `stoa files ls`, local mode | – | < 300.0 ms | not measured |',
    ]);
  });
});
