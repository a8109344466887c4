#!/usr/bin/env node
// The `stoa` command. Sources are TypeScript run through tsx, so a clone works right after `npm install`.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main.ts');
await main(process.argv);
