import { StoaError } from '@stoa/contract';
import type { Ctx } from '../platform.js';
import { contextFor, type ContextOptions } from '../context.js';
import { tracedChange } from './agent-gate.js';
import { assertInConversation, assertNotLocked, assertQuota, assertRoleAllows, countChange, ensureAudited } from './chain.js';
import type { DoorOperation, GlobalCall, Operation, PublicCall, PublicDoorOperation } from './operation.js';
import { findOperation } from './table.js';

export { refusalByRole } from './chain.js';

function operation(id: string): Operation | DoorOperation | PublicDoorOperation {
  const op = findOperation(id);
  if (!op) throw new StoaError('not_found', `there is no operation "${id}"`);
  return op;
}

/** The input as the trace shows it: the route's fields, without the project and without bodies. */
function traceArgs(input: Record<string, unknown>): Record<string, unknown> {
  const { project: _p, source: _s, parts: _f, ...rest } = input;
  return rest;
}

function outcomeOf(op: Operation | DoorOperation, r: unknown): { path: string | null; version: number | null; text: string } {
  const o = (r && typeof r === 'object' ? r : {}) as { path?: unknown; version?: unknown; file?: { path?: unknown; version?: unknown } };
  const path = typeof o.path === 'string' ? o.path : typeof o.file?.path === 'string' ? o.file.path : null;
  const version = typeof o.version === 'number' ? o.version : typeof o.file?.version === 'number' ? o.file.version : null;
  return {
    path,
    version,
    text: `${op.scope === 'door' ? op.summary : op.route.summary}: done${path ? ` (${path}${version !== null ? `, version ${version}` : ''})` : ''}`,
  };
}

/**
 * Runs one operation of a project as the context's actor — the one dispatch behind every door. The input is
 * already validated by the operation's route. The runner applies what the operation declares, in one fixed
 * order (chain.ts): volume gate and policy by role → the agent's conversation membership → locks on what the
 * change touches → the agent's write window and the quota → the operation (its function runs the
 * transaction) → trace (agents) or audit (people) → for a change, the durability barrier: the answer waits for
 * a sync of the database that began after all of that committed, shared with the changes committed meanwhile
 * (decision 0022; reads never wait). Hooks run inside the operation's transaction.
 *
 * @example
 * const info = await runOperation(ctx, 'files.stat', { project: 'default', path: 'reports/summary.md' });
 */
export async function runOperation(ctx: Ctx, id: string, input: Record<string, unknown>): Promise<unknown> {
  const op = operation(id);
  if (op.scope !== 'project' && op.scope !== 'door') throw new StoaError('bad_request', `operation "${id}" does not act in a project`);
  assertRoleAllows(ctx, op);
  await assertInConversation(ctx);
  await assertNotLocked(ctx, op.traits, input);
  await assertQuota(ctx, op.traits, input);
  const run = async (c: Ctx): Promise<unknown> => {
    const undo = await countChange(c, op.traits);
    const audited: string[] = [];
    try {
      const r = await op.run({ ...c, audited }, input);
      await ensureAudited({ ...c, audited }, op.traits, outcomeOf(op, r).path);
      return r;
    } catch (e) {
      await undo?.();
      throw e;
    }
  };
  const r =
    ctx.actor.kind === 'agent' && op.traits.agent === 'change'
      ? await tracedChange(ctx, op.id, traceArgs(input), run, (r) => outcomeOf(op, r))
      : await run(ctx);
  if (op.traits.mutatesWith ? op.traits.mutatesWith(ctx, input) : op.traits.mutates) await ctx.platform.durable();
  return r;
}

/** Runs an operation outside any project (who am I, my projects, create a project; public ones with or without a caller). */
export async function runGlobalOperation(call: PublicCall, id: string, input: Record<string, unknown>): Promise<unknown> {
  const op = operation(id);
  let r: unknown;
  if (op.scope === 'public' || op.scope === 'public-door') r = await op.run(call, input);
  else if (op.scope !== 'global') throw new StoaError('bad_request', `operation "${id}" acts in a project`);
  else if (!call.principal) throw new StoaError('unauthorized');
  else r = await op.run({ platform: call.platform, principal: call.principal, client: call.client, origin: call.origin }, input);
  // Sign-in, sessions, tokens, projects, OAuth grants: what the caller is told exists must still exist after a crash.
  if (op.traits.mutates) await call.platform.durable();
  return r;
}

/** What a door knows about one call: who calls, and the context options it carries (conversation, runtime). */
export interface DoorCall extends GlobalCall {
  context?: Omit<ContextOptions, 'project'>;
}

/**
 * Validates a door's input with the operation's route, builds the context for its project and runs it: what
 * the HTTP server and the CLI's local mode do for every JSON call. `body` carries a raw operation's stream.
 *
 * @example
 * await callOperation({ platform, principal }, 'files.stat', { project: 'default', path: 'a.md' });
 */
export async function callOperation(call: DoorCall, id: string, rawInput: unknown, body: Record<string, unknown> = {}): Promise<unknown> {
  const op = operation(id);
  if (op.scope === 'door' || op.scope === 'public-door') throw new StoaError('bad_request', `operation "${id}" is reached through its door only`);
  if (op.scope !== 'project') return runGlobalOperation(call, id, { ...(op.route.input.parse(rawInput) as Record<string, unknown>), ...body });
  // Who may act comes before what they sent: an outsider, a viewer or an agent in another's conversation learns
  // nothing from validation errors.
  const project = (rawInput as { project?: unknown } | null)?.project;
  const ctx = await contextFor(call.platform, call.principal, { ...call.context, project: typeof project === 'string' ? project : undefined });
  assertRoleAllows(ctx, op);
  await assertInConversation(ctx);
  return runOperation(ctx, id, { ...(op.route.input.parse(rawInput) as Record<string, unknown>), ...body });
}
