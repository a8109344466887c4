import { StoaError, type ErrorCode } from '@stoa/contract';

/**
 * Characters that make a name look like something it is not: C1 controls (U+0080–U+009F), bidirectional
 * embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) and invisible zero-width characters
 * (U+200B–U+200D, U+2060, U+FEFF). "invoice‮fdp.exe" shows as "invoiceexe.pdf"; "admin\u200b" looks like "admin".
 */
const DECEIVING = /[\u0080-\u009f\u200b-\u200d\u2060\ufeff\u202a-\u202e\u2066-\u2069]/u;

const KNOWN: Record<number, string> = {
  0x200b: 'zero-width space',
  0x200c: 'zero-width non-joiner',
  0x200d: 'zero-width joiner',
  0x2060: 'word joiner',
  0xfeff: 'zero-width no-break space',
  0x202a: 'left-to-right embedding',
  0x202b: 'right-to-left embedding',
  0x202c: 'pop directional formatting',
  0x202d: 'left-to-right override',
  0x202e: 'right-to-left override',
  0x2066: 'left-to-right isolate',
  0x2067: 'right-to-left isolate',
  0x2068: 'first strong isolate',
  0x2069: 'pop directional isolate',
};

/** `U+202E (right-to-left override)`: how refusals name a character, so the invisible becomes visible. */
export function describeCodePoint(ch: string): string {
  const cp = ch.codePointAt(0)!;
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  const name = KNOWN[cp] ?? (cp === 0 ? 'NUL' : cp < 0x20 || cp === 0x7f ? 'control character' : cp >= 0x80 && cp <= 0x9f ? 'C1 control character' : undefined);
  return name ? `${hex} (${name})` : hex;
}

/** The first character of `s` that has no place in a name, or null. */
export function deceivingCharacter(s: string): string | null {
  return DECEIVING.exec(s)?.[0] ?? null;
}

/**
 * Refuses a name (file or folder path, agent name, page title) that holds a character which hides or reorders
 * what people see. Control characters U+0000–U+001F are refused too.
 *
 * @example
 * assertHonestName('report\u202efdp.exe', 'path', 'path_invalid') // throws: path contains U+202E (right-to-left override)
 */
export function assertHonestName(s: string, what: string, code: ErrorCode = 'bad_request'): void {
  const ch = /[\u0000-\u001f\u007f]/.exec(s)?.[0] ?? deceivingCharacter(s);
  if (ch)
    throw new StoaError(code, `${what} contains ${describeCodePoint(ch)}, which is not allowed in names`, { codePoint: describeCodePoint(ch).split(' ')[0] });
}

/**
 * The one NUL rule (issue 9): text that is stored or searched — page bodies, memory, titles, queries, names —
 * never holds U+0000. PostgreSQL cannot store it in text, and SQLite would; refusing it everywhere makes both
 * back ends answer alike. File contents are bytes and may hold anything.
 *
 * @example
 * assertNoNul('a\u0000b', 'text') // throws invalid_text
 */
export function assertNoNul(s: string, what = 'text'): void {
  if (s.includes('\u0000')) throw new StoaError('invalid_text', `${what} contains U+0000 (NUL), which is not allowed in text`);
}

/**
 * Text taken from file contents for an index or a trace: NUL becomes U+FFFD, so content that is fine as bytes
 * never makes an index write fail.
 */
export function indexableText(s: string): string {
  return s.includes('\u0000') ? s.replaceAll('\u0000', '\ufffd') : s;
}
