import { isStoaError, StoaError } from '@stoa/contract';
import { inTx, type Ctx } from '../platform.js';
import { recordAudit } from '../audit/audit.js';
import { deleteFile } from '../files/delete-file.js';
import { moveFile } from '../files/move-file.js';
import { findFileRow } from '../files/read-file.js';
import { restoreVersion } from '../files/versions.js';
import { restoreFromTrash } from '../trash/restore-trash.js';
import { deletePage, putPage } from '../wiki/put-page.js';
import { setMemory } from '../memory/memory.js';
import { changesForRevert, conversationForUndo, type FileChange, type MemoryChange, type WikiChange } from './conversation-changes.js';

/**
 * What undo did to one item: `reverted` (back to its state before the conversation, as a new version),
 * `conflict` (someone changed it since; left as it is), `unchanged` (it already was), `unrecoverable` (nothing
 * left to restore) or `failed` (a rule refused the write, e.g. the quota; `message` says which).
 */
export interface RevertResult {
  ref: string;
  kind: 'file' | 'wiki' | 'memory';
  path: string;
  status: 'reverted' | 'conflict' | 'unchanged' | 'unrecoverable' | 'failed';
  message: string;
  /** The item's version after the undo (null when it was deleted or not touched). */
  version: number | null;
}

/**
 * Undoes a conversation (B11): restores each item it changed (or those named in `items`, by `ref`) to its
 * state before the conversation touched it. It goes through the ordinary write paths — restore as a new
 * version, delete, move, wiki save, memory save — so versions, quotas, the search index, the change feed and
 * the audit log hold as for any change, and each item's write is checked against the conversation's last
 * version in its own transaction: an item someone changed since is refused (`conflict`) and the rest go on.
 * A file the conversation deleted comes back from the trash with its versions; one purged since cannot. A file
 * it created is deleted the normal way (to the trash). One summary audit entry names the conversation and the outcome.
 *
 * @example
 * const { results } = await revertConversation(ctx, { conversation: 'conv_…' });
 */
export async function revertConversation(
  ctx: Ctx,
  input: { conversation: string; items?: string[] },
): Promise<{ conversation: string; results: RevertResult[] }> {
  const conv = await conversationForUndo(ctx, input.conversation);
  let changes = await changesForRevert(ctx, conv.id);
  if (input.items && input.items.length > 0) {
    const wanted = new Set(input.items);
    const unknown = [...wanted].filter((r) => !changes.some((c) => c.ref === r));
    if (unknown.length) throw new StoaError('bad_request', `not a change of this conversation: ${unknown.join(', ')}`);
    changes = changes.filter((c) => wanted.has(c.ref));
  }
  const results: RevertResult[] = [];
  for (const c of changes) {
    const base = { ref: c.ref, kind: c.kind, path: c.path };
    if (c.status === 'conflict') {
      results.push({ ...base, status: 'conflict', message: `changed since by ${c.changedBy.join(', ')}; left as it is`, version: c.current?.version ?? null });
      continue;
    }
    if (c.status === 'unrecoverable') {
      results.push({ ...base, status: 'unrecoverable', message: c.note, version: c.current?.version ?? null });
      continue;
    }
    if (c.status === 'reverted') {
      results.push({ ...base, status: 'unchanged', message: 'already as it was before the conversation', version: c.current?.version ?? null });
      continue;
    }
    try {
      results.push({ ...base, ...(await revertOne(ctx, c)) });
    } catch (e) {
      if (isStoaError(e) && (e.code === 'version_conflict' || e.code === 'memory_version_conflict'))
        results.push({ ...base, status: 'conflict', message: 'changed since by someone else; left as it is', version: null });
      else if (isStoaError(e)) results.push({ ...base, status: 'failed', message: e.message, version: null });
      else throw e;
    }
  }
  if (results.length > 0)
    await inTx(ctx.platform, (trx) =>
      recordAudit(trx, ctx, {
        action: 'conversation.revert',
        details: {
          conversation: conv.id,
          reverted: results.filter((r) => r.status === 'reverted').map((r) => r.ref),
          refused: results.filter((r) => r.status !== 'reverted' && r.status !== 'unchanged').map((r) => r.ref),
        },
      }),
    );
  return { conversation: conv.id, results };
}

async function revertOne(ctx: Ctx, c: FileChange | WikiChange | MemoryChange): Promise<Pick<RevertResult, 'status' | 'message' | 'version'>> {
  if (c.kind === 'file') return revertFile(ctx, c);
  if (c.kind === 'wiki') {
    if (c.beforeText === null) {
      await deletePage(ctx, { path: c.path, base: c.after!.version });
      return { status: 'reverted', message: 'deleted (the conversation created it)', version: null };
    }
    const p = await putPage(ctx, { path: c.path, text: c.beforeText, title: c.beforeTitle ?? '', channel: c.beforeChannel, base: c.after!.version });
    return { status: 'reverted', message: `restored version ${c.before!.version} as version ${p.version}`, version: p.version };
  }
  const d = await setMemory(ctx, c.memoryRef, c.beforeText, { base: c.after!.version });
  return {
    status: 'reverted',
    message: c.before ? `restored version ${c.before.version} as version ${d.version}` : `emptied as before (version ${d.version})`,
    version: d.version,
  };
}

async function revertFile(ctx: Ctx, c: FileChange): Promise<Pick<RevertResult, 'status' | 'message' | 'version'>> {
  if (c.trashEntry) {
    const r = await restoreFromTrash(ctx, { id: c.trashEntry });
    const f = await findFileRow(ctx, r.path);
    return {
      status: 'reverted',
      message: r.beside ? `restored from the trash as ${r.path} (${r.from} is taken)` : 'restored from the trash',
      version: f?.version ?? null,
    };
  }
  const expected = c.after!.version;
  if (c.before === null) {
    await deleteFile(ctx, { path: c.path, expectedVersion: expected });
    return { status: 'reverted', message: 'deleted (the conversation created it)', version: null };
  }
  let path = c.path;
  let version = c.current!.version;
  const said: string[] = [];
  if (c.beforeVersion !== null) {
    const f = await restoreVersion(ctx, { path, version: c.beforeVersion, expectedVersion: expected });
    version = f.version;
    said.push(`restored version ${c.beforeVersion} as version ${f.version}`);
  }
  if (c.movedFrom && c.movedFrom !== path) {
    if (await findFileRow(ctx, c.movedFrom)) said.push(`left at ${path}: ${c.movedFrom} is taken`);
    else {
      const f = await moveFile(ctx, { from: path, to: c.movedFrom, expectedVersion: version });
      path = f.path;
      said.push(`moved back to ${f.path}`);
    }
  }
  return { status: 'reverted', message: said.join('; '), version };
}
