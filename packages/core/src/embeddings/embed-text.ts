import { createHash } from 'node:crypto';

/**
 * Characters of a document given to the embedding model: its title, then the start of its body. Most embedding
 * models read 512 tokens at most; 2,000 characters is about that in English. Documents are embedded whole
 * (a page, a memory file, a file's contents) or per chunk (understood documents), so long documents are
 * found through their chunks.
 */
export const EMBED_CHARS = 2000;

/**
 * The text a document is embedded from, and its hash (stored with the vector: a changed text is embedded again).
 *
 * @example
 * embedInput('Refunds', 'Customers may return…') // { text: 'Refunds\nCustomers may return…', hash: '3f…' }
 */
export function embedInput(title: string, body: string): { text: string; hash: string } {
  const text = `${title}\n${body}`.slice(0, EMBED_CHARS);
  return { text, hash: createHash('sha256').update(text).digest('hex') };
}
