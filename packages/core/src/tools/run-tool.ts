import { isStoaError, isToolName, StoaError, toolInputSchemas, type ToolName } from '@stoa/contract';
import { newId } from '../ids.js';
import { refusalOfDbError } from '../db-guard.js';
import type { Ctx } from '../platform.js';
import { recordToolCall, shortArgs, shortResult } from '../conversations/trace.js';
import { conversationOf, toolAttribution, toolScopes, type RuntimeInfo } from './caller.js';
import type { ToolAnswer, ToolEnv } from './tool-env.js';
import { wsDeleteFile, wsListFiles, wsReadFile, wsWriteFile } from './ws-tools.js';
import { createFile, deleteFileTool, fullFileRewrite, listFilesJson, readFileLines, strReplace } from './edit-tools.js';

/** What a door hands back to the model (and to HTTP callers). */
export interface ToolResult {
  /** The answer, or `Refused: <reason>` (A5). */
  text: string;
  refused: boolean;
  /** Stable code of the refusal (e.g. `forbidden`, `rate_limited`), for programs; the model reads `text`. */
  code?: string;
  callId: string;
  path: string | null;
  version: number | null;
}

const tools: { [N in ToolName]: (env: ToolEnv, args: any) => Promise<ToolAnswer> } = {
  ws_list_files: wsListFiles, ws_read_file: wsReadFile, ws_write_file: wsWriteFile, ws_delete_file: wsDeleteFile,
  list_files: listFilesJson, read_file: readFileLines, create_file: createFile, str_replace: strReplace,
  full_file_rewrite: fullFileRewrite, delete_file: deleteFileTool,
};

function argumentError(e: { issues: Array<{ path: PropertyKey[]; message: string }> }): StoaError {
  const what = e.issues.slice(0, 5).map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${i.message}` : i.message)).join('; ');
  return new StoaError('bad_request', `invalid arguments — ${what}`);
}

/**
 * Runs one file tool call as the context's actor — the one implementation behind MCP (stdio and HTTP), the
 * HTTP tool-call route and the SDK. It never throws for a refusal: the model gets `Refused: <reason>` and can
 * change course (A5). Every call, refused or not, is recorded in the conversation's trace with its
 * arguments in short, its answer and its duration.
 *
 * @example
 * const r = await runTool(ctx, 'ws_write_file', { path: 'reports/summary.md', content: '# Summary' });
 * r.text // 'Created agents/agt_a3B9kLm2/reports/summary.md (9 bytes); version 1, …'
 */
export async function runTool(ctx: Ctx, name: string, args: unknown, opts: { runtime?: RuntimeInfo } = {}): Promise<ToolResult> {
  const started = performance.now();
  const callId = newId('call');
  const conversation = conversationOf(ctx, opts.runtime);
  let result: ToolResult;
  try {
    if (!isToolName(name)) throw new StoaError('not_found', `there is no tool "${name}"`);
    const parsed = toolInputSchemas(ctx.platform.config.limits)[name].safeParse(args ?? {});
    if (!parsed.success) throw argumentError(parsed.error);
    const env: ToolEnv = {
      ctx, scopes: toolScopes(ctx), limits: ctx.platform.config.limits, callId,
      attribution: toolAttribution(ctx, callId, opts.runtime),
      window: { conversation, agent: ctx.actor.kind === 'agent' ? ctx.actor.agentId : '' },
    };
    const a = await tools[name](env, parsed.data);
    result = { text: a.text, refused: false, callId, path: a.path ?? null, version: a.version ?? null };
  } catch (caught) {
    const e = refusalOfDbError(caught) ?? caught;
    if (!isStoaError(e)) {
      // Unexpected faults are refusals too, without internals (no host paths or stack traces reach the model).
      console.error(`tool ${name} failed:`, e);
      result = { text: 'Refused: an internal error occurred; please retry', refused: true, code: 'internal', callId, path: null, version: null };
    } else {
      result = { text: `Refused: ${e.message}`, refused: true, code: e.code, callId, path: null, version: null };
    }
  }
  const durationMs = Math.round((performance.now() - started) * 100) / 100;
  await recordToolCall(ctx, {
    id: callId, conversationId: conversation, tool: name, args: shortArgs(args), result: shortResult(result.text),
    refused: result.refused, durationMs, path: result.path, version: result.version,
  }).catch((e) => console.error('could not record the tool call in the trace:', e));
  return result;
}
