import { StoaError } from '@stoa/contract';
import type { Attribution } from '../actors.js';
import { inTx, type Ctx, type Q } from '../platform.js';
import { assertCan } from '../policies/can.js';
import { commitVersion, lockFileRow } from '../files/commit-version.js';
import { isKnownBinary, isTextContent, isTextMime, mimeForContent } from '../files/mime.js';
import { INDEX_TEXT_BYTES } from '../files/put-file.js';
import { withWriteRetry } from '../files/write-retry.js';
import type { FileInfo, FileRow } from '../files/file-info.js';
import { trashFileRow } from '../files/delete-file.js';
import { assertUnlockedIn } from '../files/locks.js';
import { countAgentChange } from '../operations/agent-gate.js';
import type { WindowKey } from './write-window.js';

/** The current content of the file being changed, read inside the write's transaction. */
export interface CurrentFile {
  row: FileRow;
  text: string;
}

interface AgentWriteInput {
  /** Path from the storage root (already resolved into the caller's write scope). */
  path: string;
  /** 'create' fails if the file exists; 'replace' creates or replaces. */
  mode: 'create' | 'replace';
  /**
   * The new content: a string, or a function of the current content (append, str_replace). A function runs
   * inside the transaction after the file's row is locked, so concurrent edits of one file apply one after
   * another to the newest content and none is lost (docs/architecture.md "Consistency", B2).
   */
  content: string | ((current: CurrentFile | null) => string);
  expectedVersion?: number;
  permissions?: string;
  attribution: Attribution;
  window: WindowKey;
  /** Called in the transaction after the commit (e.g. to store the create_file description). */
  after?: (trx: Q, file: FileInfo) => Promise<void>;
  /**
   * Called last in the transaction with the outcome: the tool records its trace entry there (ToolEnv.traceInTx),
   * so the change and the entry that tells of it commit together, in one transaction.
   */
  trace?: (trx: Q, r: AgentWriteResult) => Promise<void>;
}

export interface AgentWriteResult {
  file: FileInfo;
  created: boolean;
  previousVersion: number | null;
  changes: { used: number; max: number };
}

/**
 * One change by a file tool, in one transaction: lock the file's row, compute the content from the newest
 * version, count the change against the conversation's limit, store and commit. Anything refused rolls back,
 * the count included. Agent writes are not audited (F15): they are in the conversation trace.
 *
 * @example
 * await agentWrite(ctx, { path: 'agents/agt_a3B9kLm2/log.md', mode: 'replace', content: (cur) => (cur?.text ?? '') + 'line\n', attribution, window });
 */
export async function agentWrite(ctx: Ctx, input: AgentWriteInput): Promise<AgentWriteResult> {
  assertCan(ctx.actor, 'file.write', { kind: 'file', path: input.path });
  // Content that does not depend on the current file is stored before the transaction, so the (fsync'd) blob
  // write does not hold the database's write lock; append and str_replace must store inside it.
  const earlyBytes = typeof input.content === 'string' ? Buffer.from(input.content, 'utf8') : undefined;
  const early = earlyBytes ? await ctx.platform.blobs.put(earlyBytes) : undefined;
  return withWriteRetry(() =>
    inTx(ctx.platform, async (trx) => {
      // Locks the path also while the file does not exist yet, so parallel appends to a new file queue up.
      const row = await lockFileRow(trx, ctx, input.path);
      // A WebDAV lock held by someone else refuses the tool's write as it refuses HTTP PUT (the runner checked too).
      await assertUnlockedIn(trx, ctx, [{ path: input.path, member: true }]);
      if (row && input.mode === 'create')
        throw new StoaError(
          'already_exists',
          `file "${input.path}" already exists (version ${row.version}); use str_replace or full_file_rewrite to change it`,
        );
      let text: string;
      if (typeof input.content === 'string') {
        text = input.content;
      } else {
        let current: CurrentFile | null = null;
        if (row) {
          const bytes = isKnownBinary(row.mime) ? null : await ctx.platform.blobs.read(row.blob_key);
          if (!bytes || !isTextContent(row.mime, bytes))
            throw new StoaError('not_a_text_file', `"${input.path}" is a binary file (${row.mime}, ${row.size} bytes); it cannot be edited as text`);
          current = { row, text: bytes.toString('utf8') };
        }
        text = input.content(current);
      }
      const mime = mimeForContent(input.path, Buffer.from(text.slice(0, 8192), 'utf8'));
      const changes = (await countAgentChange(trx, ctx, input.window))!;
      // commitVersion marks the blob's row in use and checks the bytes are there (storing them again if the
      // sweeper took identical old ones meanwhile), so the blob is only put here.
      const bytes = earlyBytes ?? Buffer.from(text, 'utf8');
      const blob = early ?? (await ctx.platform.blobs.put(bytes));
      const r = await commitVersion(trx, ctx, {
        path: input.path,
        blob,
        mime,
        attribution: input.attribution,
        mode: input.mode,
        expectedVersion: input.expectedVersion,
        permissions: input.permissions,
        auditAction: null,
        text: isTextMime(mime) && blob.size <= INDEX_TEXT_BYTES ? text : undefined,
        locked: { row },
        bytes,
      });
      if (input.after) await input.after(trx, r.file);
      const result = { ...r, changes: { used: changes.used, max: changes.max } };
      await input.trace?.(trx, result);
      return result;
    }),
  );
}

/**
 * Deletes one file for a tool call, counting the change in the same transaction (A4: deletes count too).
 *
 * @example
 * await agentDelete(ctx, { path: 'agents/agt_a3B9kLm2/old.md', window });
 */
export async function agentDelete(
  ctx: Ctx,
  input: { path: string; expectedVersion?: number; window: WindowKey },
): Promise<{ file: FileRow; changes: { used: number; max: number } }> {
  assertCan(ctx.actor, 'file.delete', { kind: 'file', path: input.path });
  return inTx(ctx.platform, async (trx) => {
    const row = await lockFileRow(trx, ctx, input.path);
    if (!row) {
      const isFolder = await trx.selectFrom('dirs').select('path').where('project_id', '=', ctx.project.id).where('path', '=', input.path).executeTakeFirst();
      if (isFolder) throw new StoaError('bad_request', `"${input.path}" is a folder; a folder cannot be deleted as a whole, delete its files one by one`);
      throw new StoaError('not_found', `file "${input.path}" does not exist`);
    }
    if (input.expectedVersion !== undefined && input.expectedVersion !== row.version) {
      throw new StoaError('version_conflict', `"${input.path}" is at version ${row.version}, not ${input.expectedVersion}; read it again and retry`, {
        currentVersion: row.version,
      });
    }
    await assertUnlockedIn(trx, ctx, [{ path: input.path, member: true }]);
    const changes = (await countAgentChange(trx, ctx, input.window))!;
    // The one clean-up of a deleted file (to the trash, its locks and dead properties too); agent deletes are in
    // the trace (F15), and the trash entry names the conversation, whose undo restores it.
    await trashFileRow(trx, ctx, row, { audit: false });
    return { file: row, changes: { used: changes.used, max: changes.max } };
  });
}
