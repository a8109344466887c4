import type { Readable } from 'node:stream';
import type { RouteDef, RouteOutput, RouteParsedInput } from '@stoa/contract';
import type { Ctx, Platform } from '../platform.js';
import type { Principal } from '../projects/tokens.js';
import type { Action } from '../policies/can.js';
import type { LockTarget } from '../files/locks.js';

/**
 * What an agent's use of an operation counts (A4, F15):
 * - `change`: one change in its write window when it changes a file, and an entry in its conversation's trace;
 * - `read`: the bytes read, against STOA_AGENT_READ_BYTES;
 * - `none`: nothing (listings, metadata, or a runner that counts by itself, like the tool call).
 */
export type AgentUse = 'change' | 'read' | 'none';

/** The properties every operation declares once; doors and tests read them, the core enforces them. */
export interface OperationTraits {
  /**
   * The policy action the operation needs. The core function checks it on the resource it touches; before
   * that, `runOperation` refuses a person whose role cannot have it at all. `signed-in` for operations outside a
   * project (any valid token); `public` for those that need no token (the core throttles and checks their codes).
   */
  policy: Action | 'signed-in' | 'public';
  /** The operation may change something: the runner answers it only once what it committed is durable (0022). */
  mutates: boolean;
  /**
   * Whether one call changes something, for an operation where that depends on the input (the tool call: the
   * tool's own traits decide, so a read tool is answered without waiting for a sync). Absent: `mutates` decides.
   */
  mutatesWith?: (ctx: Ctx, input: any) => boolean;
  /** Audit action written for people's changes (F15), or null when the operation is not audited. */
  audit: string | null;
  agent: AgentUse;
  /**
   * Who counts an agent's change in its write window (A4): `mutator` when the file mutator counts it inside the
   * change's transaction (a refusal rolls the count back with the change); `runner` when the runner counts it
   * (wiki pages, memory files), giving the count back when the operation is refused. Absent: not counted (agent
   * and member management are people's work; understanding a file derives data and changes nothing).
   */
  window?: 'mutator' | 'runner';
  /** What a change touches, for the runner's lock step: a WebDAV lock held by someone else refuses it (423). */
  touches?: (ctx: Ctx, input: any) => LockTarget[];
  /** Bytes an agent's change adds to the project's storage, for the runner's quota step (wiki pages). */
  charges?: (input: any) => number;
}

/** What an operation outside any project gets: the platform and who is calling. */
export interface GlobalCall {
  platform: Platform;
  principal: Principal;
  /** The caller's address, where the door knows it: checks of a password count their failures against it. */
  client?: string;
  /** The origin the web UI is served from, where the door knows it (WebAuthn binds passkeys to it). */
  origin?: string;
}

/** Body of a raw operation: a byte stream (uploads) or the files of a form, which the JSON schema cannot carry. */
export interface RawInput {
  source?: Readable;
  /**
   * Aborted when the sender went away before it was answered (a cancelled upload): what it sent is not kept, even
   * when every byte had arrived — the sender was told it was cancelled.
   */
  signal?: AbortSignal;
  parts?: AsyncIterable<{ filename: string; file: Readable }>;
  range?: { start?: number; end?: number };
  /** The door can pass a redirect to object storage on to its client (downloads). */
  mayRedirect?: boolean;
}

/** What an operation that needs no token gets: the caller if it presented a token, and its address (throttling). */
export interface PublicCall {
  platform: Platform;
  principal: Principal | null;
  client?: string;
  origin?: string;
}

export type Operation =
  | { id: string; scope: 'project'; route: RouteDef; traits: OperationTraits; run: (ctx: Ctx, input: any) => Promise<unknown> }
  | { id: string; scope: 'global'; route: RouteDef; traits: OperationTraits; run: (call: GlobalCall, input: any) => Promise<unknown> }
  | { id: string; scope: 'public'; route: RouteDef; traits: OperationTraits; run: (call: PublicCall, input: any) => Promise<unknown> };

/**
 * An operation of a project: its route (input and output schemas), its traits and the core function it runs.
 *
 * @example
 * projectOperation(filesRoutes.stat, { policy: 'file.read', mutates: false, audit: null, agent: 'none' }, (ctx, i) => statFile(ctx, i.path));
 */
export function projectOperation<R extends RouteDef>(
  route: R,
  traits: OperationTraits,
  run: (ctx: Ctx, input: RouteParsedInput<R>) => Promise<RouteOutput<R>>,
): Operation {
  return { id: route.id, scope: 'project', route, traits, run };
}

/** A raw operation of a project: the route describes it; its input is the route's plus a body the door hands over. */
export function rawOperation<R extends RouteDef, T>(
  route: R,
  traits: OperationTraits,
  run: (ctx: Ctx, input: RouteParsedInput<R> & RawInput) => Promise<T>,
): Operation {
  return { id: route.id, scope: 'project', route, traits, run };
}

/** An operation outside any project (who am I, my projects, create a project). */
export function globalOperation<R extends RouteDef>(
  route: R,
  traits: OperationTraits,
  run: (call: GlobalCall, input: RouteParsedInput<R>) => Promise<RouteOutput<R>>,
): Operation {
  return { id: route.id, scope: 'global', route, traits, run };
}

/** An operation that needs no token (redeeming an invitation). */
export function publicOperation<R extends RouteDef>(
  route: R,
  traits: OperationTraits,
  run: (call: PublicCall, input: RouteParsedInput<R>) => Promise<RouteOutput<R>>,
): Operation {
  return { id: route.id, scope: 'public', route, traits, run };
}

/** Traits of the common shapes, so each table line says only what differs. */
export const reads = (policy: Action): OperationTraits => ({ policy, mutates: false, audit: null, agent: 'none' });
export const changes = (policy: Action, audit: string | null, agent: AgentUse = 'change'): OperationTraits => ({ policy, mutates: true, audit, agent });
/** A change the file mutator counts in the agent's window itself, touching the paths `touches` names. */
export const fileChange = (policy: Action, audit: string | null, touches: (ctx: Ctx, input: any) => LockTarget[]): OperationTraits => ({
  ...changes(policy, audit),
  window: 'mutator',
  touches,
});

/**
 * An operation a door reaches without a route of its own: WebDAV's methods beyond the file routes (locks,
 * properties, copies). The runner applies its traits like any other's; the door calls it with runOperation.
 */
export interface DoorOperation {
  id: string;
  scope: 'door';
  summary: string;
  traits: OperationTraits;
  run: (ctx: Ctx, input: any) => Promise<unknown>;
}

/**
 * A door operation (see DoorOperation).
 *
 * @example
 * doorOperation('webdav.copy', 'Copy a file', fileChange('file.write', 'file.upload', touches), (ctx, i) => copyFile(ctx, i));
 */
export function doorOperation<I>(id: string, summary: string, traits: OperationTraits, run: (ctx: Ctx, input: I) => Promise<unknown>): DoorOperation {
  return { id, scope: 'door', summary, traits, run };
}

/**
 * An operation a door reaches without a token and without a route of its own: the OAuth authorization server's
 * steps for /mcp (register a client, exchange a code, refresh, revoke), whose protocol the MCP SDK's handlers
 * speak. The core checks the codes and grants; the door only translates (decision 0018).
 */
export interface PublicDoorOperation {
  id: string;
  scope: 'public-door';
  summary: string;
  traits: OperationTraits;
  run: (call: PublicCall, input: any) => Promise<unknown>;
}

/** A public door operation (see PublicDoorOperation). */
export function publicDoorOperation<I>(
  id: string,
  summary: string,
  traits: OperationTraits,
  run: (call: PublicCall, input: I) => Promise<unknown>,
): PublicDoorOperation {
  return { id, scope: 'public-door', summary, traits, run };
}

/**
 * An agent tool as the table holds it: its name, the area whose runner checks its arguments and answers the model,
 * and its traits, which the runner applies before the tool runs (see tool-ops.ts).
 */
export interface ToolOperation {
  id: string;
  scope: 'tool';
  area: 'file' | 'memory' | 'wiki' | 'docs';
  traits: OperationTraits;
}
