import { readFile } from 'node:fs/promises';
import { UsageError } from './output.js';

let stdinTaken = false;

async function readStdin(): Promise<string> {
  // Standard input ends once: a second argument asking for it would silently get nothing.
  if (stdinTaken) throw new UsageError('only one argument can be "-" (standard input)');
  stdinTaken = true;
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A text argument of any command, by the usual convention: `-` (or `@-`) is standard input, `@path` the contents of a
 * local file, anything else the text itself. A text that really is "-" or starts with "@" comes from a file or stdin.
 *
 * @example
 * echo "Met Ana" | stoa memory append MEMORY.md -    // textArg('-') → 'Met Ana\n'
 */
export async function textArg(arg: string): Promise<string> {
  if (arg === '-' || arg === '@-') return readStdin();
  if (!arg.startsWith('@')) return arg;
  const path = arg.slice(1);
  if (path === '') throw new UsageError('"@" must be followed by a file name, e.g. @soul.md (or - for standard input)');
  try {
    return await readFile(path, 'utf8');
  } catch {
    throw new UsageError(`cannot read "${path}"`);
  }
}
