import { createInflate } from 'node:zlib';
import { ParseRefusal } from './parse-refusal.js';

/** How far before `stream` its dictionary is looked for (a stream dictionary is a few hundred bytes). */
const DICTIONARY_WINDOW = 4096;

/**
 * Each stream of a PDF: where its data starts (after `stream` and its end of line), where the next `endstream`
 * is, and whether its dictionary (the text since the last `obj`) names the LZW filter.
 */
function* streams(pdf: Buffer): Generator<{ at: number; end: number; lzw: boolean }> {
  const keyword = Buffer.from('stream');
  for (let i = pdf.indexOf(keyword); i >= 0; i = pdf.indexOf(keyword, i + keyword.length)) {
    // `endstream` ends a stream; only `stream` itself starts one.
    if (i >= 3 && pdf.toString('latin1', i - 3, i) === 'end') continue;
    let at = i + keyword.length;
    if (pdf[at] === 0x0d) at++;
    if (pdf[at] !== 0x0a) continue;
    const dictionary = pdf.toString('latin1', Math.max(i - DICTIONARY_WINDOW, pdf.lastIndexOf('obj', i), 0), i);
    const end = pdf.indexOf('endstream', at + 1);
    yield { at: at + 1, end: end < 0 ? pdf.length : end, lzw: dictionary.includes('/LZW') };
  }
}

/**
 * What LZW data (PDF's LZWDecode: codes of 9–12 bits, most significant bit first, the width growing one code
 * early) decodes to, counted from the lengths of the table's strings without building them; stops once `budget`
 * is passed or at the end-of-data code. A 1 MB LZW stream can decode to gigabytes, as a Flate one can.
 */
function lzwSize(pdf: Buffer, at: number, end: number, budget: number): number {
  const lengths = new Int32Array(4096).fill(1, 0, 256);
  let width = 9;
  let next = 258;
  let previous = 0;
  let total = 0;
  let bits = 0;
  let held = 0;
  for (let i = at; i < end;) {
    while (held < width && i < end) {
      bits = ((bits << 8) | pdf[i++]!) & 0xffffff;
      held += 8;
    }
    if (held < width) break;
    const code = (bits >> (held - width)) & ((1 << width) - 1);
    held -= width;
    if (code === 256) {
      width = 9;
      next = 258;
      previous = 0;
      continue;
    }
    if (code === 257) break;
    let length: number;
    if (code < 256 || (code > 257 && code < next)) length = lengths[code]!;
    else if (code === next && previous > 0) length = previous + 1;
    else break;
    total += length;
    if (total > budget) return total;
    if (previous > 0 && next < 4096) lengths[next++] = previous + 1;
    previous = length;
    if (next + 1 >= 1 << width && width < 12) width++;
  }
  return total;
}

/** Whether two bytes open a zlib stream (RFC 1950: deflate, and a header whose check bits hold). */
function zlibHeader(pdf: Buffer, at: number): boolean {
  const cmf = pdf[at];
  const flg = pdf[at + 1];
  return cmf !== undefined && flg !== undefined && (cmf & 0x0f) === 8 && cmf >> 4 <= 7 && (cmf * 256 + flg) % 31 === 0;
}

/**
 * Counts what one zlib stream at `at` inflates to, reading it through a streaming inflater and dropping the
 * output as it comes, so counting a bomb never holds it; stops once `budget` is passed. A damaged stream counts
 * what it gave before the damage (the PDF parser will not get further either).
 */
function inflatedSize(pdf: Buffer, at: number, budget: number): Promise<number> {
  return new Promise((resolve) => {
    let n = 0;
    const inflate = createInflate({ chunkSize: 64 * 1024 });
    const done = () => resolve(n);
    inflate.on('data', (c: Buffer) => {
      n += c.length;
      if (n > budget) {
        inflate.destroy();
        done();
      }
    });
    inflate.on('end', done);
    inflate.on('error', done);
    inflate.on('close', done);
    inflate.end(pdf.subarray(at));
  });
}

/**
 * Refuses a PDF whose compressed (Flate, LZW) streams together unpack to more than `maxUnpackedBytes`, before the PDF
 * parser sees it: the parser inflates streams into memory outside the worker's heap cap, so a 1 MB file whose
 * content stream inflates to 1 GB took the server to 2.4 GB (issue 27). Every `stream` whose data starts as zlib
 * is counted, whatever its dictionary says or its length claims; one whose dictionary names LZW is decoded as LZW.
 *
 * @example
 * await checkPdfStreams(bytes, 200 * 1024 * 1024); // throws ParseRefusal('too_large') for a bomb
 */
export async function checkPdfStreams(pdf: Buffer, maxUnpackedBytes: number): Promise<void> {
  let total = 0;
  for (const { at, end, lzw } of streams(pdf)) {
    if (zlibHeader(pdf, at)) total += await inflatedSize(pdf, at, maxUnpackedBytes - total);
    else if (lzw) total += lzwSize(pdf, at, end, maxUnpackedBytes - total);
    else continue;
    if (total > maxUnpackedBytes) throw new ParseRefusal('too_large', `the PDF's streams would unpack to more than ${maxUnpackedBytes} bytes`);
  }
}
