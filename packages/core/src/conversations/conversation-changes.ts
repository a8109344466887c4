import { StoaError } from '@stoa/contract';
import { isProjectAdmin } from '../actors.js';
import type { Ctx } from '../platform.js';
import { can } from '../policies/can.js';
import { findConversation, isParticipant } from './conversations.js';
import type { ConversationChange } from './change-items.js';
import { fileChanges, type FileChange } from './changed-files.js';
import { wikiChanges, type WikiChange } from './changed-pages.js';
import { memoryChanges, type MemoryChange } from './changed-memory.js';

// The review and undo of a conversation (B11), split by what it changed: files (changed-files.ts), wiki pages
// (changed-pages.ts) and memory files (changed-memory.ts); what they share is in change-items.ts.

export type { ChangeStatus, ConversationChange } from './change-items.js';
export type { FileChange } from './changed-files.js';
export type { WikiChange } from './changed-pages.js';
export type { MemoryChange } from './changed-memory.js';

/**
 * Who may review and undo a conversation (B11): a person who may change the project (editor or admin) and may
 * see the conversation (a participant, or an admin). Agents may not: undoing is a person's check on agents, so
 * no agent token can undo another agent's work. A conversation the caller may not see is `not_found`.
 */
export async function conversationForUndo(ctx: Ctx, ref: string): Promise<{ id: string; name: string | null }> {
  const a = ctx.actor;
  if (a.kind === 'agent') throw new StoaError('forbidden', "agents may not undo conversations; a person reviews and undoes an agent's changes");
  const e = can(a, 'file.write', { kind: 'project' });
  if (e) throw new StoaError('forbidden', 'only editors and admins may review or undo a conversation');
  const conv = await findConversation(ctx, ref);
  if (!isProjectAdmin(a) && !(await isParticipant(ctx, conv.id))) throw new StoaError('not_found', `conversation "${ref}" does not exist`);
  return { id: conv.id, name: conv.name };
}

/**
 * Every item (file, wiki page, memory file) written in one conversation, each with its version before the
 * conversation, the conversation's last version, the current one and a diff (B11). Items the caller may not
 * read are left out. Files are found by their versions' attribution (B9); the conversation's moves and deletes,
 * which write no version, by its trace. A deleted file comes back from the trash (issue 29); once purged from
 * there it is listed as `unrecoverable`. Only file moves are reversed (folder moves and wiki moves are not).
 *
 * @example
 * const changes = await conversationChanges(ctx, { conversation: 'conv_…' });
 */
export async function conversationChanges(ctx: Ctx, input: { conversation: string }): Promise<{ conversation: string; items: ConversationChange[] }> {
  const conv = await conversationForUndo(ctx, input.conversation);
  const items = (await changesForRevert(ctx, conv.id)).map(publicOf);
  return { conversation: conv.id, items };
}

/** An item as the review shows it, without what only revert needs. */
function publicOf(c: FileChange | WikiChange | MemoryChange): ConversationChange {
  const { ref, kind, path, movedFrom, movedSince, before, after, current, status, changedBy, diff, binary, note } = c;
  return { ref, kind, path, movedFrom, movedSince, before, after, current, status, changedBy, diff, binary, note };
}

/**
 * The full change list with what revert needs; `conversationChanges` answers the same list without it.
 */
export async function changesForRevert(ctx: Ctx, conv: string): Promise<Array<FileChange | WikiChange | MemoryChange>> {
  return [...(await fileChanges(ctx, conv)), ...(await wikiChanges(ctx, conv)), ...(await memoryChanges(ctx, conv))];
}
