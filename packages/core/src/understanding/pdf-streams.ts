import { createInflate } from 'node:zlib';
import { ParseRefusal } from './parse-refusal.js';

/** The bytes after `stream` + end of line, where a PDF stream's data starts. */
function* streamStarts(pdf: Buffer): Generator<number> {
  const keyword = Buffer.from('stream');
  for (let i = pdf.indexOf(keyword); i >= 0; i = pdf.indexOf(keyword, i + keyword.length)) {
    // `endstream` ends a stream; only `stream` itself starts one.
    if (i >= 3 && pdf.toString('latin1', i - 3, i) === 'end') continue;
    let at = i + keyword.length;
    if (pdf[at] === 0x0d) at++;
    if (pdf[at] !== 0x0a) continue;
    yield at + 1;
  }
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
 * Refuses a PDF whose compressed (Flate) streams together unpack to more than `maxUnpackedBytes`, before the PDF
 * parser sees it: the parser inflates streams into memory outside the worker's heap cap, so a 1 MB file whose
 * content stream inflates to 1 GB took the server to 2.4 GB (issue 27). Every `stream` whose data starts as zlib
 * is counted, whatever its dictionary says, so a stream cannot hide by lying about its filter or length.
 *
 * @example
 * await checkPdfStreams(bytes, 200 * 1024 * 1024); // throws ParseRefusal('too_large') for a bomb
 */
export async function checkPdfStreams(pdf: Buffer, maxUnpackedBytes: number): Promise<void> {
  let total = 0;
  for (const at of streamStarts(pdf)) {
    if (!zlibHeader(pdf, at)) continue;
    total += await inflatedSize(pdf, at, maxUnpackedBytes - total);
    if (total > maxUnpackedBytes) throw new ParseRefusal('too_large', `the PDF's streams would unpack to more than ${maxUnpackedBytes} bytes`);
  }
}
