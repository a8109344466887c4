import type { z } from 'zod';
import { isStoaError, StoaError } from '@stoa/contract';
import { newId } from '../ids.js';
import type { Ctx } from '../platform.js';
import { recordToolCall, shortArgs, shortResult } from '../conversations/trace.js';
import { refusalOfDbError } from '../db-guard.js';

/** What an area's tool answers the model: text, or `Refused: <reason>` (A5). */
export interface AreaToolResult {
  text: string;
  refused: boolean;
  /** Stable code of a refusal, for programs; the model reads `text`. */
  code?: string;
  version: number | null;
}

export interface AreaTools<S extends Record<string, z.ZodType>> {
  /** Area name, for messages: "there is no wiki tool …". */
  area: string;
  schemas: S;
  run: { [K in keyof S]: (ctx: Ctx, args: z.output<S[K]>) => Promise<{ text: string; version?: number | null }> };
  /** Argument named in the trace as the call's path (e.g. 'path', 'file'). */
  pathArg?: string;
  /** Extra words after a refusal's message (e.g. the current version on a conflict). */
  refusalSuffix?: (e: StoaError) => string;
}

/**
 * Runs one call of an area's tools (memory, wiki, documents) as the context's actor: validates the arguments
 * with the tool's schema, runs it, turns every refusal into `Refused: <reason>` (never a throw), and records
 * agents' calls in their conversation's trace (F15) like the file tools.
 *
 * @example
 * await runAreaTool(ctx, wikiTools, 'wiki_get', { path: 'handbook' });
 */
export async function runAreaTool<S extends Record<string, z.ZodType>>(ctx: Ctx, tools: AreaTools<S>, name: string, args: unknown): Promise<AreaToolResult> {
  const started = performance.now();
  const result = await runUntraced(ctx, tools, name, args);
  if (ctx.actor.kind === 'agent') {
    const key = tools.pathArg;
    const path = key && args && typeof args === 'object' && typeof (args as Record<string, unknown>)[key] === 'string' ? ((args as Record<string, string>)[key] ?? null) : null;
    await recordToolCall(ctx, {
      id: newId('call'), conversationId: ctx.actor.conversationId, tool: name, args: shortArgs(args), result: shortResult(result.text),
      refused: result.refused, durationMs: Math.round((performance.now() - started) * 100) / 100, path, version: result.version,
    }).catch((e) => console.error('could not record the tool call in the trace:', e));
  }
  return result;
}

async function runUntraced<S extends Record<string, z.ZodType>>(ctx: Ctx, tools: AreaTools<S>, name: string, args: unknown): Promise<AreaToolResult> {
  try {
    if (!Object.prototype.hasOwnProperty.call(tools.schemas, name)) throw new StoaError('not_found', `there is no ${tools.area} tool "${name}"`);
    const parsed = tools.schemas[name]!.safeParse(args ?? {});
    if (!parsed.success) {
      const what = parsed.error.issues.slice(0, 5).map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${i.message}` : i.message)).join('; ');
      throw new StoaError('bad_request', `invalid arguments — ${what}`);
    }
    const r = await tools.run[name as keyof S](ctx, parsed.data as any);
    return { text: r.text, refused: false, version: r.version ?? null };
  } catch (caught) {
    const e = refusalOfDbError(caught) ?? caught;
    if (!isStoaError(e)) {
      console.error(`${tools.area} tool ${name} failed:`, e);
      return { text: 'Refused: an internal error occurred; please retry', refused: true, code: 'internal', version: null };
    }
    return { text: `Refused: ${e.message}${tools.refusalSuffix?.(e as StoaError) ?? ''}`, refused: true, code: e.code, version: null };
  }
}
