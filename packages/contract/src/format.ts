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

/**
 * A document's vector index state in words (issue 32): "unavailable" says why — no embedding model is
 * configured — and what to set, instead of leaving a reader to guess whether something broke.
 *
 * @example
 * describeVectorIndex('unavailable') // 'unavailable: no embedding model is configured (…); search is by words'
 */
export function describeVectorIndex(status: string): string {
  if (status === 'unavailable')
    return 'unavailable: no embedding model is configured (set STOA_EMBEDDINGS_URL or STOA_EMBEDDINGS_MODEL_PATH on the server); search is by words';
  return status;
}
