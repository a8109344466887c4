import type { Command } from 'commander';
import type { agentRoutes, RouteOutput } from '@stoa/contract';
import { routeIndex } from '@stoa/contract/route-index';
import { action } from '../context.js';
import { print, table, UsageError } from '../output.js';
import { textArg } from '../text-arg.js';

type Agent = RouteOutput<typeof agentRoutes.show>;

/** The options with --instructions read from a file or standard input when it names one. */
async function withInstructions(o: Record<string, string>): Promise<Record<string, string>> {
  return o.instructions === undefined ? o : { ...o, instructions: await textArg(o.instructions) };
}

function settingsOf(o: { instructions?: string; files?: string; write?: string; read?: string; name?: string }) {
  const pick = <T extends string>(v: string | undefined, allowed: T[], flag: string): T | undefined => {
    if (v === undefined) return undefined;
    if (!allowed.includes(v as T)) throw new UsageError(`${flag} must be ${allowed.join(' or ')}`);
    return v as T;
  };
  return {
    ...(o.name !== undefined ? { name: o.name } : {}),
    ...(o.instructions !== undefined ? { instructions: o.instructions } : {}),
    files: pick(o.files, ['on', 'off'], '--files'),
    write: pick(o.write, ['own', 'project'], '--write'),
    read: pick(o.read, ['project', 'own'], '--read'),
  };
}

function describe(a: Agent): string {
  const lines = [
    `${a.name} (${a.id})`,
    `  folder:       ${a.folder}`,
    `  file access:  ${a.files}; writes ${a.write === 'own' ? 'own folder' : 'whole project'}; reads ${a.read === 'project' ? 'whole project' : 'own folder'}`,
    `  instructions: ${a.instructions ? a.instructions.split('\n')[0] : '(none)'}`,
  ];
  if (a.suspended) lines.push('  suspended:    its owner left the project; `stoa agents reassign ID --owner NAME` or `stoa agents rm ID`');
  if (a.published)
    lines.push(
      `  published:    ${a.published.at} (files ${a.published.access.enabled ? 'on' : 'off'}, writes ${a.published.access.write}, reads ${a.published.access.read})`,
    );
  return lines.join('\n');
}

const withSettings = (c: Command) =>
  c
    .option('--instructions <text>', 'instructions of the agent (TEXT, @file, or - for standard input)')
    .option('--files <on|off>', 'file access (default off)')
    .option('--write <own|project>', 'where the agent writes (default own folder)')
    .option('--read <project|own>', 'what the agent reads (default whole project)');

/** `stoa agents create|list|show|set|copy|rm|publish|reassign` (§7, issue 26). */
export function registerAgents(program: Command): void {
  const agents = program.command('agents').description('Agents of the project and their file access');
  withSettings(agents.command('create <name>').description('Create an agent (file access off unless --files on)')).action(
    action(async (api, g, name: string, o: Record<string, string>) => {
      const a = await api.call(routeIndex.agents.create, { project: api.project, name, ...settingsOf(await withInstructions(o)) });
      print(!!g.json, a, () => `Created agent ${describe(a)}`);
    }),
  );
  agents
    .command('list')
    .description('List agents')
    .action(
      action(async (api, g) => {
        const list = await api.call(routeIndex.agents.list, { project: api.project });
        print(!!g.json, list, () =>
          list.length === 0
            ? 'No agents.'
            : table([
                ['ID', 'NAME', 'FILES', 'WRITES', 'READS', 'PUBLISHED'],
                ...list.map((a) => [a.id, a.name, a.files, a.write, a.read, a.published ? 'yes' : '']),
              ]),
        );
      }),
    );
  agents
    .command('show <id>')
    .description('Show one agent')
    .action(
      action(async (api, g, id: string) => {
        const a = await api.call(routeIndex.agents.show, { project: api.project, id });
        print(!!g.json, a, () => describe(a));
      }),
    );
  withSettings(agents.command('set <id>').description('Change an agent (renaming keeps its folder)').option('--name <name>', 'new name')).action(
    action(async (api, g, id: string, o: Record<string, string>) => {
      const s = settingsOf(await withInstructions(o));
      if (Object.values(s).every((v) => v === undefined)) throw new UsageError('give at least one of --name, --instructions, --files, --write, --read');
      const a = await api.call(routeIndex.agents.update, { project: api.project, id, ...s });
      print(!!g.json, a, () => `Updated ${describe(a)}`);
    }),
  );
  agents
    .command('copy <id>')
    .description('Copy an agent: new ID, new empty folder')
    .action(
      action(async (api, g, id: string) => {
        const a = await api.call(routeIndex.agents.copy, { project: api.project, id });
        print(!!g.json, a, () => `Copied to ${describe(a)}`);
      }),
    );
  agents
    .command('rm <id>')
    .description('Delete an agent (its folder and files stay)')
    .action(
      action(async (api, g, id: string) => {
        await api.call(routeIndex.agents.remove, { project: api.project, id });
        print(!!g.json, { ok: true, id }, () => `Deleted agent ${id}; its folder agents/${id}/ and files stay`);
      }),
    );
  agents
    .command('reassign <id>')
    .description('Give an agent to another member (project admins); an agent suspended when its owner left acts again')
    .requiredOption('--owner <name>', 'the new owner, a member of the project')
    .action(
      action(async (api, g, id: string, o: { owner: string }) => {
        const a = await api.call(routeIndex.agents.reassign, { project: api.project, id, owner: o.owner });
        print(!!g.json, a, () => `Reassigned ${describe(a)}`);
      }),
    );
  agents
    .command('publish <id>')
    .description('Publish: freeze access settings and instructions (use `tokens create --agent ID --published`)')
    .action(
      action(async (api, g, id: string) => {
        const a = await api.call(routeIndex.agents.publish, { project: api.project, id });
        print(
          !!g.json,
          a,
          () => `Published ${describe(a)}\nTokens made with \`stoa tokens create --agent ${a.id} --published\` act with these frozen settings.`,
        );
      }),
    );
}
