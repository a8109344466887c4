/**
 * Vectors as stored: unit length, Float32 little-endian bytes. Unit length makes cosine similarity a dot product.
 *
 * @example
 * const bytes = encodeVector(normalize(Float32Array.from([3, 4]))); // 8 bytes: 0.6, 0.8
 */
export function normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum);
  if (norm === 0) return v;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i]! / norm;
  return out;
}

export function encodeVector(v: Float32Array): Uint8Array {
  const bytes = new Uint8Array(v.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < v.length; i++) view.setFloat32(i * 4, v[i]!, true);
  return bytes;
}

/** Dot product of a query vector with a stored one, read straight from its bytes (no copy per row). */
export function dotWithStored(query: Float32Array, bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = Math.min(query.length, bytes.byteLength >> 2);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += query[i]! * view.getFloat32(i * 4, true);
  return sum;
}
