#!/usr/bin/env node
// Precompresses the built web UI (apps/web/dist) once at build time, brotli and gzip beside each text asset, so
// the server sends the smaller file the browser accepts without compressing on every request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = process.argv[2] ?? 'dist';
const TEXT = /\.(js|mjs|css|html|svg|json|txt|map)$/;

function* files(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, e.name);
    if (e.isDirectory()) yield* files(full);
    else if (TEXT.test(e.name) && statSync(full).size >= 1024) yield full;
  }
}

for (const file of files(root)) {
  const bytes = readFileSync(file);
  writeFileSync(
    `${file}.br`,
    brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
  );
  writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
}
