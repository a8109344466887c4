/**
 * Projects with many files for the benchmarks (bench/files-100k.ts, bench/files-scale.ts): the fast way in
 * (`fillProject`, shared with the tests, see packages/core/src/files/bulk-fill.ts) and a bounded latency
 * measurement.
 */
export { baseName, fillProject } from '@stoa/core/testing';
export { manyFilesName } from './file-names.js';
export { measure, type Measured } from './measure.js';
