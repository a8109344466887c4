import { StoaError } from '@stoa/contract';

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
