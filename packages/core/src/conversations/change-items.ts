import { createTwoFilesPatch } from 'diff';
import { sql } from 'kysely';
import type { Ctx } from '../platform.js';

// What the review and the undo of a conversation (B11) share: the item's shape and how its versions are read.

/** A version of an item as the review shows it. */
export interface ChangeVersion {
  version: number;
  size: number;
}

/**
 * What an undo would do to an item:
 * - `revertible`: it goes back to its state before the conversation;
 * - `conflict`: someone else changed it after the conversation first did; it is left alone (B11: their work is never lost);
 * - `reverted`: it is already as it was before the conversation (undone before, or changed back by hand);
 * - `unrecoverable`: the conversation deleted it and it has been purged from the trash since, or the version
 *   before the conversation is no longer kept (X8) — nothing is left to restore.
 */
export type ChangeStatus = 'revertible' | 'conflict' | 'reverted' | 'unrecoverable';

export interface ConversationChange {
  /** `file:<path>`, `wiki:<path>` or `memory:<path>`: what `revertConversation`'s `items` names. */
  ref: string;
  kind: 'file' | 'wiki' | 'memory';
  /** The item's current path (memory: `AGENTS.md`, `SOUL.md:<agent>`, `MEMORY.md:<conversation>`). */
  path: string;
  /** The path it had before the conversation moved it, when it did. */
  movedFrom: string | null;
  /** The path the conversation left a file at, when a person moved it since (it is listed under `path`, where it is now). */
  movedSince: string | null;
  /** The version before the conversation first touched it; null when the conversation created it. */
  before: ChangeVersion | null;
  /** The conversation's last version; null when the conversation deleted it. */
  after: ChangeVersion | null;
  /** The version now; null when it no longer exists. */
  current: ChangeVersion | null;
  status: ChangeStatus;
  /** Who changed it after the conversation (names), for `conflict`. */
  changedBy: string[];
  /** Unified diff from `before` to `after`; null for binary or large files (see `binary`) and deleted items. */
  diff: string | null;
  binary: boolean;
  /** One sentence on what undo does or why it cannot. */
  note: string;
}

/** Text files up to this size get a text diff; larger ones are compared by size. */
export const DIFF_MAX_BYTES = 1024 * 1024;
export const DELETE_TOOLS = new Set(['ws_delete_file', 'delete_file', 'file.delete']);
export const MOVE_TOOLS = new Set(['move_file', 'file.move']);

interface Meta {
  conversationId?: string | null;
}
const metaOf = (s: string | null): Meta | null => {
  if (!s) return null;
  try {
    return JSON.parse(s) as Meta;
  } catch {
    return null;
  }
};

/**
 * The items (files, wiki pages, memory files) with a version whose attribution names the conversation. The LIKE
 * is a coarse filter (`_` matches any character); callers decide by the parsed attribution.
 */
export async function touchedIn(ctx: Ctx, table: 'file_versions' | 'wiki_versions' | 'memory_versions', conv: string): Promise<string[]> {
  const owner = table === 'wiki_versions' ? 'page_id' : 'file_id';
  const pattern = `%"conversationId":"${conv}"%`;
  const found = await sql<{ id: string }>`select distinct ${sql.ref(owner)} as id from ${sql.table(table)}
    where project_id = ${ctx.project.id} and author_meta like ${pattern}`.execute(ctx.platform.db.kysely);
  return found.rows.map((r) => r.id);
}

/**
 * An item's versions as the conversation saw them: its first and last version written there, and the versions
 * others wrote after its first (which make an undo refuse the item). Null when the parsed attribution names the
 * conversation nowhere (the LIKE of `touchedIn` is a coarse filter).
 */
export function spanOf<V extends { version: number; author_meta: string | null }>(vs: V[], conv: string): { first: V; last: V; others: V[] } | null {
  const mine = vs.filter((v) => metaOf(v.author_meta)?.conversationId === conv);
  if (mine.length === 0) return null;
  const first = mine[0]!;
  return { first, last: mine[mine.length - 1]!, others: vs.filter((v) => v.version > first.version && metaOf(v.author_meta)?.conversationId !== conv) };
}

export function diffOf(path: string, before: string, after: string, fromLabel: string, toLabel: string): string {
  return createTwoFilesPatch(path, path, before, after, fromLabel, toLabel, { context: 3 });
}

export const label = (kind: string, name: string | null) => (kind === 'user' ? (name ?? 'someone') : name ? `agent: ${name}` : 'agent');

export function noteFor(status: ChangeStatus, what: 'created' | 'edited' | 'moved', movedFrom: string | null): string {
  if (status === 'unrecoverable') return 'The version before the conversation is no longer kept, so it cannot be restored.';
  if (status === 'conflict') return 'Someone changed it after the conversation; undo leaves it as it is.';
  if (status === 'reverted') return 'It is already as it was before the conversation.';
  const back = movedFrom ? ` and moved back to ${movedFrom} (if that path is free)` : '';
  if (what === 'created') return `The conversation created it; undo deletes it.`;
  if (what === 'moved') return `The conversation moved it; undo moves it back to ${movedFrom} (if that path is free).`;
  return `Undo restores the version before the conversation as a new version${back}.`;
}
