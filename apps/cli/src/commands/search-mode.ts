import { Option } from 'commander';

export type SearchModeFlag = 'lexical' | 'vector' | 'hybrid';

/** `--mode`: how a search ranks; the server's default is hybrid where it has an embedding model, lexical where not. */
export function searchModeOption(): Option {
  return new Option(
    '--mode <mode>',
    'ranking: lexical (words), vector (meaning) or hybrid (both); default hybrid where the server has an embedding model',
  ).choices(['lexical', 'vector', 'hybrid']);
}

/**
 * How a hit was found, for the human output: "words", "meaning" or "words+meaning".
 *
 * @example
 * foundBy(['lexical', 'vector']) // "words+meaning"
 */
export function foundBy(matchedBy: Array<'lexical' | 'vector'>): string {
  return matchedBy.map((m) => (m === 'lexical' ? 'words' : 'meaning')).join('+');
}
