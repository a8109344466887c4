import { StoaError } from '@stoa/contract';
import type { Platform } from '../platform.js';
import type { QueryVector, SearchMode } from '../search/index.js';
import { embedQuery } from './embed-pending.js';
import { EmbeddingError } from './provider.js';

/**
 * How a search will rank, and the query's vector when it needs one. Unasked, search is hybrid where an
 * embedding model is configured and lexical where not. Asking for vector or hybrid search without a model is
 * refused (`unavailable`); when the provider fails at query time, hybrid search falls back to lexical (its hits
 * then say `matchedBy: ['lexical']`) and vector search is refused with the provider's reason.
 *
 * @example
 * const { mode, queryVector } = await searchPlan(platform, 'refund policy'); // { mode: 'hybrid', queryVector: { … } }
 */
export async function searchPlan(platform: Platform, query: string, asked?: SearchMode): Promise<{ mode: SearchMode; queryVector?: QueryVector }> {
  const mode = asked ?? (platform.embeddings ? 'hybrid' : 'lexical');
  if (mode === 'lexical') return { mode };
  if (!platform.embeddings)
    throw new StoaError(
      'unavailable',
      `${mode} search needs an embedding model, and this installation has none (STOA_EMBEDDINGS_URL or STOA_EMBEDDINGS_MODEL_PATH); search with mode lexical`,
    );
  try {
    return { mode, queryVector: await embedQuery(platform, query) };
  } catch (e) {
    if (!(e instanceof EmbeddingError)) throw e;
    if (mode === 'hybrid') return { mode: 'lexical' };
    throw new StoaError('unavailable', `the embedding provider could not embed the query: ${e.message}`);
  }
}
