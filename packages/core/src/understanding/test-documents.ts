import { constants, deflateRawSync } from 'node:zlib';
import { writeZip } from './zip.js';

/**
 * Builds a real, minimal PDF with one text line per page (Helvetica), so parser tests need no fixture files.
 *
 * @example
 * const pdf = makePdf(['Lease agreement', 'Rent is due monthly']);
 */
export function makePdf(pages: string[]): Buffer {
  const esc = (s: string) => s.replace(/[\\()]/g, (c) => '\\' + c);
  const objects: string[] = [];
  const kids = pages.map((_, i) => `${3 + i * 2} 0 R`).join(' ');
  const fontId = 3 + pages.length * 2;
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`);
  for (const text of pages) {
    const stream = `BT /F1 18 Tf 72 700 Td (${esc(text)}) Tj ET`;
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${objects.length + 2} 0 R /Resources << /Font << /F1 ${fontId} 0 R >> >> >>`);
    objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  }
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` + offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/**
 * Builds a real, minimal DOCX with one paragraph per string.
 *
 * @example
 * const docx = makeDocx(['Договор аренды', 'Оплата ежемесячно']);
 */
export function makeDocx(paragraphs: string[]): Buffer {
  const x = (s: string) => s.replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c]!);
  const body = paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${x(p)}</w:t></w:r></w:p>`).join('');
  return writeZip([
    {
      name: '[Content_Types].xml',
      data: Buffer.from(
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      ),
    },
    {
      name: '_rels/.rels',
      data: Buffer.from(
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
      ),
    },
    {
      name: 'word/document.xml',
      data: Buffer.from(
        `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
      ),
    },
  ]);
}

const DOCX_PARTS = [
  {
    name: '[Content_Types].xml',
    data: Buffer.from(
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>',
    ),
  },
  {
    name: '_rels/.rels',
    data: Buffer.from(
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
  },
];

/**
 * A DOCX zip bomb: `word/document.xml` inflates to `unpackedMb` MB of text from about as many KB. The
 * deflate stream repeats one self-contained 1 MB segment, so building it costs nothing. With `lie`, the
 * archive's directory declares a tiny size, as crafted bombs do, so only a limit while inflating stops it.
 *
 * @example
 * const bomb = makeDocxBomb(1024); // ≈ 1 MB file, 1 GB of XML
 */
export function makeDocxBomb(unpackedMb: number, opts: { lie?: boolean } = {}): Buffer {
  const sync = { finishFlush: constants.Z_SYNC_FLUSH, level: 9 };
  const head = Buffer.from(
    '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>',
  );
  const segment = deflateRawSync(Buffer.alloc(1024 * 1024, 'a'), sync);
  const packed = Buffer.concat([deflateRawSync(head, sync), ...Array.from({ length: unpackedMb }, () => segment), deflateRawSync(Buffer.alloc(0))]);
  const size = head.length + unpackedMb * 1024 * 1024;
  const declared = opts.lie ? 4096 : size;
  return writeZip([...DOCX_PARTS, { name: 'word/document.xml', data: packed, deflated: { unpackedSize: declared, crc: 0 } }]);
}

/**
 * A PDF whose page tree holds `count` pages (all sharing one content stream): small to send, heavy to walk.
 *
 * @example
 * const pdf = makePdfPageTree(20_000);
 */
export function makePdfPageTree(count: number): Buffer {
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>'];
  const kids = Array.from({ length: count }, (_, i) => `${5 + i} 0 R`).join(' ');
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${count} >>`);
  const stream = 'BT /F1 12 Tf 72 700 Td (page) Tj ET';
  objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  for (let i = 0; i < count; i++)
    objects.push('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R /Resources << /Font << /F1 4 0 R >> >> >>');
  const parts: string[] = ['%PDF-1.4\n'];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(length);
    const obj = `${i + 1} 0 obj\n${o}\nendobj\n`;
    parts.push(obj);
    length += obj.length;
  });
  parts.push(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`));
  parts.push(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`);
  return Buffer.from(parts.join(''), 'latin1');
}

/** Adler-32 (RFC 1950) of `block` repeated `times` times, combined per block as zlib's adler32_combine does. */
function adler32(block: Buffer, times: number): number {
  const BASE = 65521;
  let a1 = 1;
  let b1 = 0;
  for (const byte of block) {
    a1 = (a1 + byte) % BASE;
    b1 = (b1 + a1) % BASE;
  }
  let a = 1;
  let b = 0;
  const rem = block.length % BASE;
  for (let i = 0; i < times; i++) {
    // adler32_combine(adler(a, b), adler(a1, b1), block.length)
    const nb = (((rem * a) % BASE) + b + b1 + BASE - rem) % BASE;
    a = (a + a1 + BASE - 1) % BASE;
    b = nb;
  }
  return ((b << 16) | a) >>> 0;
}

/**
 * A PDF bomb: one page whose content stream (FlateDecode) inflates to `unpackedMb` MB of spaces from about a
 * thousandth of that. Like makeDocxBomb, the deflate stream repeats one self-contained 1 MB segment.
 *
 * @example
 * const bomb = makePdfFlateBomb(1024); // ≈ 1 MB file, a 1 GB content stream
 */
export function makePdfFlateBomb(unpackedMb: number): Buffer {
  const sync = { finishFlush: constants.Z_SYNC_FLUSH, level: 9 };
  const block = Buffer.alloc(1024 * 1024, ' ');
  const segment = deflateRawSync(block, sync);
  const check = Buffer.alloc(4);
  check.writeUInt32BE(adler32(block, unpackedMb));
  const data = Buffer.concat([Buffer.from([0x78, 0xda]), ...Array.from({ length: unpackedMb }, () => segment), deflateRawSync(Buffer.alloc(0)), check]);
  return pdfWithContent(data, '/FlateDecode');
}

/**
 * A PDF bomb through LZWDecode: the table is grown to its 4,096 entries, each one character longer than the
 * last (7.4 MB decoded already), and its longest string (3,839 bytes) is then named over and over, 12 bits at a
 * time, for `unpackedMb` MB more.
 *
 * @example
 * const bomb = makePdfLzwBomb(1024); // ≈ 420 KB file, a content stream of about 1 GB
 */
export function makePdfLzwBomb(unpackedMb: number): Buffer {
  const codes = [256, 97];
  for (let code = 258; code < 4096; code++) codes.push(code);
  for (let n = 0; n < Math.ceil((unpackedMb * 1024 * 1024) / 3839); n++) codes.push(4095);
  codes.push(257);
  // The writer follows the reader's code width: 9 bits after a clear, one more as the table nears each power of two.
  const out: number[] = [];
  let width = 9;
  let next = 258;
  let first = true;
  let bits = 0;
  let held = 0;
  for (const code of codes) {
    bits = (bits << width) | code;
    held += width;
    while (held >= 8) {
      out.push((bits >> (held - 8)) & 0xff);
      held -= 8;
    }
    bits &= (1 << held) - 1;
    if (code === 256) {
      width = 9;
      next = 258;
      first = true;
      continue;
    }
    if (!first && next < 4096) next++;
    first = false;
    if (next + 1 >= 1 << width && width < 12) width++;
  }
  if (held > 0) out.push((bits << (8 - held)) & 0xff);
  return pdfWithContent(Buffer.from(out), '/LZWDecode');
}

/** A one-page PDF whose content stream is `data`, encoded with `filter`. */
function pdfWithContent(data: Buffer, filter: string): Buffer {
  const head = [
    '%PDF-1.4\n',
    '1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n',
    '2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n',
    '3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>\nendobj\n',
    `4 0 obj\n<< /Length ${data.length} /Filter ${filter} >>\nstream\n`,
  ];
  // Objects 1–4 start where the parts before them end.
  const offsets = [1, 2, 3, 4].map((i) => head.slice(0, i).reduce((n, part) => n + part.length, 0));
  const at = head.reduce((n, part) => n + part.length, 0);
  const tailStart = at + data.length;
  const xref = tailStart + '\nendstream\nendobj\n'.length;
  const tail =
    '\nendstream\nendobj\n' +
    `xref\n0 5\n0000000000 65535 f \n` +
    offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('') +
    `trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.concat([Buffer.from(head.join(''), 'latin1'), data, Buffer.from(tail, 'latin1')]);
}

/**
 * JSON nested `depth` levels deep: `[[[…]]]`.
 *
 * @example
 * const json = makeNestedJson(100_000);
 */
export function makeNestedJson(depth: number): Buffer {
  return Buffer.from('['.repeat(depth) + ']'.repeat(depth));
}
