// Starts a parser worker from TypeScript sources: tsx compiles the entry named in workerData on the fly (the
// way apps/cli/bin/stoa.js runs the CLI). A compiled build starts parse-worker.js directly and never loads this.
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

await tsImport(workerData.entry, import.meta.url);
