import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStoa, stoaJson } from './helpers/run-stoa.js';

const tmp = mkdtempSync(join(tmpdir(), 'stoa-cli-agents-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// A story: each step builds on what the steps before it made, so the steps keep their order under --sequence.shuffle.
describe('stoa agents / conversations / tools (local mode, the real binary)', { timeout: 300_000, shuffle: false }, () => {
  const data = join(tmp, 'data');
  const stoa = (...args: string[]) => runStoa(['--data', data, ...args]);
  const json = (...args: string[]) => stoaJson(['--data', data, ...args, '--json']);

  it('agents create --json gives {"id",…} with the A1 defaults; set, show, copy, publish, rm', async () => {
    const a = await json('agents', 'create', 'Researcher', '--instructions', 'Be brief.');
    expect(a).toMatchObject({
      name: 'Researcher',
      instructions: 'Be brief.',
      files: 'off',
      write: 'own',
      read: 'project',
      folder: `agents/${a.id}/`,
      published: null,
    });
    expect(a.id).toMatch(/^agt_[A-Za-z0-9]{8}$/);
    const set = await json('agents', 'set', a.id, '--name', 'Analyst', '--files', 'on', '--write', 'project');
    expect(set).toMatchObject({ id: a.id, name: 'Analyst', files: 'on', write: 'project', folder: `agents/${a.id}/` });
    const human = await stoa('agents', 'show', a.id);
    expect(human.stdout).toContain(`Analyst (${a.id})\n  folder:       agents/${a.id}/\n  file access:  on; writes whole project; reads whole project`);
    const copy = await json('agents', 'copy', a.id);
    expect(copy).toMatchObject({ name: 'Analyst (copy)', files: 'on', write: 'project' });
    expect(copy.id).not.toBe(a.id);
    const pub = await json('agents', 'publish', a.id);
    expect(pub.published).toMatchObject({ access: { enabled: true, write: 'project', read: 'project' }, instructions: 'Be brief.' });
    expect((await json('agents', 'list')).map((x: any) => x.id)).toEqual([a.id, copy.id]);
    expect(await json('agents', 'rm', copy.id)).toEqual({ ok: true, id: copy.id });
    const gone = await stoa('agents', 'show', copy.id);
    expect([gone.code, gone.stderr.trim()]).toEqual([1, `error not_found: agent "${copy.id}" does not exist`]);
    const bad = await stoa('agents', 'create', 'X', '--write', 'everywhere');
    expect([bad.code, bad.stderr.trim()]).toEqual([2, 'error usage: --write must be own or project']);
  });

  it('conversations create --json gives {"id",…}; the agent acts in it with --agent/--conversation; trace ID shows the calls', async () => {
    const a = await json('agents', 'create', 'Clerk', '--files', 'on');
    const conv = await json('conversations', 'create', '--members', a.id);
    expect(conv).toMatchObject({
      kind: 'dialog',
      members: [
        { kind: 'user', name: 'admin' },
        { kind: 'agent', id: a.id, name: 'Clerk' },
      ],
    });
    const channel = await json('conversations', 'create', '--channel', 'general', '--members', a.id);
    expect(channel).toMatchObject({ kind: 'channel', name: 'general' });
    expect((await json('conversations', 'list')).map((c: any) => c.id)).toEqual([conv.id, channel.id]);
    // An agent's file listing in local mode, then its trace.
    const tools = await runStoa(['--data', data, '--agent', a.id, 'tools', '--format', 'openai']);
    expect(JSON.parse(tools.stdout)[0].function.description).toContain(`For you (agent ${a.id})`);
    const trace = await json('conversations', 'trace', conv.id);
    expect(trace).toEqual([]);
  });

  it('stoa tools prints the schemas in the three formats; a bad format is a usage error', async () => {
    const mcp = JSON.parse((await stoa('tools')).stdout);
    expect(mcp.map((t: any) => t.name).slice(0, 10)).toEqual([
      'ws_list_files',
      'ws_read_file',
      'ws_write_file',
      'ws_delete_file',
      'list_files',
      'read_file',
      'create_file',
      'str_replace',
      'full_file_rewrite',
      'delete_file',
    ]);
    expect(mcp[0]).toMatchObject({ name: 'ws_list_files', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } });
    const anthropic = JSON.parse((await stoa('tools', '--format', 'anthropic')).stdout);
    expect(anthropic[3]).toMatchObject({ name: 'ws_delete_file', input_schema: { type: 'object', required: ['path'] } });
    const r = await stoa('tools', '--format', 'yaml');
    expect([r.code, r.stderr.trim()]).toEqual([2, 'error usage: --format must be mcp, openai or anthropic']);
    // Strict mode (issue 28): every property required, the optional ones nullable, strict: true.
    const strict = JSON.parse((await stoa('tools', '--format', 'openai', '--strict')).stdout);
    expect(strict[2].function).toMatchObject({
      name: 'ws_write_file',
      strict: true,
      parameters: { required: ['path', 'content', 'mode', 'expected_version'] },
    });
    const strictAnthropic = JSON.parse((await stoa('tools', '--format', 'anthropic', '--strict')).stdout);
    expect(strictAnthropic[2]).toMatchObject({
      name: 'ws_write_file',
      strict: true,
      input_schema: { required: ['path', 'content'], additionalProperties: false },
    });
    expect(JSON.stringify(strictAnthropic)).not.toMatch(/"(minLength|maxLength|minimum|maximum|default)"/);
    const mcpStrict = await stoa('tools', '--strict');
    expect([mcpStrict.code, mcpStrict.stderr.trim()]).toEqual([2, 'error usage: --strict goes with --format openai or anthropic']);
  });

  it('tokens create --agent ID [--published] makes agent tokens; --published needs a published agent', async () => {
    const a = await json('agents', 'create', 'Pub', '--files', 'on');
    expect(await json('tokens', 'create', '--agent', a.id)).toMatchObject({ token: expect.stringMatching(/^stoa_/), agent: a.id });
    const early = await stoa('tokens', 'create', '--agent', a.id, '--published');
    expect([early.code, early.stderr.trim()]).toEqual([1, `error bad_request: agent "${a.id}" is not published; publish it first`]);
    await json('agents', 'publish', a.id);
    expect(await json('tokens', 'create', '--agent', a.id, '--published')).toMatchObject({ agent: a.id, published: true });
  });
});
