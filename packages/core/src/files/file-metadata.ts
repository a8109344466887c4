import { StoaError } from '@stoa/contract';
import { mimeForPath } from './mime.js';

/** Limits of a file version's metadata (R5): a small flat object of strings, not a second file. */
const METADATA_MAX_KEYS = 32;
const METADATA_MAX_BYTES = 4096;
const KEY = /^[A-Za-z0-9_.:-]{1,64}$/;
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/**
 * Checks the metadata a runtime writes with a file version (R5 `writeRuntimeBuffer`): a JSON object (or its text)
 * of at most 32 keys (letters, digits, `_ . : -`, up to 64) with string values, at most 4 KB as JSON. Anything
 * else is `bad_request`, never stored.
 *
 * @example
 * fileMetadata('{"source":"report-job","run":"42"}') // { source: 'report-job', run: '42' }
 */
export function fileMetadata(raw: unknown): Record<string, string> | null {
  if (raw === undefined || raw === null || raw === '') return null;
  let value = raw;
  if (typeof raw === 'string') {
    if (Buffer.byteLength(raw) > METADATA_MAX_BYTES) throw new StoaError('bad_request', `metadata is at most ${METADATA_MAX_BYTES} bytes of JSON`);
    try {
      value = JSON.parse(raw);
    } catch {
      throw new StoaError('bad_request', 'metadata must be a JSON object of strings');
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new StoaError('bad_request', 'metadata must be a JSON object of strings');
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > METADATA_MAX_KEYS) throw new StoaError('bad_request', `metadata has at most ${METADATA_MAX_KEYS} keys`);
  const out: Record<string, string> = {};
  for (const [k, v] of entries) {
    if (!KEY.test(k)) throw new StoaError('bad_request', 'metadata keys are 1–64 letters, digits, "_", ".", ":" or "-"');
    if (typeof v !== 'string') throw new StoaError('bad_request', `metadata value "${k}" must be a string`);
    if (CONTROL.test(v)) throw new StoaError('bad_request', `metadata value "${k}" holds control characters`);
    out[k] = v;
  }
  if (Buffer.byteLength(JSON.stringify(out)) > METADATA_MAX_BYTES)
    throw new StoaError('bad_request', `metadata is at most ${METADATA_MAX_BYTES} bytes of JSON`);
  return entries.length ? out : null;
}

/** Types a writer may declare for a name that says nothing of its type: none a browser would run. */
const DECLARABLE = new Set([
  'text/plain',
  'text/markdown',
  'text/csv',
  'text/tab-separated-values',
  'application/json',
  'application/x-ndjson',
  'application/yaml',
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'audio/mpeg',
  'audio/wav',
  'video/mp4',
  'application/zip',
  'application/gzip',
  'application/octet-stream',
]);

/**
 * The type a writer declares for a file (R5 `writeRuntimeBuffer`'s `mimeType`), checked against F12's rule that
 * the name decides: the name's own type is accepted; a name that says nothing (no or an unknown extension) may
 * take a declared type from a short list of inert ones; anything else is `bad_request`, so a file never becomes
 * what its name does not say (nor HTML or SVG by declaration).
 *
 * @example
 * declaredType('out/report', 'text/csv') // 'text/csv'
 * declaredType('a.png', 'text/html')     // throws bad_request
 */
export function declaredType(path: string, declared: string | undefined): string | undefined {
  if (declared === undefined || declared === '') return undefined;
  const type = declared.toLowerCase().split(';')[0]!.trim();
  const byName = mimeForPath(path);
  if (type === byName) return type;
  if (byName === 'application/octet-stream' && DECLARABLE.has(type)) return type;
  throw new StoaError(
    'bad_request',
    byName === 'application/octet-stream'
      ? `"${type}" cannot be declared; give the file a name with its extension`
      : `the name "${path.slice(path.lastIndexOf('/') + 1)}" makes it ${byName}, not ${type}`,
  );
}
