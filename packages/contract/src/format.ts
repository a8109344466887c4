/**
 * Formats a byte count the way every door shows sizes (F4 "Used 12.4 MiB of 1.0 GiB"): binary multiples named as
 * such (1 GiB = 1024³ bytes, so the default quota of 1073741824 bytes reads "1.0 GiB", issue 28) with one decimal;
 * plain bytes below 1 KiB.
 * Lives in the contract so the server, the CLI and the web UI print sizes alike without loading the core.
 *
 * @example
 * formatBytes(13_002_342)  // '12.4 MiB'
 * formatBytes(1073741824)  // '1.0 GiB'
 * formatBytes(999)         // '999 B'
 */
export function formatBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${n} B` : `${v.toFixed(1)} ${units[i]}`;
}
