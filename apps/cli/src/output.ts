import { isStoaError, StoaError } from '@stoa/contract';

/** A usage error (bad flags or arguments): exit status 2 (§7). */
export class UsageError extends Error {}

/** Prints an error as `error <code>: <message>` on stderr and sets the exit status (1, or 2 for usage). */
export function reportError(e: unknown): number {
  if (e instanceof UsageError) {
    process.stderr.write(`error usage: ${e.message}\n`);
    return 2;
  }
  if (isStoaError(e)) {
    process.stderr.write(`error ${(e as StoaError).code}: ${(e as StoaError).message}\n`);
    return 1;
  }
  const err = e as { code?: string; message?: string };
  if (err?.code === 'ECONNREFUSED' || (err as any)?.cause?.code === 'ECONNREFUSED') {
    process.stderr.write('error unavailable: cannot reach the Stoa server (is it running? check --url)\n');
    return 1;
  }
  process.stderr.write(`error internal: ${err?.message ?? String(e)}\n`);
  return 1;
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
