import { isStoaError, StoaError } from '@stoa/contract/errors';

/** A usage error (bad flags or arguments): exit status 2 (§7). */
export class UsageError extends Error {}

/**
 * Prints an error on stderr and returns the exit status (1, or 2 for usage): `error <code>: <message>`, or with
 * `json` one object `{"error":{"code","message"}}` that a script can parse (§7).
 */
export function reportError(e: unknown, json = process.argv.includes('--json')): number {
  const { code, message, status } = describeError(e);
  process.stderr.write(json ? JSON.stringify({ error: { code, message } }) + '\n' : `error ${code}: ${message}\n`);
  return status;
}

function describeError(e: unknown): { code: string; message: string; status: number } {
  if (e instanceof UsageError) return { code: 'usage', message: e.message, status: 2 };
  if (isStoaError(e)) return { code: (e as StoaError).code, message: (e as StoaError).message, status: 1 };
  const err = e as { code?: string; message?: string; cause?: { code?: string } };
  if (err?.code === 'ECONNREFUSED' || err?.cause?.code === 'ECONNREFUSED')
    return { code: 'unavailable', message: 'cannot reach the Stoa server (is it running? check --url)', status: 1 };
  return { code: 'internal', message: err?.message ?? String(e), status: 1 };
}

/** Prints `data` as JSON (with --json) or through `human`. */
export function print(json: boolean, data: unknown, human: () => string): void {
  process.stdout.write(json ? JSON.stringify(data, null, 2) + '\n' : human() + (human().endsWith('\n') ? '' : '\n'));
}

/** Simple aligned table for human output. */
export function table(rows: string[][]): string {
  if (rows.length === 0) return '';
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => [...(r[i] ?? '')].length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c + ' '.repeat(widths[i]! - [...c].length))).join('  ')).join('\n');
}
