import type { Command } from 'commander';
import { UsageError, reportError } from '../output.js';

/** One command of the tree: its words from the program down, its subcommands and its options. */
interface Node {
  path: string[];
  description: string;
  subcommands: Array<{ name: string; description: string }>;
  options: string[];
}

/** Every command that has subcommands or options, walked from the program (the tree the parser itself uses). */
function commandTree(program: Command): Node[] {
  const out: Node[] = [];
  const walk = (cmd: Command, path: string[], inherited: string[]) => {
    const own = cmd.options.flatMap((o) => [o.long, o.short].filter((f): f is string => !!f));
    const options = [...new Set([...own, ...inherited, '--help'])];
    const subs = cmd.commands.filter((c) => c.name() !== 'help');
    out.push({ path, description: cmd.description(), subcommands: subs.map((c) => ({ name: c.name(), description: c.description() })), options });
    // The program's options are global: every command accepts them.
    for (const c of subs) walk(c, [...path, c.name()], path.length === 0 ? own : inherited);
  };
  walk(program, [], []);
  return out;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function bash(tree: Node[]): string {
  const paths = tree.filter((n) => n.path.length > 0).map((n) => n.path.join(' '));
  const cases = tree.map((n) => `    ${quote(n.path.join(' '))}) words=${quote([...n.subcommands.map((s) => s.name), ...n.options].join(' '))} ;;`);
  return `# stoa completion for bash: eval "$(stoa completion bash)", or save it to /etc/bash_completion.d/stoa
_stoa() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" next i words=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    next="\${path:+$path }\${COMP_WORDS[i]}"
    case "$next" in
${paths.map((p) => `      ${quote(p)}) path="$next" ;;`).join('\n')}
    esac
  done
  case "$path" in
${cases.join('\n')}
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _stoa stoa
`;
}

function zsh(tree: Node[]): string {
  // zsh runs the bash function through its bash-completion layer: one generated script serves both shells.
  return `#compdef stoa
# stoa completion for zsh: eval "$(stoa completion zsh)", or save it as _stoa in a folder of $fpath
autoload -U +X bashcompinit && bashcompinit
${bash(tree).split('\n').slice(1).join('\n')}`;
}

function fish(tree: Node[]): string {
  const lines = ['# stoa completion for fish: stoa completion fish > ~/.config/fish/completions/stoa.fish', 'complete -c stoa -f'];
  for (const n of tree) {
    // A subcommand is offered once the words before it are on the line and no sibling has been chosen yet.
    const seen = n.path.map((w) => `__fish_seen_subcommand_from ${w}`);
    const siblings = n.subcommands.map((s) => s.name).join(' ');
    const cond = [...(n.path.length === 0 ? ['__fish_use_subcommand'] : seen), ...(siblings ? [`not __fish_seen_subcommand_from ${siblings}`] : [])].join(
      '; and ',
    );
    for (const s of n.subcommands) lines.push(`complete -c stoa -n ${quote(cond)} -a ${quote(s.name)} -d ${quote(s.description.split('\n')[0]!)}`);
    const optCond = n.path.length === 0 ? '' : ` -n ${quote(seen.join('; and '))}`;
    for (const o of n.options.filter((x) => x.startsWith('--'))) lines.push(`complete -c stoa${optCond} -l ${quote(o.slice(2))}`);
  }
  return lines.join('\n') + '\n';
}

/** `stoa completion bash|zsh|fish`: a completion script generated from the command tree, so it never goes stale. */
export function registerCompletion(program: Command): void {
  program
    .command('completion')
    .description('Print a shell completion script (bash, zsh or fish)')
    .argument('<shell>', 'bash, zsh or fish')
    .action((shell: string) => {
      try {
        const tree = commandTree(program);
        const scripts: Record<string, (t: Node[]) => string> = { bash, zsh, fish };
        const make = scripts[shell];
        if (!make) throw new UsageError(`unknown shell "${shell}": give bash, zsh or fish`);
        process.stdout.write(make(tree));
      } catch (e) {
        process.exitCode = reportError(e);
      }
    });
}
