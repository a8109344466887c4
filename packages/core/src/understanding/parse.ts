import { StoaError } from '@stoa/contract';
import { isTextMime } from '../files/mime.js';

export type ParseMode = 'auto' | 'text' | 'pdf' | 'docx';

export interface ParsedDocument {
  text: string;
  /** Character ranges of each page in `text` (PDF), for page numbers on chunks. */
  pages: Array<{ page: number; start: number; end: number }>;
  parser: 'text' | 'pdf' | 'docx';
}

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** Which parser a file gets: by `mode`, or by its type when `auto`. */
export function parserFor(mime: string, mode: ParseMode): 'text' | 'pdf' | 'docx' | null {
  if (mode !== 'auto') return mode;
  if (isTextMime(mime)) return 'text';
  if (mime === 'application/pdf') return 'pdf';
  if (mime === DOCX) return 'docx';
  return null;
}

/**
 * Extracts plain text from a file's bytes: text types as UTF-8, PDF with unpdf (page by page), DOCX with
 * mammoth. Anything else is refused with a reason the caller can show.
 *
 * @example
 * const doc = await parseDocument(bytes, 'application/pdf', 'auto'); // doc.pages[0] = { page: 1, start: 0, end: 812 }
 */
export async function parseDocument(bytes: Buffer, mime: string, mode: ParseMode): Promise<ParsedDocument> {
  const parser = parserFor(mime, mode);
  if (!parser) throw new StoaError('not_a_text_file', `files of type ${mime} cannot be parsed (text, PDF and DOCX can)`);
  if (parser === 'text') {
    const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
    return { text, pages: [{ page: 1, start: 0, end: text.length }], parser };
  }
  if (parser === 'pdf') {
    const { extractText, getDocumentProxy } = await import('unpdf');
    let pagesText: string[];
    try {
      const pdf = await getDocumentProxy(new Uint8Array(bytes));
      pagesText = (await extractText(pdf, { mergePages: false })).text as string[];
    } catch {
      throw new StoaError('bad_request', 'the PDF could not be read (damaged or encrypted)');
    }
    let text = '';
    const pages: ParsedDocument['pages'] = [];
    pagesText.forEach((t, i) => {
      if (i > 0) text += '\n\n';
      const start = text.length;
      text += t.trim();
      pages.push({ page: i + 1, start, end: text.length });
    });
    return { text, pages, parser };
  }
  const mammoth = (await import('mammoth')).default;
  try {
    const r = await mammoth.extractRawText({ buffer: bytes });
    const text = r.value.replace(/\n{3,}/g, '\n\n').trim();
    return { text, pages: [{ page: 1, start: 0, end: text.length }], parser };
  } catch {
    throw new StoaError('bad_request', 'the DOCX could not be read (damaged or not a Word document)');
  }
}
