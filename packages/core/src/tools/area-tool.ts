import type { z } from 'zod';
import { isStoaError, StoaError } from '@stoa/contract';
import { newOrderedId } from '../ids.js';
import type { Ctx, Q } from '../platform.js';
import { recordToolCall, shortArgs, shortResult } from '../conversations/trace.js';
import { refusalOfDbError } from '../db-guard.js';
import { conversationOf, type RuntimeInfo } from './caller.js';
import { nearestName } from './near-miss.js';

/** What a tool hands back to the door (and the model): text, or `Refused: <reason>` (A5). */
export interface ToolResult {
  /** The answer, or `Refused: <reason>`. */
  text: string;
  refused: boolean;
  /** Stable code of a refusal (e.g. `forbidden`, `rate_limited`), for programs; the model reads `text`. */
  code?: string;
  callId: string;
  /** The file or page the call touched, from the storage root (null when none). */
  path: string | null;
  version: number | null;
  /** Tool-specific structured data (a list, a tree, a diff, a cursor) beside the text. */
  data?: Record<string, unknown>;
  /** Media beside the text for multimodal models: an image a read tool returns (issue 29). */
  content?: ToolMedia[];
}

/** An image a tool returns, base64-encoded, as MCP's `image` content item. */
export interface ToolMedia {
  type: 'image';
  mimeType: string;
  data: string;
}

/** What one call runs with besides its arguments. */
export interface ToolCall {
  callId: string;
  runtime?: RuntimeInfo;
  /**
   * Records the call's trace entry with its answer inside the change's own transaction, so a change and the entry
   * telling of it commit together (one transaction per write instead of two); the runner then writes none after
   * the tool. A tool whose change commits calls it last in that transaction; the others leave it to the runner.
   */
  traceInTx?: (trx: Q, answer: ToolAnswer) => Promise<void>;
}

/**
 * The operation runner's steps for one tool (operations/tool-ops.ts): run after the arguments are checked and
 * before the tool, so their refusals are answered and traced like the tool's own. Returns what undoes them when
 * the tool is then refused (a change the runner counted).
 */
export type ToolGate = (ctx: Ctx, args: unknown, call: ToolCall) => Promise<(() => Promise<void>) | null>;

/** Options of one tool call. */
export interface ToolCallOptions {
  runtime?: RuntimeInfo;
  gate?: ToolGate;
}

/** A tool's answer before the runner wraps it. */
export interface ToolAnswer {
  text: string;
  path?: string | null;
  version?: number | null;
  data?: Record<string, unknown>;
  content?: ToolMedia[];
}

/** One area's tools (files, memory, wiki, documents): schemas, implementations and how to name their calls. */
export interface ToolTable<S extends Record<string, z.ZodType>> {
  /** Area name, for messages: "there is no wiki tool …". */
  area: string;
  schemas: S;
  run: { [K in keyof S]: (ctx: Ctx, args: z.output<S[K]>, call: ToolCall) => Promise<ToolAnswer> };
  /** Argument named in the trace as the call's path when the answer names none (e.g. 'path', 'file'). */
  pathArg?: string;
  /** Extra words after a refusal's message (e.g. the current version on a conflict). */
  refusalSuffix?: (e: StoaError) => string;
}

/**
 * The one tool runner behind every door (MCP stdio and HTTP, the HTTP tool-call route, the CLI, the SDK): checks
 * the arguments strictly — an unknown or misspelt argument is refused with the nearest valid name, never dropped —
 * runs the tool as the context's actor, turns every refusal into `Refused: <reason>` with its stable code (never a
 * throw, A5), and records the call in the conversation's trace with its arguments in short, its answer and
 * its duration (F15).
 *
 * @example
 * await runToolCall(ctx, wikiTools, 'wiki_get', { path: 'handbook' });
 */
export async function runToolCall<S extends Record<string, z.ZodType>>(
  ctx: Ctx,
  table: ToolTable<S>,
  name: string,
  args: unknown,
  opts: ToolCallOptions = {},
): Promise<ToolResult> {
  const started = performance.now();
  const pathOf = (path: string | null): string | null => {
    if (path !== null || !table.pathArg || !args || typeof args !== 'object') return path;
    const p = (args as Record<string, unknown>)[table.pathArg];
    return typeof p === 'string' ? p : null;
  };
  const entry = (r: { text: string; refused: boolean; path: string | null; version: number | null }) => ({
    id: call.callId,
    conversationId: conversationOf(ctx, opts.runtime),
    tool: name,
    args: shortArgs(args),
    result: shortResult(r.text),
    refused: r.refused,
    durationMs: Math.round((performance.now() - started) * 100) / 100,
    path: pathOf(r.path),
    version: r.version,
  });
  // Set when the tool's transaction wrote the entry; a transaction that then rolled back ends in a refusal, which
  // is recorded below as always.
  let inTx = false;
  const call: ToolCall = {
    callId: newOrderedId('call'),
    runtime: opts.runtime,
    traceInTx: async (trx, answer) => {
      await recordToolCall(ctx, entry({ text: answer.text, refused: false, path: answer.path ?? null, version: answer.version ?? null }), trx);
      inTx = true;
    },
  };
  const result = await runUntraced(ctx, table, name, args, call, opts.gate);
  result.path = pathOf(result.path);
  if (inTx && !result.refused) return result;
  await recordToolCall(ctx, entry(result)).catch((e) => console.error('could not record the tool call in the trace:', e));
  return result;
}

/**
 * Refuses an argument the tool does not have, naming the nearest one: a model's typo ("expectedVersion") must
 * not silently turn a guarded edit into an overwrite.
 */
function refuseUnknownArguments(schema: z.ZodType, args: unknown): void {
  if (!args || typeof args !== 'object' || Array.isArray(args)) return;
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  if (!shape) return;
  const known = Object.keys(shape);
  for (const key of Object.keys(args)) {
    if (Object.prototype.hasOwnProperty.call(shape, key)) continue;
    const near = nearestName(key, known);
    const hint = near ? ` — did you mean "${near}"?` : ` — the arguments are: ${known.join(', ')}`;
    throw new StoaError('bad_request', `unknown argument "${key}"${hint}`, { argument: key, ...(near ? { suggestion: near } : {}) });
  }
}

async function runUntraced<S extends Record<string, z.ZodType>>(
  ctx: Ctx,
  table: ToolTable<S>,
  name: string,
  args: unknown,
  call: ToolCall,
  gate?: ToolGate,
): Promise<ToolResult> {
  const none = { callId: call.callId, path: null, version: null };
  try {
    if (!Object.prototype.hasOwnProperty.call(table.schemas, name)) throw new StoaError('not_found', `there is no ${table.area} tool "${name}"`);
    const schema = table.schemas[name]!;
    if (args !== undefined && args !== null && (typeof args !== 'object' || Array.isArray(args)))
      throw new StoaError('bad_request', 'the arguments must be an object');
    refuseUnknownArguments(schema, args);
    const parsed = schema.safeParse(args ?? {});
    if (!parsed.success) {
      const what = parsed.error.issues
        .slice(0, 5)
        .map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${i.message}` : i.message))
        .join('; ');
      throw new StoaError('bad_request', `invalid arguments — ${what}`);
    }
    const undo = gate ? await gate(ctx, parsed.data, call) : null;
    let r: ToolAnswer;
    try {
      r = await table.run[name as keyof S](ctx, parsed.data as z.output<S[keyof S]>, call);
    } catch (e) {
      await undo?.();
      throw e;
    }
    return {
      text: r.text,
      refused: false,
      callId: call.callId,
      path: r.path ?? null,
      version: r.version ?? null,
      ...(r.data ? { data: r.data } : {}),
      ...(r.content ? { content: r.content } : {}),
    };
  } catch (caught) {
    // A database refusal (e.g. a NUL in text) is a refusal with its code, not an internal error.
    const e = refusalOfDbError(caught) ?? caught;
    if (!isStoaError(e)) {
      // Unexpected faults are refusals too, without internals (no host paths or stack traces reach the model).
      console.error(`${table.area} tool ${name} failed:`, e);
      return { text: 'Refused: an internal error occurred; please retry', refused: true, code: 'internal', ...none };
    }
    return { text: `Refused: ${e.message}${table.refusalSuffix?.(e as StoaError) ?? ''}`, refused: true, code: e.code, ...none };
  }
}
