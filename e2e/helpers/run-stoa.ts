import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root and the `stoa` binary every acceptance test runs (the real one, as a user would). */
export const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const STOA_BIN = fileURLToPath(new URL('../../apps/cli/bin/stoa.js', import.meta.url));

interface RunResult {
  stdout: string;
  stderr: string;
  /** Exit status; null when killed by a signal. */
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface RunOptions {
  /** Extra environment, merged over a clean copy of this process's environment (see `baseEnv`). */
  env?: Record<string, string | undefined>;
  /** Bytes written to the command's stdin (then closed). */
  input?: string | Buffer;
  cwd?: string;
  /** Kill the command after this many milliseconds (a safety net for a hanging command; default 240 s). */
  timeoutMs?: number;
}

/**
 * This process's environment without the Stoa variables a developer's shell may carry (STOA_URL, STOA_TOKEN,
 * STOA_DATA, limits…), so a test only sees the settings it gives.
 */
export function baseEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('STOA_') && k !== 'AWS_ACCESS_KEY_ID' && k !== 'AWS_SECRET_ACCESS_KEY') env[k] = v;
  env.NO_COLOR = '1';
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/**
 * Runs `node apps/cli/bin/stoa.js ARGS…` to its end and returns what it printed and its exit status.
 *
 * @example
 * const r = await runStoa(['--data', dir, 'files', 'ls', '--json']);
 * expect(r.code).toBe(0);
 * const files = JSON.parse(r.stdout);
 *
 * @example
 * // stdin, and settings through the environment
 * await runStoa(['files', 'put', '-', 'notes.md'], { env: { STOA_DATA: dir }, input: '# hi' });
 */
export function runStoa(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [STOA_BIN, ...args], { cwd: opts.cwd ?? REPO, env: baseEnv(opts.env), stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 240_000);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), code, signal });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.input ?? '');
  });
}

/**
 * Runs a command that must succeed and parses its `--json` output (add `--json` yourself). Throws with the
 * command's stderr when it fails, so a failing test shows why.
 *
 * @example
 * const usage = await stoaJson<{ used: number; quota: number }>(['--data', dir, 'files', 'usage', '--json']);
 */
export async function stoaJson<T = any>(args: string[], opts: RunOptions = {}): Promise<T> {
  const r = await runStoa(args, opts);
  if (r.code !== 0) throw new Error(`stoa ${args.join(' ')} exited ${r.code}: ${r.stderr.trim()}`);
  try {
    return JSON.parse(r.stdout) as T;
  } catch {
    throw new Error(`stoa ${args.join(' ')} printed no JSON: ${r.stdout.slice(0, 500)}`);
  }
}
