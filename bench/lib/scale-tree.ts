/**
 * The tree of bench/files-scale.ts and bench/sqlite-memory.ts, for N files: 50 in the root; `big` with N/10
 * files; `mid` with 1,000 at every size; the rest in folders `area-A/sub-S` of 250 files each (3,600 at 1M).
 * No import of the core, so a child process of another checkout (bench/sqlite-memory.ts) can use it too.
 */
import { manyFilesName } from './file-names.js';

const PER_LEAF = 250;

/** The `i`th file's name in these trees (7-digit numbering). */
const scaleFileName = (i: number): string => manyFilesName(i, 7);

/** The path of the `i`th file of the tree of `n` files (each on its own, so a caller needs no array of all). */
export function scalePath(n: number, i: number): string {
  const big = Math.floor(n / 10);
  if (i < 50) return scaleFileName(i);
  if (i < 50 + big) return `big/${scaleFileName(i)}`;
  if (i < 1050 + big) return `mid/${scaleFileName(i)}`;
  const leaf = Math.floor((i - 1050 - big) / PER_LEAF);
  return `area-${leaf % 50}/sub-${Math.floor(leaf / 50)}/${scaleFileName(i)}`;
}

/** The paths of the tree of `n` files, in fill order. */
export function scaleLayout(n: number): string[] {
  return Array.from({ length: n }, (_, i) => scalePath(n, i));
}
