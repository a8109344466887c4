import { StoaError } from '@stoa/contract';
import type { Ctx } from '../platform.js';
import { can } from '../policies/can.js';
import { findFileRows } from '../files/read-file.js';
import { isKnownBinary, isPreviewImage, isTextContent, isTextMime } from '../files/mime.js';
import type { FileRow } from '../files/file-info.js';
import { describeScope, readCandidates } from './resolve-path.js';
import type { ToolScopes } from './caller.js';
import { assertReadSize } from '../operations/agent-gate.js';
import type { ToolMedia } from './area-tool.js';

/**
 * What a read tool found. `shadows`: the row is the agent's own copy and a file it may read sits at the root path
 * it gave too (the answer says which one it is, issue 29).
 */
type ReadOutcome = { row: FileRow; text: string; shadows: boolean } | { row: FileRow; binary: true; image?: ToolMedia };

/**
 * The image type the bytes themselves declare (PNG, JPEG, GIF, WebP), or null: a model is never handed
 * bytes under an image type they do not have, whatever the file's name says.
 *
 * @example
 * imageTypeOf(Buffer.from('89504e470d0a1a0a', 'hex')) // 'image/png'
 */
export function imageTypeOf(b: Buffer): string | null {
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 6 && (b.subarray(0, 6).toString('latin1') === 'GIF87a' || b.subarray(0, 6).toString('latin1') === 'GIF89a')) return 'image/gif';
  if (b.length >= 12 && b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  return null;
}

/**
 * Finds a file for a read tool: own folder first, then the read scope (A4), and reads it if it is text
 * and within STOA_AGENT_READ_BYTES. Binary files give only their row (type and size); a PNG, JPEG, GIF or
 * WebP within the limit gives its image too, for multimodal models (issue 29).
 *
 * @example
 * const r = await readForAgent(ctx, 'reports/summary.md', scopes); // own file agents/<ID>/reports/summary.md
 */
export async function readForAgent(ctx: Ctx, raw: string, scopes: ToolScopes): Promise<ReadOutcome> {
  const { row, shadows } = await locateForAgent(ctx, raw, scopes);
  const max = ctx.platform.config.limits.agentReadBytes;
  if (isPreviewImage(row.mime) && Number(row.size) <= max) {
    const bytes = await ctx.platform.blobs.read(row.blob_key);
    const mimeType = imageTypeOf(bytes);
    return mimeType ? { row, binary: true, image: { type: 'image', mimeType, data: bytes.toString('base64') } } : { row, binary: true };
  }
  if (!isTextMime(row.mime) && (isKnownBinary(row.mime) || Number(row.size) > max)) return { row, binary: true };
  assertReadSize(ctx, row.path, Number(row.size));
  const bytes = await ctx.platform.blobs.read(row.blob_key);
  // An unknown extension says nothing: the content decides (a Makefile or README is text).
  if (!isTextContent(row.mime, bytes)) return { row, binary: true };
  return { row, text: bytes.toString('utf8'), shadows };
}

/**
 * The file a read tool names: own folder first, then the read scope (A4), only where the caller may read;
 * refused with not_found otherwise (a file outside the scope is not told apart from a missing one).
 */
export async function findForAgent(ctx: Ctx, raw: string, scopes: ToolScopes): Promise<FileRow> {
  return (await locateForAgent(ctx, raw, scopes)).row;
}

/** {@link findForAgent}, and whether a readable file at the root path is behind the own copy it found. */
async function locateForAgent(ctx: Ctx, raw: string, scopes: ToolScopes): Promise<{ row: FileRow; shadows: boolean }> {
  const candidates = readCandidates(raw, scopes);
  const readable = candidates.filter((path) => !can(ctx.actor, 'file.read', { kind: 'file', path }));
  // Every candidate in one statement (an own copy and the root file are both looked up on most reads).
  const rows = new Map((readable.length > 0 ? await findFileRows(ctx, readable) : []).map((r) => [r.path, r]));
  const root = candidates.at(-1)!;
  for (const path of readable) {
    const row = rows.get(path);
    if (row) return { row, shadows: path !== root && rows.has(root) };
  }
  const where = candidates.length > 1 ? `in ${describeScope(scopes.own)} nor from the storage root` : `in ${describeScope(scopes.read)}`;
  throw new StoaError(
    'not_found',
    `file "${raw}" was not found ${where}${scopes.read === '' ? '' : ' (you may read only your own folder)'}; list files with ws_list_files`,
  );
}

/** The text beside an image a read tool returns: what it is, so a text-only model still knows. */
function imageAnswer(row: FileRow, image: ToolMedia): string {
  return `[${row.path} · version ${row.version} · image ${image.mimeType}, ${row.size} bytes; the image follows]`;
}

/** A read tool's answer for a binary file: an image with a short line, or type and size only (A4). */
export function binaryReadAnswer(r: { row: FileRow; image?: ToolMedia }): { text: string; path: string; version: number; content?: ToolMedia[] } {
  if (r.image) return { text: imageAnswer(r.row, r.image), path: r.row.path, version: r.row.version, content: [r.image] };
  return { text: binaryAnswer(r.row), path: r.row.path, version: r.row.version };
}

/** The answer for a binary file: type and size only (A4). */
export function binaryAnswer(row: FileRow): string {
  return `"${row.path}" is a binary file: type ${row.mime}, ${row.size} bytes. Only text files can be read; its content is not shown.`;
}

/**
 * Cuts text to `max` characters (Unicode code points) and ends it with a marker saying how much was cut.
 *
 * @example
 * cutForModel('x'.repeat(60000), 50000) // 50,000 × 'x' + '\n\n[truncated: 10000 of 60000 characters cut …]'
 */
export function cutForModel(text: string, max: number, hint = 'use read_file with offset and limit to read the rest'): string {
  if (text.length <= max) return text;
  let units = 0;
  let cps = 0;
  for (const ch of text) {
    if (cps === max) break;
    units += ch.length;
    cps++;
  }
  if (units >= text.length) return text;
  let total = cps;
  for (const _ of text.slice(units)) total++;
  return `${text.slice(0, units)}\n\n[truncated: ${total - cps} of ${total} characters cut; ${hint}]`;
}
