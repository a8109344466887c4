#!/usr/bin/env node
// The `stoa` command. It runs the compiled build (apps/cli/dist, made by `npm run build`, `npm install`,
// `npm start` and `npm test`); from a clone without a build, or with STOA_FROM_SOURCE=1 while developing, it
// runs the TypeScript sources through tsx instead.
import { existsSync } from 'node:fs';
import module from 'node:module';

const compiled = new URL('../dist/stoa.js', import.meta.url);
let main;
if (process.env.STOA_FROM_SOURCE !== '1' && existsSync(compiled)) {
  // Node ≥ 22.1 keeps the compiled code of the bundle on disk (in the system's temporary folder; NODE_COMPILE_CACHE
  // picks another, NODE_DISABLE_COMPILE_CACHE=1 turns it off), so a start skips most of compiling it. Node 20 has
  // no such cache: there this does nothing. A cache that cannot be written is ignored by Node, never an error.
  module.enableCompileCache?.();
  ({ main } = await import(compiled.href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/main.ts'));
}
await main(process.argv);
