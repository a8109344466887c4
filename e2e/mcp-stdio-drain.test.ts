import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStoa, stoaJson } from './helpers/run-stoa.js';

const tmp = mkdtempSync(join(tmpdir(), 'stoa-mcp-drain-'));
const data = join(tmp, 'data');
const json = (...args: string[]) => stoaJson(['--data', data, ...args, '--json']);

let agent: string;
beforeAll(async () => {
  agent = (await json('agents', 'create', 'Drainer', '--files', 'on')).id;
  const notes = join(tmp, 'notes.md');
  writeFileSync(notes, '# Notes\n' + 'a line of notes\n'.repeat(200));
  await json('files', 'put', notes, 'shared/notes.md');
}, 300_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('stoa mcp finishes the answers in flight when stdin closes (issue 9 §6)', { timeout: 300_000 }, () => {
  it('N requests piped at once, then stdin closed: all N answers arrive before it exits', async () => {
    const n = 25;
    const lines = [
      {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'drain-test', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      ...Array.from({ length: n }, (_, i) => ({
        jsonrpc: '2.0',
        id: i + 1,
        method: 'tools/call',
        params: { name: i % 2 ? 'ws_list_files' : 'ws_read_file', arguments: i % 2 ? {} : { path: 'shared/notes.md' } },
      })),
    ];
    const r = await runStoa(['mcp', '--data', data, '--agent', agent], { input: lines.map((l) => JSON.stringify(l)).join('\n') + '\n' });
    expect(r.code).toBe(0);
    const answers = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id: number; result?: { isError?: boolean } });
    expect(answers.map((a) => a.id).sort((a, b) => a - b)).toEqual(Array.from({ length: n + 1 }, (_, i) => i));
    for (const a of answers.filter((x) => x.id > 0)) expect(a.result?.isError).toBe(false);
  });
});
