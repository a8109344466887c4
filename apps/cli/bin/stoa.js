#!/usr/bin/env node
// The `stoa` command. It runs the compiled build (apps/cli/dist, made by `npm run build`, `npm install`,
// `npm start` and `npm test`); from a clone without a build, or with STOA_FROM_SOURCE=1 while developing, it
// runs the TypeScript sources through tsx instead.
import { existsSync } from 'node:fs';

const compiled = new URL('../dist/stoa.js', import.meta.url);
let main;
if (process.env.STOA_FROM_SOURCE !== '1' && existsSync(compiled)) {
  ({ main } = await import(compiled.href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/main.ts'));
}
await main(process.argv);
