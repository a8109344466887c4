import { searchDocs } from '../search/index.js';
import type { Ctx } from '../platform.js';
import { maskCode, parseLinks } from './links.js';
import { WIKI_KIND } from './page-store.js';
import type { PageRow } from './schema.js';
import { effectiveTitle } from './wiki-paths.js';

/** Scripts written without spaces between words: a title inside a run of them is still a mention. */
const NO_SPACES = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;
const WORD = /[\p{L}\p{N}\p{M}_]/u;

/** Candidates examined per page view; mentions beyond the best-ranked ones are not listed. */
const CANDIDATES = 30;
/**
 * Titles longer than this many words are not looked for: a sentence-long title is practically never repeated
 * word for word, and its many common words would make the candidate search the slowest part of a page view.
 */
export const MENTION_MAX_TITLE_WORDS = 8;
const WORDS = new Intl.Segmenter('und', { granularity: 'word' });

/**
 * Where `needle` (already lower case) occurs in `hay` as a whole word (or anywhere, next to scripts without
 * spaces). Returns the offset of the first such occurrence, or -1.
 *
 * @example
 * findMention('see the refunds page', 'refunds') // 8
 * findMention('nonrefunds', 'refunds')           // -1
 */
export function findMention(hay: string, needle: string): number {
  if (!needle) return -1;
  const first = Array.from(needle)[0]!;
  const last = Array.from(needle).at(-1)!;
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + 1)) {
    const before = i > 0 ? Array.from(hay.slice(Math.max(0, i - 2), i)).at(-1)! : '';
    const after = Array.from(hay.slice(i + needle.length, i + needle.length + 2))[0] ?? '';
    const okBefore = !before || !WORD.test(before) || NO_SPACES.test(before) || NO_SPACES.test(first);
    const okAfter = !after || !WORD.test(after) || NO_SPACES.test(after) || NO_SPACES.test(last);
    if (okBefore && okAfter) return i;
  }
  return -1;
}

function excerpt(text: string, at: number, len: number): string {
  const start = Math.max(0, at - 60);
  const end = Math.min(text.length, at + len + 60);
  return `${start > 0 ? '…' : ''}${text.slice(start, end).replace(/\s+/g, ' ').trim()}${end < text.length ? '…' : ''}`;
}

/**
 * Pages the caller can see that mention `page`'s title in their text (case-insensitive, whole words) without
 * linking to it (B10); titles of more than MENTION_MAX_TITLE_WORDS words are not looked for. Candidates
 * come from the search index, then each is checked for the exact title; text inside code and `[[…]]` does not
 * count.
 *
 * @example
 * await unlinkedMentions(ctx, refundsRow, ['project']) // [{ path: 'faq', title: 'FAQ', snippet: '…ask for refunds…' }]
 */
export async function unlinkedMentions(ctx: Ctx, page: PageRow, visibility: string[]): Promise<Array<{ path: string; title: string; snippet: string }>> {
  const title = effectiveTitle(page.title, page.path).normalize('NFC').trim();
  if (Array.from(title).length < 2) return [];
  let words = 0;
  for (const w of WORDS.segment(title)) if (w.isWordLike && ++words > MENTION_MAX_TITLE_WORDS) return [];
  const needle = title.toLowerCase();
  // The candidates come from the index: page saves committed before this view are indexed first (outbox/drain.ts).
  await ctx.platform.outbox.settle(ctx.project.id);
  const hits = await searchDocs(ctx.platform.db, { projectId: ctx.project.id, query: title, kinds: [WIKI_KIND], visibility, limit: CANDIDATES });
  const ids = hits.map((h) => h.refId).filter((id) => id !== page.id);
  if (ids.length === 0) return [];
  const rows = await ctx.platform.db.kysely
    .selectFrom('wiki_pages')
    .select(['id', 'path', 'title', 'body'])
    .where('project_id', '=', ctx.project.id)
    .where('id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const out: Array<{ path: string; title: string; snippet: string }> = [];
  for (const id of ids) {
    const r = byId.get(id);
    if (!r || parseLinks(r.body).some((l) => l.path === page.path)) continue;
    // Links and code are masked with spaces, so offsets still point into the original text.
    const plain = maskCode(r.body)
      .replace(/\[\[[^\[\]\n]*\]\]/g, (m) => ' '.repeat(m.length))
      .normalize('NFC');
    const at = findMention(plain.toLowerCase(), needle);
    if (at >= 0) out.push({ path: r.path, title: effectiveTitle(r.title, r.path), snippet: excerpt(r.body, at, needle.length) });
  }
  return out;
}
