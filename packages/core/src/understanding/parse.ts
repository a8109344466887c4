import { isTextMime } from '../files/mime.js';
import type { ParsingLimits } from '../config.js';
import { jsonDepth, xmlDepth } from './nesting.js';
import { ParseRefusal } from './parse-refusal.js';
import { unzipChecked, writeZip } from './zip.js';
import { checkPdfStreams } from './pdf-streams.js';

export type ParseMode = 'auto' | 'text' | 'pdf' | 'docx';

export interface ParsedDocument {
  text: string;
  /** Character ranges of each page in `text` (PDF), for page numbers on chunks. */
  pages: Array<{ page: number; start: number; end: number }>;
  parser: 'text' | 'pdf' | 'docx';
}

/** The caps a parser itself applies (memory, time and attempts are applied around it). */
export type ParseCaps = Pick<ParsingLimits, 'maxInputBytes' | 'maxUnpackedBytes' | 'maxRatio' | 'maxTextChars' | 'maxPages' | 'maxDepth'>;

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
/** A Word document has a few dozen parts; thousands mean a crafted archive. */
const MAX_ZIP_ENTRIES = 10_000;

/** Which parser a file gets: by `mode`, or by its type when `auto`. */
export function parserFor(mime: string, mode: ParseMode): 'text' | 'pdf' | 'docx' | null {
  if (mode !== 'auto') return mode;
  if (isTextMime(mime)) return 'text';
  if (mime === 'application/pdf') return 'pdf';
  if (mime === DOCX) return 'docx';
  return null;
}

function capText(text: string, caps: ParseCaps): string {
  if (text.length > caps.maxTextChars) throw new ParseRefusal('too_large', `the text is longer than ${caps.maxTextChars} characters`);
  return text;
}

async function parsePdf(bytes: Buffer, caps: ParseCaps): Promise<ParsedDocument> {
  // Counted before pdf.js sees the file: what it inflates lives outside the worker's heap cap (issue 27).
  await checkPdfStreams(bytes, caps.maxUnpackedBytes);
  const { extractText, getDocumentProxy } = await import('unpdf');
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // No code generated from font programs (isEvalSupported): the file is untrusted.
    pdf = await getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false, stopAtErrors: false, verbosity: 0 });
  } catch {
    throw new ParseRefusal('unreadable', 'the PDF could not be read (damaged or encrypted)');
  }
  if (pdf.numPages > caps.maxPages) throw new ParseRefusal('too_complex', `the PDF has ${pdf.numPages} pages, over the limit of ${caps.maxPages}`);
  let pagesText: string[];
  try {
    pagesText = (await extractText(pdf, { mergePages: false })).text as string[];
  } catch {
    throw new ParseRefusal('unreadable', 'the PDF could not be read (damaged or encrypted)');
  }
  let text = '';
  const pages: ParsedDocument['pages'] = [];
  pagesText.forEach((t, i) => {
    if (i > 0) text += '\n\n';
    const start = text.length;
    text += t.trim();
    pages.push({ page: i + 1, start, end: text.length });
    capText(text, caps);
  });
  return { text, pages, parser: 'pdf' };
}

async function parseDocx(bytes: Buffer, caps: ParseCaps): Promise<ParsedDocument> {
  const entries = unzipChecked(bytes, { maxUnpackedBytes: caps.maxUnpackedBytes, maxRatio: caps.maxRatio, maxEntries: MAX_ZIP_ENTRIES });
  for (const e of entries) {
    if (!/\.(xml|rels)$/i.test(e.name)) continue;
    if (xmlDepth(e.data.toString('utf8'), caps.maxDepth) > caps.maxDepth) {
      throw new ParseRefusal('too_complex', `the document nests deeper than ${caps.maxDepth} levels`);
    }
  }
  const mammoth = (await import('mammoth')).default;
  let raw: string;
  try {
    // mammoth gets the checked entries, stored, so it never inflates anything the caps did not see.
    raw = (await mammoth.extractRawText({ buffer: writeZip(entries) })).value;
  } catch {
    throw new ParseRefusal('unreadable', 'the DOCX could not be read (damaged or not a Word document)');
  }
  const text = capText(raw.replace(/\n{3,}/g, '\n\n').trim(), caps);
  return { text, pages: [{ page: 1, start: 0, end: text.length }], parser: 'docx' };
}

/**
 * Extracts plain text from a file's bytes under the caps: text types as UTF-8 (JSON checked for nesting), PDF
 * with unpdf (page by page) once its compressed streams passed the unpacking cap, DOCX with mammoth after its archive passed the unpacking caps. Anything over a cap
 * or unreadable is refused with a ParseRefusal. It runs inside a parser worker (see parser-pool.ts), where
 * memory and time are capped too; call it directly only on trusted input.
 *
 * @example
 * const doc = await parseDocument(bytes, 'application/pdf', 'auto', caps); // doc.pages[0] = { page: 1, start: 0, end: 812 }
 */
export async function parseDocument(bytes: Buffer, mime: string, mode: ParseMode, caps: ParseCaps): Promise<ParsedDocument> {
  const parser = parserFor(mime, mode);
  if (!parser) throw new ParseRefusal('unreadable', `files of type ${mime} cannot be parsed (text, PDF and DOCX can)`);
  if (bytes.length > caps.maxInputBytes) throw new ParseRefusal('too_large', `the file is larger than ${caps.maxInputBytes} bytes`);
  if (parser === 'text') {
    const text = capText(bytes.toString('utf8').replace(/^\uFEFF/, ''), caps);
    if (/json/.test(mime) && jsonDepth(text, caps.maxDepth) > caps.maxDepth) {
      throw new ParseRefusal('too_complex', `the JSON nests deeper than ${caps.maxDepth} levels`);
    }
    return { text, pages: [{ page: 1, start: 0, end: text.length }], parser };
  }
  return parser === 'pdf' ? parsePdf(bytes, caps) : parseDocx(bytes, caps);
}
