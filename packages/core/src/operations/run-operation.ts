import { StoaError } from '@stoa/contract';
import type { Ctx } from '../platform.js';
import { can, type Action } from '../policies/can.js';
import type { Actor } from '../actors.js';
import { contextFor, type ContextOptions } from '../context.js';
import { tracedChange } from './agent-gate.js';
import type { GlobalCall, Operation, PublicCall } from './operation.js';
import { findOperation } from './table.js';

/** Actions a person's role alone decides; for these `runOperation` refuses early, before any lookup. */
const ROLE_ACTIONS = new Set<Action>([
  'file.read',
  'file.write',
  'file.delete',
  'file.move',
  'audit.read',
  'project.admin',
  'project.read',
  'member.manage',
  'token.create',
  'agent.manage',
  'wiki.read',
  'wiki.write',
]);

/**
 * The refusal of a person whose role cannot have the operation's policy action anywhere in the project, or null.
 * Agents and resource-bound actions (memory files) are decided by the core function on the resource.
 */
export function refusalByRole(actor: Actor, op: Operation): StoaError | null {
  const policy = op.traits.policy;
  return actor.kind === 'user' && policy !== 'signed-in' && policy !== 'public' && ROLE_ACTIONS.has(policy) ? can(actor, policy, { kind: 'project' }) : null;
}

/**
 * What a volume beyond projects (R1) offers: its files, their search, understanding and audit, and the tools. It
 * has no members, invitations, tokens, agents, conversations, wiki or memory of its own — its owners decide who
 * reaches it.
 */
const VOLUME_OPERATIONS = /^(files|folders|uploads|docs|search|tools)\.|^audit\.list$/;

function assertRoleAllows(ctx: Ctx, op: Operation): void {
  if (ctx.project.volume && !VOLUME_OPERATIONS.test(op.id))
    throw new StoaError('forbidden', 'a volume holds files only: it has no members, tokens, agents, conversations, wiki or memory of its own');
  const refusal = refusalByRole(ctx.actor, op);
  if (refusal) throw refusal;
}

function operation(id: string): Operation {
  const op = findOperation(id);
  if (!op) throw new StoaError('not_found', `there is no operation "${id}"`);
  return op;
}

/** The input as the trace shows it: the route's fields, without the project and without bodies. */
function traceArgs(input: Record<string, unknown>): Record<string, unknown> {
  const { project: _p, source: _s, parts: _f, ...rest } = input;
  return rest;
}

function outcomeOf(op: Operation, r: unknown): { path: string | null; version: number | null; text: string } {
  const o = (r && typeof r === 'object' ? r : {}) as { path?: unknown; version?: unknown; file?: { path?: unknown; version?: unknown } };
  const path = typeof o.path === 'string' ? o.path : typeof o.file?.path === 'string' ? o.file.path : null;
  const version = typeof o.version === 'number' ? o.version : typeof o.file?.version === 'number' ? o.file.version : null;
  return { path, version, text: `${op.route.summary}: done${path ? ` (${path}${version !== null ? `, version ${version}` : ''})` : ''}` };
}

/**
 * Runs one operation of a project as the context's actor — the one dispatch behind every door. The input is
 * already validated by the operation's route. A person whose role cannot have the operation's policy action is
 * refused first; an agent's changes are recorded in its conversation's trace (the file operations also count
 * them against the write window and cap their bytes, see agent-gate.ts).
 *
 * @example
 * const info = await runOperation(ctx, 'files.stat', { project: 'default', path: 'reports/summary.md' });
 */
export async function runOperation(ctx: Ctx, id: string, input: Record<string, unknown>): Promise<unknown> {
  const op = operation(id);
  if (op.scope !== 'project') throw new StoaError('bad_request', `operation "${id}" does not act in a project`);
  assertRoleAllows(ctx, op);
  if (ctx.actor.kind === 'agent' && op.traits.agent === 'change') {
    return tracedChange(
      ctx,
      op.id,
      traceArgs(input),
      (c) => op.run(c, input),
      (r) => outcomeOf(op, r),
    );
  }
  return op.run(ctx, input);
}

/** Runs an operation outside any project (who am I, my projects, create a project; public ones with or without a caller). */
export async function runGlobalOperation(call: PublicCall, id: string, input: Record<string, unknown>): Promise<unknown> {
  const op = operation(id);
  if (op.scope === 'public') return op.run(call, input);
  if (op.scope !== 'global') throw new StoaError('bad_request', `operation "${id}" acts in a project`);
  if (!call.principal) throw new StoaError('unauthorized');
  return op.run({ platform: call.platform, principal: call.principal, client: call.client, origin: call.origin }, input);
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
  if (op.scope !== 'project') return runGlobalOperation(call, id, { ...(op.route.input.parse(rawInput) as Record<string, unknown>), ...body });
  // Who may act comes before what they sent: an outsider or a viewer learns nothing from validation errors.
  const project = (rawInput as { project?: unknown } | null)?.project;
  const ctx = await contextFor(call.platform, call.principal, { ...call.context, project: typeof project === 'string' ? project : undefined });
  assertRoleAllows(ctx, op);
  return runOperation(ctx, id, { ...(op.route.input.parse(rawInput) as Record<string, unknown>), ...body });
}
