import type { Ctx } from '../platform.js';

/**
 * Answers which search-index visibility values of one area the caller may read. Called once per search with
 * the request's context; the values are matched exactly against `SearchDocInput.visibility` of the
 * documents that area indexes.
 */
export type VisibilityProvider = (ctx: Ctx) => Promise<string[]>;

/**
 * Areas that index documents for the one search (B1) register here how they decide visibility, so the
 * unified search never needs to know their rules. The memory area is the intended user: it indexes memory
 * files with `kind: 'memory'` and a visibility of its choosing (for example `memory:agents`,
 * `memory:soul:<agentId>`, `memory:conv:<conversationId>`) and registers one provider that returns the values
 * the caller may read. A provider that throws a StoaError (e.g. forbidden) contributes nothing.
 *
 * Register once, at module load of the area (an area installer is not needed: providers hold no platform state).
 *
 * @example
 * import { registerVisibilityProvider } from '../unified-search/providers.js';
 * registerVisibilityProvider('memory', async (ctx) => ['memory:agents', ...(await myConversations(ctx)).map((c) => `memory:conv:${c}`)]);
 */
export const visibilityProviders = new Map<string, VisibilityProvider>();

/**
 * Registers (or replaces) the visibility provider of an area; the name is the area, e.g. 'memory'.
 *
 * @example
 * registerVisibilityProvider('memory', async (ctx) => ['memory:agents']);
 */
export function registerVisibilityProvider(area: string, provider: VisibilityProvider): void {
  visibilityProviders.set(area, provider);
}

/** The one search's kind of understood documents' chunks (indexed as `chunk`, see understanding/assets.ts). */
export const DOCUMENT_KIND = 'document';

/** Kinds the one search covers by default: wiki, memory, file contents and understood documents (B1). */
export const UNIFIED_KINDS = ['wiki', 'memory', 'file', DOCUMENT_KIND] as const;
