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

/**
 * Dot product of a query vector with a stored one, read straight from its bytes: through a Float32Array view
 * when the bytes are 4-byte aligned (little-endian hosts, which is every platform Node supports), copied once
 * when not.
 */
export function dotWithStored(query: Float32Array, bytes: Uint8Array): number {
  const n = Math.min(query.length, bytes.byteLength >> 2);
  const stored =
    bytes.byteOffset % 4 === 0
      ? new Float32Array(bytes.buffer, bytes.byteOffset, n)
      : new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + n * 4));
  let sum = 0;
  for (let i = 0; i < n; i++) sum += query[i]! * stored[i]!;
  return sum;
}

/** The stored bytes back as a vector (see encodeVector). */
export function decodeVector(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(bytes.byteLength >> 2);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

/**
 * A vector as pgvector's text input, `[0.6,0.8]`: each float32 written in full, so it reads back bit for bit.
 * Non-finite values cannot be stored by pgvector; normalised embeddings have none.
 *
 * @example
 * pgvectorLiteral(Float32Array.from([0.5, 0.25])) // "[0.5,0.25]"
 */
export function pgvectorLiteral(v: Float32Array): string {
  return `[${Array.from(v, (x) => (Number.isFinite(x) ? x : 0)).join(',')}]`;
}
