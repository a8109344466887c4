import { memoryVisibility } from '../memory/search.js';
import { registerVisibilityProvider } from './providers.js';

/**
 * Bridges the memory area into the one search: its `memoryVisibility(ctx)` decides which memory documents the
 * caller may read (M5 "search covers only files the caller can read"). The memory area may register the
 * same provider itself; registering again under the same name just replaces it.
 *
 * @example
 * import './memory-provider.js'; // once, for its effect
 */
registerVisibilityProvider('memory', memoryVisibility);
