import type { Command } from 'commander';
import { routeIndex } from '@stoa/contract/route-index';
import { action, type GlobalOptions } from '../context.js';
import { print, table, UsageError } from '../output.js';
import { textArg } from '../text-arg.js';

/**
 * `stoa memory …` (§7, M5). FILE is SOUL.md, AGENTS.md or MEMORY.md.
 *
 * Which file: SOUL.md is the agent's named by `--for AGENT`, else by the global `--agent` (in local mode
 * `--agent` also makes the command act AS that agent; in remote mode with a person's token it only names
 * whose SOUL.md). MEMORY.md is the conversation's named by `--channel` (ID or channel name), else by the global
 * `--conversation` — which, for an agent in a turn, is that turn's conversation.
 */
interface RefOptions {
  for?: string;
  channel?: string;
}

function refOf(g: GlobalOptions, o: RefOptions, file: string) {
  return { file, agent: o.for ?? g.agent, conversation: o.channel ?? g.conversation };
}

function versionArg(v: string, min = 0): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`version must be a whole number ≥ ${min}, got "${v}"`);
  return n;
}

const docJson = (d: { file: string; version: number; content: string; [k: string]: unknown }) => ({
  file: d.file,
  version: d.version,
  content: d.content,
  agent: d.agent,
  conversation: d.conversation,
  modified: d.modified,
  author: d.author,
  editable: d.editable,
});
const who = (a: { kind: string; name: string | null } | null) => (a ? (a.kind === 'agent' ? `agent: ${a.name}` : (a.name ?? a.kind)) : '—');

export function registerMemory(program: Command): void {
  const memory = program.command('memory').description('Memory files: SOUL.md (per agent), AGENTS.md (per workspace), MEMORY.md (per conversation)');
  const withRef = (c: Command) =>
    c
      .option('--for <agentId>', 'SOUL.md of this agent (without acting as it)')
      .option('--channel <conversation>', 'MEMORY.md of this conversation (ID or channel name); you must take part in it');

  withRef(memory.command('get <file>').description('Print the newest version of a memory file')).action(
    action(async (api, g, file: string, o: RefOptions) => {
      const d = await api.call(routeIndex.memory.get, { project: api.project, ...refOf(g, o, file) });
      print(!!g.json, docJson(d), () => d.content);
    }),
  );

  withRef(
    memory.command('append <file> <text>').description('Add TEXT (@file, or - for standard input) at the end of the newest version; never conflicts'),
  ).action(
    action(async (api, g, file: string, text: string, o: RefOptions) => {
      const d = await api.call(routeIndex.memory.append, { project: api.project, ...refOf(g, o, file), text: await textArg(text) });
      print(!!g.json, docJson(d), () => `Appended to ${d.file}; now version ${d.version}`);
    }),
  );

  withRef(
    memory
      .command('set <file> <text>')
      .description('Save TEXT (@file, or - for standard input) as a new version')
      .option('--base <version>', 'refuse with memory_version_conflict if someone saved after this version'),
  ).action(
    action(async (api, g, file: string, text: string, o: RefOptions & { base?: string }) => {
      const base = o.base === undefined ? undefined : versionArg(o.base);
      const d = await api.call(routeIndex.memory.set, { project: api.project, ...refOf(g, o, file), content: await textArg(text), base });
      print(!!g.json, docJson(d), () => `Saved ${d.file} as version ${d.version}`);
    }),
  );

  memory
    .command('search <query>')
    .description('Search the memory files you may read')
    .option('--limit <n>', 'at most N results')
    .action(
      action(async (api, g, query: string, o: { limit?: string }) => {
        const hits = await api.call(routeIndex.memory.search, {
          project: api.project,
          q: await textArg(query),
          limit: o.limit ? versionArg(o.limit, 1) : undefined,
        });
        print(!!g.json, hits, () =>
          hits.length === 0 ? '(no matches)' : hits.map((h) => `${h.title}  (version ${h.version}, score ${h.score.toFixed(2)})\n  ${h.snippet}`).join('\n'),
        );
      }),
    );

  withRef(
    memory
      .command('pull')
      .description("Write SOUL.md, AGENTS.md and the conversation's MEMORY.md under DIR/.stoa/memory/")
      .requiredOption('--dir <dir>', 'folder to write into'),
  ).action(
    action(async (api, g, o: RefOptions & { dir: string }) => {
      const r = refOf(g, o, '');
      // Loaded here, not at start: the SDK's memory helpers bring the route schemas with them.
      const { pullMemory } = await import('@stoa/sdk');
      const written = await pullMemory(api, { project: api.project, dir: o.dir, agent: r.agent, conversation: r.conversation });
      print(
        !!g.json,
        written.map(({ file, path, version }) => ({ file, path, version })),
        () => written.map((w) => `${w.path}  (version ${w.version})`).join('\n'),
      );
    }),
  );

  withRef(memory.command('history <file>').description('Saved versions, newest first')).action(
    action(async (api, g, file: string, o: RefOptions) => {
      const h = await api.call(routeIndex.memory.history, { project: api.project, ...refOf(g, o, file) });
      print(!!g.json, h, () =>
        h.length === 0
          ? '(never saved)'
          : table([['VERSION', 'AUTHOR', 'SAVED', 'CHANGE'], ...h.map((v) => [String(v.version), who(v.author), v.modified ?? '—', v.op])]),
      );
    }),
  );

  withRef(memory.command('show <file> <version>').description('Print one version of a memory file')).action(
    action(async (api, g, file: string, version: string, o: RefOptions) => {
      const d = await api.call(routeIndex.memory.show, { project: api.project, ...refOf(g, o, file), version: versionArg(version) });
      print(!!g.json, docJson(d), () => d.content);
    }),
  );

  memory
    .command('list')
    .description('The memory files you may read')
    .action(
      action(async (api, g) => {
        const l = await api.call(routeIndex.memory.list, { project: api.project });
        print(!!g.json, l, () => table([['FILE', 'VERSION', 'ACCESS'], ...l.map((f) => [f.title, String(f.version), f.editable ? 'edit' : 'read'])]));
      }),
    );
}
