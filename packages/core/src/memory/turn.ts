import { createHash } from 'node:crypto';
import { StoaError, isStoaError } from '@stoa/contract';
import { inTx, type Ctx, type Q } from '../platform.js';
import { memoryBundle, MEMORY_DIR, type BundledMemoryFile } from './bundle.js';
import { addedLines } from './merge.js';
import { appendText, lockMemoryState, memoryPath, mq, versionText, writeMemoryVersion } from './store.js';
import { memoryRefusal, memoryFileName, resolveMemoryTarget } from './target.js';
import { turnContext } from './turn-context.js';
import type { MemoryTarget } from './types.js';

export interface PreparedFile extends BundledMemoryFile {
  /** Changed since the agent last saw it in this conversation, so it is prepended to the message. */
  changed: boolean;
  /** Prepended in full (false: only named, because it is over STOA_MEMORY_INLINE_CHARS characters). */
  inlined: boolean;
}

export interface PreparedTurn {
  /** The message to deliver to the agent, with the changed files prepended. */
  message: string;
  /** Folder inside the agent's working folder the files go to. */
  dir: string;
  files: PreparedFile[];
}

const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const chars = (s: string) => [...s].length;

async function seenRows(q: Q, ctx: Ctx, agentId: string, conversationId: string) {
  const rows = await mq(q).selectFrom('memory_seen').selectAll().where('agent_id', '=', agentId).where('conversation_id', '=', conversationId).execute();
  return new Map(rows.map((r) => [`${r.kind}:${r.scope_id}`, r]));
}

async function saveSeen(
  trx: Q,
  ctx: Ctx,
  agentId: string,
  conversationId: string,
  t: { kind: string; scopeId: string },
  version: number,
  committedSha: string | null,
): Promise<void> {
  const now = ctx.platform.clock().toISOString();
  await mq(trx)
    .insertInto('memory_seen')
    .values({
      project_id: ctx.project.id,
      agent_id: agentId,
      conversation_id: conversationId,
      kind: t.kind,
      scope_id: t.scopeId,
      version,
      committed_sha: committedSha,
      seen_at: now,
    })
    .onConflict((oc) => oc.columns(['agent_id', 'conversation_id', 'kind', 'scope_id']).doUpdateSet({ version, committed_sha: committedSha, seen_at: now }))
    .execute();
}

function header(f: PreparedFile): string {
  if (f.author?.kind === 'system') return `${MEMORY_DIR}/${f.path} (version ${f.version}: the agent's instructions)`;
  const who = f.author?.name
    ? `, saved by ${f.author.kind === 'agent' ? `agent ${f.author.name}` : f.author.name}${f.modified ? ` at ${f.modified}` : ''}`
    : '';
  return `${MEMORY_DIR}/${f.path} (version ${f.version}${who})`;
}

/** The text prepended to the message: each changed file in full, or named when it is too long. */
export function memoryPreamble(files: PreparedFile[], inlineChars: number): string {
  const changed = files.filter((f) => f.changed);
  if (changed.length === 0) return '';
  const parts = [
    `[Stoa memory] These memory files changed since you last saw them. They are in ${MEMORY_DIR}/ in your working folder; edit them there and your changes are saved after this turn.`,
  ];
  for (const f of changed) {
    if (f.inlined) parts.push(`--- ${header(f)} ---\n${f.content}${f.content.endsWith('\n') || f.content === '' ? '' : '\n'}--- end of ${f.file} ---`);
    else
      parts.push(
        `--- ${header(f)}: ${chars(f.content)} characters, over the ${inlineChars}-character limit, so not included here; read it from ${MEMORY_DIR}/${f.path} ---`,
      );
  }
  return parts.join('\n\n') + '\n\n';
}

/**
 * Before a message reaches a hosted agent (M6): the files to write into its working folder under
 * `.stoa/memory/` (SOUL.md, AGENTS.md, `<conversation id>/MEMORY.md`) and the message with every file that
 * changed since the agent last saw it prepended — files over STOA_MEMORY_INLINE_CHARS characters are named,
 * not inlined. What the agent has now seen is stored, per agent and conversation.
 *
 * @example
 * const turn = await prepareTurn(ownerCtx, { agent: 'agt_a3B9kLm2', conversation: 'conv_x', message: 'Hi' });
 * // write turn.files into DIR/.stoa/memory/, deliver turn.message
 */
export async function prepareTurn(ctx: Ctx, input: { agent?: string; conversation?: string; message?: string }): Promise<PreparedTurn> {
  const agentCtx = await turnContext(ctx, input);
  const actor = agentCtx.actor as Extract<Ctx['actor'], { kind: 'agent' }>;
  const conv = actor.conversationId!;
  const limit = ctx.platform.config.limits.memoryInlineChars;
  // Read first, then record what was handed out: the seen version is the one written to the folder, even if
  // someone saves in between (the next turn then shows their save).
  const bundle = await memoryBundle(agentCtx, {});
  const targets = await Promise.all(bundle.map((f) => resolveMemoryTarget(agentCtx, { file: f.file })));
  return inTx(ctx.platform, async (trx) => {
    const seen = await seenRows(trx, agentCtx, actor.agentId, conv);
    const files: PreparedFile[] = [];
    for (const [i, f] of bundle.entries()) {
      const t = targets[i]!;
      const s = seen.get(`${t.kind}:${t.scopeId}`);
      const changed = s ? s.version !== f.version : !(f.version === 0 && f.content === '');
      files.push({ ...f, changed, inlined: chars(f.content) <= limit });
      await saveSeen(trx, agentCtx, actor.agentId, conv, t, f.version, null);
    }
    return { message: memoryPreamble(files, limit) + (input.message ?? ''), dir: MEMORY_DIR, files };
  });
}

export interface CommittedFile {
  file: string;
  path: string;
  /** unchanged: same as written; saved: a new version; merged: someone saved meanwhile, so the agent's new lines were appended; refused: not saved (see reason). */
  status: 'unchanged' | 'saved' | 'merged' | 'refused';
  version: number;
  reason?: string;
  /** Error code of a refusal (e.g. forbidden). */
  code?: string;
}

async function baseContent(q: Q, ctx: Ctx, target: MemoryTarget, version: number): Promise<string> {
  if (version === 0) return target.kind === 'soul' ? (target.agentInstructions ?? '') : '';
  const row = await mq(q)
    .selectFrom('memory_files')
    .select('id')
    .where('project_id', '=', ctx.project.id)
    .where('kind', '=', target.kind)
    .where('scope_id', '=', target.scopeId)
    .executeTakeFirst();
  return (row ? await versionText(q, row.id, version) : undefined) ?? '';
}

/**
 * After a hosted agent's turn (M6): saves its edits of the files `prepareTurn` wrote. A file still at the
 * version the agent was given is saved as a new version; when someone else saved meanwhile, only the agent's
 * new lines are appended at the end of the newest text, so neither side's lines are lost. Files it may not
 * edit (e.g. AGENTS.md) are reported as refused; the others are still saved.
 *
 * @example
 * await commitTurn(ownerCtx, { agent: 'agt_a3B9kLm2', conversation: 'conv_x', files: [{ file: 'MEMORY.md', content: edited }] });
 */
export async function commitTurn(
  ctx: Ctx,
  input: { agent?: string; conversation?: string; files: Array<{ file: string; content: string }> },
): Promise<{ files: CommittedFile[] }> {
  const agentCtx = await turnContext(ctx, input);
  const actor = agentCtx.actor as Extract<Ctx['actor'], { kind: 'agent' }>;
  const conv = actor.conversationId!;
  const out: CommittedFile[] = [];
  for (const f of input.files) {
    const target = await resolveMemoryTarget(agentCtx, { file: memoryFileName(f.file) });
    const path = memoryPath(target);
    // Looked up before the transaction: on SQLite every query inside it must use the transaction's handle.
    const refusal = await memoryRefusal(agentCtx, target, 'memory.write');
    try {
      out.push(
        await inTx(ctx.platform, async (trx) => {
          const s = (await seenRows(trx, agentCtx, actor.agentId, conv)).get(`${target.kind}:${target.scopeId}`);
          if (!s) throw new StoaError('bad_request', `${target.file} was not prepared for this turn: run turn prepare first`);
          const base = await baseContent(trx, agentCtx, target, s.version);
          if (f.content === base || sha(f.content) === s.committed_sha) return { file: target.file, path, status: 'unchanged' as const, version: s.version };
          if (refusal) throw refusal;
          const locked = await lockMemoryState(trx, agentCtx, target);
          if (locked.version === s.version) {
            const v = await writeMemoryVersion(trx, agentCtx, target, locked, f.content, 'set');
            await saveSeen(trx, agentCtx, actor.agentId, conv, target, v.version, null);
            return { file: target.file, path, status: 'saved' as const, version: v.version };
          }
          const lines = addedLines(base, f.content);
          // The agent's copy stays based on the old version, but this exact copy must not be merged twice.
          await saveSeen(trx, agentCtx, actor.agentId, conv, target, s.version, sha(f.content));
          if (lines.length === 0)
            return {
              file: target.file,
              path,
              status: 'unchanged' as const,
              version: locked.version,
              reason: 'someone else saved meanwhile and the agent added no lines',
            };
          const v = await writeMemoryVersion(trx, agentCtx, target, locked, appendText(locked.content, lines.join('\n')), 'merge');
          return { file: target.file, path, status: 'merged' as const, version: v.version };
        }),
      );
    } catch (e) {
      if (!isStoaError(e) || e.code === 'internal') throw e;
      out.push({ file: target.file, path, status: 'refused', version: 0, reason: e.message, code: e.code });
    }
  }
  return { files: out };
}
