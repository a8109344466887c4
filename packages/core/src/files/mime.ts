import { isBinaryFileSync } from 'isbinaryfile';
import { lookup } from 'mime-types';
import type { BlobStore } from '@stoa/blob';

/** Types Stoa fixes itself (text types for code and notes), ahead of the mime-types database. */
const byExt: Record<string, string> = {
  md: 'text/markdown',
  markdown: 'text/markdown',
  txt: 'text/plain',
  text: 'text/plain',
  log: 'text/plain',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  json: 'application/json',
  jsonl: 'application/x-ndjson',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  toml: 'application/toml',
  xml: 'application/xml',
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  svg: 'image/svg+xml',
  ini: 'text/plain',
  cfg: 'text/plain',
  conf: 'text/plain',
  env: 'text/plain',
  rst: 'text/x-rst',
  tex: 'application/x-tex',
  js: 'text/javascript',
  mjs: 'text/javascript',
  cjs: 'text/javascript',
  ts: 'text/x-typescript',
  tsx: 'text/x-typescript',
  jsx: 'text/javascript',
  py: 'text/x-python',
  rb: 'text/x-ruby',
  go: 'text/x-go',
  rs: 'text/x-rust',
  java: 'text/x-java',
  kt: 'text/x-kotlin',
  c: 'text/x-c',
  h: 'text/x-c',
  cpp: 'text/x-c++',
  hpp: 'text/x-c++',
  cs: 'text/x-csharp',
  php: 'text/x-php',
  sh: 'text/x-shellscript',
  bash: 'text/x-shellscript',
  sql: 'application/sql',
  swift: 'text/x-swift',
  lua: 'text/x-lua',
  r: 'text/x-r',
  scala: 'text/x-scala',
  vue: 'text/plain',
  svelte: 'text/plain',
  graphql: 'application/graphql',
  proto: 'text/plain',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  ico: 'image/x-icon',
  bmp: 'image/bmp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  avif: 'image/avif',
  pdf: 'application/pdf',
  zip: 'application/zip',
  gz: 'application/gzip',
  tgz: 'application/gzip',
  tar: 'application/x-tar',
  '7z': 'application/x-7z-compressed',
  rar: 'application/vnd.rar',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
  m4a: 'audio/mp4',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  mkv: 'video/x-matroska',
  avi: 'video/x-msvideo',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  wasm: 'application/wasm',
  exe: 'application/octet-stream',
  bin: 'application/octet-stream',
};

/**
 * MIME type by extension (A4/F5): Stoa's table, then the mime-types database; unknown → application/octet-stream.
 *
 * @example
 * mimeForPath('notes/a.md') // 'text/markdown'
 */
export function mimeForPath(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return stoaType(name) ?? (lookup(name) || OCTET);
}

/** The type from Stoa's own table, which wins over content sniffing (a .png is an image whatever its bytes). */
function stoaType(name: string): string | undefined {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? undefined : byExt[name.slice(dot + 1).toLowerCase()];
}

const OCTET = 'application/octet-stream';
/** Bytes looked at to tell text from binary (isbinaryfile reads at most this much too). */
const SNIFF_BYTES = 8192;

function looksBinary(head: Buffer): boolean {
  return isBinaryFileSync(head.subarray(0, SNIFF_BYTES), { size: Math.min(head.length, SNIFF_BYTES) });
}

/**
 * The type of content whose name says little (`Makefile`, `README`, `notes.org` — which mime-types calls a Lotus
 * Organizer file): Stoa's table decides when it knows the extension; otherwise text content is text/plain
 * (decided from the bytes with isbinaryfile) and anything else keeps the type by extension.
 *
 * @example
 * mimeForContent('Makefile', Buffer.from('all:\n\tcc a.c\n')) // 'text/plain'
 */
export function mimeForContent(path: string, head: Buffer): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const own = stoaType(name);
  if (own) return own;
  const looked = lookup(name) || OCTET;
  if (isTextMime(looked)) return looked;
  return head.length > 0 && !looksBinary(head) ? 'text/plain' : looked;
}

/**
 * Whether a stored file is text: by its type, or — for a type Stoa does not know as binary (older rows, unknown
 * or misleading extensions) — by its bytes.
 */
export function isTextContent(mime: string, bytes: Buffer): boolean {
  return isTextMime(mime) || (!isKnownBinary(mime) && bytes.length > 0 && !looksBinary(bytes));
}

let knownBinary: Set<string> | undefined;

/** Whether a type is one Stoa knows as binary (its bytes need not be looked at). */
export function isKnownBinary(mime: string): boolean {
  return (knownBinary ??= new Set(Object.values(byExt).filter((m) => m !== OCTET && !isTextMime(m)))).has(mime);
}

/**
 * The type when the name alone decides it — an extension in Stoa's table, or a type known as text or as binary —
 * the same as {@link mimeForContent} would give for any bytes; undefined when only the bytes can tell.
 *
 * @example
 * mimeByName('a.md') // 'text/markdown'
 * mimeByName('Makefile') // undefined
 */
export function mimeByName(path: string): string | undefined {
  const byName = mimeForPath(path);
  return stoaType(path.slice(path.lastIndexOf('/') + 1)) !== undefined || isTextMime(byName) || isKnownBinary(byName) ? byName : undefined;
}

/** {@link mimeForContent} for a stored blob: only the first bytes are fetched, and only when the name does not decide. */
export async function mimeForBlob(blobs: BlobStore, path: string, key: string, size: number): Promise<string> {
  const byName = mimeByName(path);
  if (byName !== undefined) return byName;
  if (size === 0) return mimeForPath(path);
  const chunks: Buffer[] = [];
  for await (const c of await blobs.get(key, { start: 0, end: Math.min(size, SNIFF_BYTES) - 1 })) chunks.push(c as Buffer);
  return mimeForContent(path, Buffer.concat(chunks));
}

const textApplication = new Set([
  'application/json',
  'application/x-ndjson',
  'application/yaml',
  'application/toml',
  'application/xml',
  'application/sql',
  'application/graphql',
  'application/x-tex',
  'image/svg+xml',
]);

/** Types whose bytes are text (agents may read them; preview shows them as text). */
export function isTextMime(mime: string): boolean {
  return mime.startsWith('text/') || textApplication.has(mime);
}

/** Types the UI previews as images (F11). SVG is deliberately not here: it is shown as source. */
export function isPreviewImage(mime: string): boolean {
  return mime === 'image/png' || mime === 'image/jpeg' || mime === 'image/gif' || mime === 'image/webp';
}
