import type { Command } from 'commander';
import { action, type GlobalOptions } from '../context.js';
import { print, UsageError } from '../output.js';
import { textArg } from '../text-arg.js';

function turnOf(g: GlobalOptions): { agent: string; conversation: string } {
  if (!g.agent || !g.conversation) throw new UsageError('a turn needs --agent AGENT_ID and --conversation CONVERSATION_ID');
  return { agent: g.agent, conversation: g.conversation };
}

/**
 * `stoa turn prepare|commit` (§7, M6): the memory sync around one turn of a hosted agent. In local mode
 * the global `--agent` makes the commands act as that agent; remotely they run with the token's rights (the
 * agent's own token, or a person who manages the agent), and the saves are the agent's either way.
 */
export function registerTurn(program: Command): void {
  const turn = program.command('turn').description('Memory sync around one turn of a hosted agent');

  turn
    .command('prepare')
    .description("Write the agent's memory files into WORKDIR/.stoa/memory/ and print the message to deliver")
    .requiredOption('--workdir <dir>', "the agent's working folder")
    .option('--message <text>', 'the message to deliver (TEXT, @file, or - for standard input)')
    .action(
      action(async (api, g, o: { workdir: string; message?: string }) => {
        const t = turnOf(g);
        const message = o.message === undefined ? undefined : await textArg(o.message);
        // Loaded here, not at start: the SDK's turn helpers bring the route schemas with them.
        const { prepareTurnInDir } = await import('@stoa/sdk');
        const r = await prepareTurnInDir(api, { project: api.project, ...t, workdir: o.workdir, message });
        print(!!g.json, r, () => r.message);
      }),
    );

  turn
    .command('commit')
    .description("Save the agent's edits of the files in WORKDIR/.stoa/memory/ as new versions")
    .requiredOption('--workdir <dir>', "the agent's working folder")
    .action(
      action(async (api, g, o: { workdir: string }) => {
        const { commitTurnFromDir } = await import('@stoa/sdk');
        const r = await commitTurnFromDir(api, { project: api.project, ...turnOf(g), workdir: o.workdir });
        print(!!g.json, r, () =>
          r.files
            .map(
              (f) =>
                `${f.file}: ${f.status}${f.status === 'saved' || f.status === 'merged' ? ` (version ${f.version})` : ''}${f.reason ? ` — ${f.reason}` : ''}`,
            )
            .join('\n'),
        );
        for (const f of r.files.filter((x) => x.status === 'refused'))
          process.stderr.write(`error ${f.code ?? 'forbidden'}: ${f.file} was not saved: ${f.reason ?? ''}\n`);
        if (r.files.some((f) => f.status === 'refused')) process.exitCode = 1;
      }),
    );
}
