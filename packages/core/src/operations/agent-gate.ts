import { isStoaError, StoaError } from '@stoa/contract';
import { newOrderedId } from '../ids.js';
import type { Ctx, Q } from '../platform.js';
import { recordToolCall, shortArgs, shortResult } from '../conversations/trace.js';
import { countWrite, type WindowKey } from '../tools/write-window.js';

/**
 * The agent gate: the rules an agent meets at every door (HTTP, WebDAV, MCP, CLI, SDK), applied by the core
 * operations themselves so no door can skip them (A4, A5, F6, F15). The tool runner uses the same functions.
 *
 * - every change to a file counts against the write window, inside the change's transaction (refusals roll back);
 * - an agent writes at most STOA_AGENT_WRITE_BYTES and reads files of at most STOA_AGENT_READ_BYTES;
 * - its changes outside the tool runner are recorded in its conversation's trace.
 *
 * A door that carries no conversation (WebDAV; HTTP without `X-Stoa-Conversation`; the CLI without
 * `--conversation`) counts the agent's changes in one window per agent, with the same limit.
 */

/** The window an actor's file changes count in; null for people (their changes are not limited). */
export function agentWindowOf(ctx: Ctx): WindowKey | null {
  const a = ctx.actor;
  return a.kind === 'agent' ? { conversation: a.conversationId ?? '', agent: a.agentId } : null;
}

/**
 * Counts one file change against the window, in the change's transaction; throws rate_limited over the limit.
 * `window` defaults to the actor's own (none for people); the tool runner passes the one of its call.
 *
 * @example
 * await inTx(platform, async (trx) => { await countAgentChange(trx, ctx); await commitVersion(trx, ctx, …); });
 */
export async function countAgentChange(trx: Q, ctx: Ctx, window: WindowKey | null = agentWindowOf(ctx)): Promise<{ used: number; max: number } | null> {
  if (!window) return null;
  const r = await countWrite(trx, ctx, window);
  return { used: r.used, max: r.max };
}

/** The most an actor may write in one call: STOA_AGENT_WRITE_BYTES for agents, no cap for people. */
export function agentWriteCap(ctx: Ctx): number | undefined {
  return ctx.actor.kind === 'agent' ? ctx.platform.config.limits.agentWriteBytes : undefined;
}

/** Refuses a write of more than `max` bytes before anything is stored or counted (the message tells how to split). */
export function assertWriteSize(max: number, bytes: number, what = 'content'): void {
  if (bytes > max)
    throw new StoaError(
      'too_large',
      `${what} is ${bytes} bytes; at most ${max} bytes may be written per call — split it into smaller writes (e.g. append in parts)`,
      { limit: max },
    );
}

/** Refuses an agent's write of more than STOA_AGENT_WRITE_BYTES. */
export function assertAgentWriteSize(ctx: Ctx, bytes: number, what = 'content'): void {
  const max = agentWriteCap(ctx);
  if (max !== undefined) assertWriteSize(max, bytes, what);
}

/** Refuses reading a file over STOA_AGENT_READ_BYTES (for the tool runner, whoever calls it). */
export function assertReadSize(ctx: Ctx, path: string, size: number): void {
  const max = ctx.platform.config.limits.agentReadBytes;
  if (size > max)
    throw new StoaError('too_large', `"${path}" is ${size} bytes, over the ${max}-byte limit for reading files; it cannot be read`, { limit: max });
}

/** Refuses an agent's read of a file over STOA_AGENT_READ_BYTES (a byte range of it included: the file counts). */
export function assertAgentReadSize(ctx: Ctx, path: string, size: number): void {
  if (ctx.actor.kind === 'agent') assertReadSize(ctx, path, size);
}

/** What a change reports to the trace. */
export interface ChangeOutcome {
  path?: string | null;
  version?: number | null;
  text: string;
}

/**
 * Runs an agent's change made outside the tool runner (`run` gets the context to act with) and records it in the conversation's trace, refused or
 * not, like a tool call (F15: agents' actions are in the trace, not the audit log). People's changes and
 * changes made inside a tool call (which the runner traces) run as they are.
 *
 * @example
 * return tracedChange(ctx, 'file.delete', { path }, (c) => remove(c), (f) => ({ path: f.path, text: `Deleted ${f.path}` }));
 */
export async function tracedChange<T>(ctx: Ctx, op: string, args: unknown, run: (ctx: Ctx) => Promise<T>, outcome: (r: T) => ChangeOutcome): Promise<T> {
  const a = ctx.actor;
  if (a.kind !== 'agent' || a.toolCallId) return run(ctx);
  const started = performance.now();
  // The entry's ID is the change's tool call ID (B9 attribution), and marks the change as traced for what it calls.
  const id = newOrderedId('call');
  const record = (o: ChangeOutcome & { refused: boolean }) =>
    recordToolCall(ctx, {
      id,
      conversationId: a.conversationId,
      tool: op,
      args: shortArgs(args),
      result: shortResult(o.text),
      refused: o.refused,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
      path: o.path ?? null,
      version: o.version ?? null,
    }).catch((e) => console.error('could not record the change in the trace:', e));
  try {
    const r = await run({ ...ctx, actor: { ...a, toolCallId: id } });
    await record({ ...outcome(r), refused: false });
    return r;
  } catch (e) {
    await record({ text: isStoaError(e) ? `Refused: ${e.message}` : 'Refused: an internal error occurred', refused: true });
    throw e;
  }
}
