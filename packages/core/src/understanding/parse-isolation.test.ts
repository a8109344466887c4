import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { testDbKinds } from '@stoa/db/testing';
import { defaultParsingLimits } from '../config.js';
import { putFile } from '../files/put-file.js';
import { createTestPlatform } from '../testing.js';
import { processPendingAssets, understandFile, understandingStatus } from './assets.js';
import { jsonDepth, xmlDepth } from './nesting.js';
import { parserWorkerEntry, ParserPool } from './parser-pool.js';
import { makeDocx, makeDocxBomb, makeNestedJson, makePdf, makePdfFlateBomb, makePdfLzwBomb, makePdfPageTree } from './test-documents.js';
import { checkPdfStreams } from './pdf-streams.js';
import { unzipChecked, writeZip } from './zip.js';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const caps = { maxUnpackedBytes: 8 << 20, maxRatio: 200, maxEntries: 100 };

describe('zip unpacking under caps', () => {
  it('refuses a bomb from its directory before inflating, and a lying one while inflating', () => {
    expect(() => unzipChecked(makeDocxBomb(64), caps)).toThrow(expect.objectContaining({ code: 'too_large' }));
    expect(() => unzipChecked(makeDocxBomb(64), { ...caps, maxRatio: 1e6 })).toThrow(/more than 8388608 bytes/);
    expect(() => unzipChecked(makeDocxBomb(1024, { lie: true }), caps)).toThrow(
      expect.objectContaining({ code: 'too_large', message: expect.stringMatching(/more than its directory declares/) }),
    );
  });

  it('reads a real archive, and refuses damaged, encrypted or crowded ones as unreadable or too complex', () => {
    const names = unzipChecked(makeDocx(['Hello']), caps).map((e) => e.name);
    expect(names).toContain('word/document.xml');
    expect(() => unzipChecked(Buffer.from('not a zip at all, but long enough to look'), caps)).toThrow(expect.objectContaining({ code: 'unreadable' }));
    const truncated = makeDocx(['Hello']).subarray(40);
    expect(() => unzipChecked(truncated, caps)).toThrow(expect.objectContaining({ code: 'unreadable' }));
    const encrypted = makeDocx(['Hello']);
    encrypted.writeUInt16LE(1, encrypted.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 8);
    expect(() => unzipChecked(encrypted, caps)).toThrow(/encrypted/);
    const many = writeZip(Array.from({ length: 101 }, (_, i) => ({ name: `f${i}.xml`, data: Buffer.from('<a/>') })));
    expect(() => unzipChecked(many, caps)).toThrow(expect.objectContaining({ code: 'too_complex' }));
  });
});

describe('PDF streams under the unpacking cap (issue 27)', () => {
  it('refuses a PDF whose content stream inflates past the cap, counting without holding it', async () => {
    await expect(checkPdfStreams(makePdfFlateBomb(64), 8 << 20)).rejects.toMatchObject({ code: 'too_large' });
    await expect(checkPdfStreams(makePdfFlateBomb(4), 8 << 20)).resolves.toBeUndefined();
    await expect(checkPdfStreams(makePdf(['plain']), 1)).resolves.toBeUndefined();
  });

  it('decodes LZW streams by their table lengths alone, and refuses one past the cap', async () => {
    await expect(checkPdfStreams(makePdfLzwBomb(64), 8 << 20)).rejects.toMatchObject({ code: 'too_large' });
    await expect(checkPdfStreams(makePdfLzwBomb(0), 16 << 20)).resolves.toBeUndefined();
    await expect(checkPdfStreams(makePdfLzwBomb(0), 7 << 20)).rejects.toMatchObject({ code: 'too_large' });
  });
});

describe('nesting depth', () => {
  it('measures JSON and XML depth without recursion and stops early', () => {
    expect(jsonDepth('{"a":[1,[2]],"s":"[[[["}', 100)).toBe(3);
    expect(jsonDepth('"\\"[["', 100)).toBe(0);
    expect(jsonDepth(makeNestedJson(1_000_000).toString(), 50)).toBe(51);
    expect(xmlDepth('<?xml version="1.0"?><a><!-- <b> --><b/><c><d>x</d></c></a>', 100)).toBe(3);
    expect(xmlDepth('<a>'.repeat(10_000), 200)).toBe(201);
  });
});

describe('parser worker entry', () => {
  it('runs TypeScript sources through tsx and compiled JavaScript directly, beside the pool module', () => {
    expect(parserWorkerEntry('file:///app/src/understanding/parser-pool.ts')).toEqual({
      url: new URL('file:///app/src/understanding/parse-worker.ts'),
      fromSource: true,
    });
    expect(parserWorkerEntry('file:///app/dist/understanding/parser-pool.js')).toEqual({
      url: new URL('file:///app/dist/understanding/parse-worker.js'),
      fromSource: false,
    });
  });
});

describe('compiled parser worker', () => {
  it('runs as JavaScript built from the sources, without tsx', async () => {
    const ts = (await import('typescript')).default;
    const src = fileURLToPath(new URL('../', import.meta.url));
    // Inside the repository, so the built files find its node_modules (unpdf, mammoth).
    mkdirSync(fileURLToPath(new URL('../../../../.tmp/', import.meta.url)), { recursive: true });
    const out = mkdtempSync(fileURLToPath(new URL('../../../../.tmp/compiled-worker-', import.meta.url)));
    try {
      const todo = ['understanding/parse-worker.ts'];
      for (const seen = new Set<string>(); todo.length > 0;) {
        const file = todo.pop()!;
        if (seen.has(file)) continue;
        seen.add(file);
        const code = readFileSync(join(src, file), 'utf8');
        const js = ts.transpileModule(code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
        mkdirSync(dirname(join(out, file)), { recursive: true });
        writeFileSync(join(out, file.replace(/\.ts$/, '.js')), js);
        for (const m of js.matchAll(/from '(\.\.?\/[^']+)\.js'/g)) todo.push(join(dirname(file), `${m[1]}.ts`));
      }
      const pool = new ParserPool(defaultParsingLimits(), { url: pathToFileURL(join(out, 'understanding/parse-worker.js')), fromSource: false });
      try {
        expect(await pool.run(makeDocx(['Built, not transpiled on the fly']), DOCX, 'auto', { chunk: true })).toMatchObject({
          ok: true,
          doc: { text: 'Built, not transpiled on the fly' },
        });
      } finally {
        await pool.close();
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe('parser pool', () => {
  const pools: ParserPool[] = [];
  const pool = (over: Parameters<typeof defaultParsingLimits>[0]) => {
    const p = new ParserPool(defaultParsingLimits(over));
    pools.push(p);
    return p;
  };
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.close()));
  });

  it('refuses hostile files with a code and reason, and still parses the next good one', async () => {
    const p = pool({ maxUnpackedBytes: 8 << 20, maxPages: 1000, maxDepth: 200, maxTextChars: 300_000 });
    expect(await p.run(makeDocxBomb(64), DOCX, 'auto', { chunk: true })).toMatchObject({ ok: false, code: 'too_large' });
    expect(await p.run(makeDocxBomb(1024, { lie: true }), DOCX, 'auto', { chunk: true })).toMatchObject({ ok: false, code: 'too_large' });
    expect(await p.run(makePdfFlateBomb(1024), 'application/pdf', 'auto', { chunk: true })).toMatchObject({ ok: false, code: 'too_large' });
    expect(await p.run(makeNestedJson(100_000), 'application/json', 'auto', { chunk: true })).toMatchObject({
      ok: false,
      code: 'too_complex',
      reason: 'the JSON nests deeper than 200 levels',
    });
    expect(await p.run(makePdfPageTree(2000), 'application/pdf', 'auto', { chunk: true })).toMatchObject({
      ok: false,
      code: 'too_complex',
      reason: 'the PDF has 2000 pages, over the limit of 1000',
    });
    const deep = unzipChecked(makeDocx(['x']), caps).map((e) =>
      e.name !== 'word/document.xml'
        ? e
        : {
            ...e,
            data: Buffer.from(
              e.data
                .toString()
                .replace('<w:body>', '<w:body>' + '<w:sdt>'.repeat(300))
                .replace('</w:body>', '</w:sdt>'.repeat(300) + '</w:body>'),
            ),
          },
    );
    expect(await p.run(writeZip(deep), DOCX, 'auto', { chunk: true })).toMatchObject({
      ok: false,
      code: 'too_complex',
      reason: 'the document nests deeper than 200 levels',
    });
    expect(await p.run(Buffer.from('x'.repeat(100)), 'text/plain', 'auto', { chunk: true })).toMatchObject({ ok: true, doc: { text: 'x'.repeat(100) } });
    expect(await p.run(Buffer.from('x'.repeat(300_001)), 'text/plain', 'auto', { chunk: true })).toMatchObject({ ok: false, code: 'too_large' });
  });

  it('ends a worker that overruns its time or memory and replaces it for the next job', async () => {
    // Walking 20,000 pages takes far more than a second of CPU; a few bytes of text far less.
    const slow = pool({ timeoutMs: 1000, maxPages: 100_000 });
    expect(await slow.run(makePdfPageTree(20_000), 'application/pdf', 'auto', { chunk: true })).toMatchObject({
      ok: false,
      code: 'timeout',
      reason: 'parsing took longer than 1 s',
    });
    expect(slow.size).toBe(0);
    expect(await slow.run(Buffer.from('fine'), 'text/plain', 'auto', { chunk: false })).toMatchObject({ ok: true, doc: { text: 'fine' } });
    const small = pool({ workerMemoryMb: 24, maxPages: 100_000, timeoutMs: 600_000 });
    expect(await small.run(makePdfPageTree(20_000), 'application/pdf', 'auto', { chunk: true })).toMatchObject({ ok: false, code: 'out_of_memory' });
    expect(await small.run(makePdf(['still here']), 'application/pdf', 'auto', { chunk: true })).toMatchObject({ ok: true, doc: { text: 'still here' } });
  });
});

for (const kind of testDbKinds()) {
  describe(`understanding attempts on ${kind}`, () => {
    it('fails a file over a cap at once, retries a parser that was ended, and gives up after the configured attempts', async () => {
      const t = await createTestPlatform(kind, {}, { parsing: { timeoutMs: 500, maxPages: 100_000, maxAttempts: 2, maxDepth: 100 } });
      try {
        const ctx = await t.admin();
        await putFile(ctx, { path: 'deep.json', source: makeNestedJson(1000) });
        expect(await understandFile(ctx, { path: 'deep.json' })).toMatchObject({ status: 'failed', errorCode: 'too_complex', attempts: 1 });
        await putFile(ctx, { path: 'pages.pdf', source: makePdfPageTree(20_000) });
        const first = await understandFile(ctx, { path: 'pages.pdf' });
        expect(first).toMatchObject({ status: 'pending', errorCode: 'timeout', attempts: 1, error: 'parsing took longer than 500 ms (attempt 1 of 2)' });
        await processPendingAssets(t.platform);
        expect(await understandingStatus(ctx, 'pages.pdf')).toMatchObject({ status: 'failed', errorCode: 'timeout', attempts: 2 });
        // A process that died during its last attempt leaves the asset pending: the next start gives up on it
        // instead of parsing it again.
        await t.platform.db.kysely.updateTable('doc_assets').set({ status: 'pending' }).where('path', '=', 'pages.pdf').execute();
        await processPendingAssets(t.platform);
        const gaveUp = await understandingStatus(ctx, 'pages.pdf');
        expect(gaveUp).toMatchObject({ status: 'failed', errorCode: 'gave_up', attempts: 2 });
        expect(gaveUp.error).toBe('gave up after 2 attempts (last: parsing took longer than 500 ms)');
        // A new version starts a fresh count.
        await putFile(ctx, { path: 'pages.pdf', source: makePdf(['Short now']) });
        expect(await understandingStatus(ctx, 'pages.pdf')).toMatchObject({ status: 'pending', errorCode: null, error: null, attempts: 0 });
      } finally {
        await t.cleanup();
      }
    });
  });
}
