import { crc32, inflateRawSync } from 'node:zlib';
import { ParseRefusal } from './parse-refusal.js';

interface ZipEntry {
  name: string;
  data: Buffer;
}

interface UnzipCaps {
  /** Most bytes all entries together may unpack to. */
  maxUnpackedBytes: number;
  /** Largest unpacked/packed ratio of one entry. */
  maxRatio: number;
  /** Most entries. */
  maxEntries: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

function endOfCentralDirectory(zip: Buffer): number {
  // The record is 22 bytes plus a comment of at most 65535 bytes, at the very end.
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === EOCD) return i;
  }
  throw new ParseRefusal('unreadable', 'the file is not a zip archive');
}

/**
 * Unpacks a zip archive without trusting it: the sizes its directory declares are checked against the caps
 * before anything is inflated, and each entry is inflated with a hard output limit, so an archive that lies
 * about its sizes stops at the cap instead of filling memory. ZIP64, encryption and methods other than
 * stored/deflate are refused (Word documents use none of them).
 *
 * @example
 * const entries = unzipChecked(docx, { maxUnpackedBytes: 200 << 20, maxRatio: 200, maxEntries: 10_000 });
 */
export function unzipChecked(zip: Buffer, caps: UnzipCaps): ZipEntry[] {
  if (zip.length < 22) throw new ParseRefusal('unreadable', 'the file is not a zip archive');
  const end = endOfCentralDirectory(zip);
  const count = zip.readUInt16LE(end + 10);
  const cdOffset = zip.readUInt32LE(end + 16);
  if (count === 0xffff || cdOffset === 0xffffffff) throw new ParseRefusal('unreadable', 'ZIP64 archives are not read');
  if (count > caps.maxEntries) throw new ParseRefusal('too_complex', `the archive has ${count} entries, over the limit of ${caps.maxEntries}`);
  const declared: Array<{ name: string; method: number; packed: number; unpacked: number; local: number }> = [];
  let total = 0;
  let at = cdOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== CENTRAL) throw new ParseRefusal('unreadable', 'the zip directory is damaged');
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const packed = zip.readUInt32LE(at + 20);
    const unpacked = zip.readUInt32LE(at + 24);
    const nameLen = zip.readUInt16LE(at + 28);
    const extraLen = zip.readUInt16LE(at + 30);
    const commentLen = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLen).toString('utf8');
    if (flags & 1) throw new ParseRefusal('unreadable', 'encrypted archives are not read');
    if (method !== 0 && method !== 8) throw new ParseRefusal('unreadable', `zip compression method ${method} is not read`);
    if (unpacked === 0xffffffff || packed === 0xffffffff || local === 0xffffffff) throw new ParseRefusal('unreadable', 'ZIP64 archives are not read');
    if (unpacked > Math.max(packed, 1) * caps.maxRatio && unpacked > 1024 * 1024) {
      throw new ParseRefusal(
        'too_large',
        `a zip entry would unpack ${Math.round(unpacked / Math.max(packed, 1))} times its size, over the limit of ${caps.maxRatio}`,
      );
    }
    total += unpacked;
    if (total > caps.maxUnpackedBytes) throw new ParseRefusal('too_large', `the archive would unpack to more than ${caps.maxUnpackedBytes} bytes`);
    declared.push({ name, method, packed, unpacked, local });
    at += 46 + nameLen + extraLen + commentLen;
  }
  const out: ZipEntry[] = [];
  let inflated = 0;
  for (const e of declared) {
    if (e.name.endsWith('/')) continue;
    if (e.local + 30 > zip.length || zip.readUInt32LE(e.local) !== LOCAL) throw new ParseRefusal('unreadable', 'the zip archive is damaged');
    const start = e.local + 30 + zip.readUInt16LE(e.local + 26) + zip.readUInt16LE(e.local + 28);
    const packedData = zip.subarray(start, start + e.packed);
    if (packedData.length !== e.packed) throw new ParseRefusal('unreadable', 'the zip archive is truncated');
    // The directory may lie: inflate at most what is left of the budget (and of the declared size), never more.
    const budget = Math.min(e.unpacked, caps.maxUnpackedBytes - inflated);
    let data: Buffer;
    if (e.method === 0) {
      data = packedData;
    } else {
      try {
        data = inflateRawSync(packedData, { maxOutputLength: Math.max(budget, 1) });
      } catch (err) {
        if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
          throw new ParseRefusal('too_large', 'a zip entry unpacks to more than its directory declares');
        throw new ParseRefusal('unreadable', 'the zip archive is damaged');
      }
    }
    if (data.length !== e.unpacked) throw new ParseRefusal('unreadable', 'a zip entry does not match its declared size');
    inflated += data.length;
    out.push({ name: e.name, data });
  }
  return out;
}

/** An entry to write: stored as is, or already deflated (`deflated` gives the size and CRC of the unpacked bytes). */
interface ZipWriteEntry {
  name: string;
  data: Buffer;
  deflated?: { unpackedSize: number; crc: number };
}

/**
 * Writes a zip archive. Parsers get archives rebuilt from checked entries (all stored), so the library that
 * reads them never inflates anything the caps did not see; tests write deflated entries to build bombs.
 *
 * @example
 * const docx = writeZip([{ name: 'word/document.xml', data: Buffer.from(xml) }]);
 */
export function writeZip(entries: ZipWriteEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const method = e.deflated ? 8 : 0;
    const crc = e.deflated ? e.deflated.crc : crc32(e.data) >>> 0;
    const unpacked = e.deflated ? e.deflated.unpackedSize : e.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(unpacked, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, e.data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(CENTRAL, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(e.data.length, 20);
    central.writeUInt32LE(unpacked, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + e.data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(EOCD, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}
