import { Command, CommanderError } from 'commander';
import { registerCommands } from './commands/index.js';
import { reportError, UsageError } from './output.js';

/** Builds the `stoa` program. Exported for tests that run commands in-process. `json`: usage errors as JSON (--json). */
export function buildProgram(opts: { json?: boolean } = {}): Command {
  const program = new Command('stoa')
    .description('Stoa: files, memory and a wiki shared by people and AI agents')
    .version('0.1.0')
    .option('--data <dir>', 'local mode: work in-process on this data folder (env STOA_DATA)')
    .option('--url <url>', 'remote mode: the Stoa server (env STOA_URL)')
    .option('--token <token>', 'remote mode: API token (env STOA_TOKEN)')
    .option('--project <name|id>', 'project to act on (default: "default")')
    .option(
      '--volume <spec>',
      'act on a volume instead of the project: users | xperts[:AGENT_ID] | user-xperts:AGENT_ID | knowledges:NAME | skills:NAME (in --project)',
    )
    .option('--agent <agentId>', 'act as this agent (local mode)')
    .option('--conversation <convId>', 'conversation the agent acts in')
    .option('--json', 'print JSON')
    .showHelpAfterError()
    .exitOverride();
  // With --json a usage error is one JSON object like every other error (main prints it), without the help text.
  program.configureOutput(
    opts.json
      ? { writeErr: () => undefined, outputError: () => undefined }
      : { writeErr: (s) => process.stderr.write(s.startsWith('error:') ? s.replace(/^error:/, 'error usage:') : s) },
  );
  registerCommands(program);
  for (const c of program.commands) c.exitOverride();
  return program;
}

export async function main(argv: string[]): Promise<void> {
  // `stoa … | head` closes the pipe early: that ends the command, it is not an error.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
  const json = argv.includes('--json');
  const program = buildProgram({ json });
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') {
        process.exitCode = 0;
        return;
      }
      process.exitCode = json ? reportError(new UsageError(e.message.replace(/^error:\s*/, '')), true) : 2;
      return;
    }
    process.exitCode = reportError(e);
  }
}
