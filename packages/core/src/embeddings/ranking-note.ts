import type { Ctx } from '../platform.js';

/**
 * The first line of a search tool's answer when the ranking is not the full hybrid one, so an agent knows
 * whether meaning was searched: none without an embedding model, or when the provider failed and words alone
 * ranked the hits.
 *
 * @example
 * rankingNote(ctx, hits) // "(Search by words only: this server has no embedding model.)\n"
 */
export function rankingNote(ctx: Ctx, hits: Array<{ matchedBy: Array<'lexical' | 'vector'> }>): string {
  if (!ctx.platform.embeddings) return '(Search by words only: this server has no embedding model.)\n';
  if (hits.every((h) => h.matchedBy.length === 1 && h.matchedBy[0] === 'lexical')) return '(Ranked by words only.)\n';
  return '';
}
