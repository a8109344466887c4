import { toolInputSchemas, type ToolInputSchemas } from '@stoa/contract';
import type { Ctx } from '../platform.js';
import { runToolCall, type ToolAnswer, type ToolCall, type ToolCallOptions, type ToolResult, type ToolTable } from './area-tool.js';
import { conversationOf, toolAttribution, toolScopes } from './caller.js';
import type { ToolEnv } from './tool-env.js';
import { wsDeleteFile, wsListFiles, wsReadFile, wsWriteFile } from './ws-tools.js';
import { createFile, deleteFileTool, editFile, fullFileRewrite, listFilesJson, readFileLines, strReplace } from './edit-tools.js';
import { listVersionsTool, restoreVersionTool } from './version-tools.js';
import { createFolderTool, globFiles, moveFileTool, readFiles, treeView } from './folder-tools.js';
import { fileChanges } from './change-feed.js';

export type { ToolResult } from './area-tool.js';

type FileToolFns = { [N in keyof ToolInputSchemas]: (env: ToolEnv, args: any) => Promise<ToolAnswer> };

const fileTools: FileToolFns = {
  ws_list_files: wsListFiles,
  ws_read_file: wsReadFile,
  ws_write_file: wsWriteFile,
  ws_delete_file: wsDeleteFile,
  list_files: listFilesJson,
  read_file: readFileLines,
  create_file: createFile,
  str_replace: strReplace,
  edit_file: editFile,
  full_file_rewrite: fullFileRewrite,
  delete_file: deleteFileTool,
  read_files: readFiles,
  create_folder: createFolderTool,
  move_file: moveFileTool,
  tree: treeView,
  glob: globFiles,
  file_changes: fileChanges,
  list_versions: listVersionsTool,
  restore_version: restoreVersionTool,
};

/** The caller's scopes, attribution and change window for one file tool call. */
function envOf(callerCtx: Ctx, call: ToolCall): ToolEnv {
  // The core operations a tool calls see the call's ID: the runner traces the call, so they add no entry of their own.
  const ctx = callerCtx.actor.kind === 'agent' ? { ...callerCtx, actor: { ...callerCtx.actor, toolCallId: call.callId } } : callerCtx;
  return {
    ctx,
    scopes: toolScopes(ctx),
    limits: ctx.platform.config.limits,
    callId: call.callId,
    attribution: toolAttribution(ctx, call.callId, call.runtime),
    window: { conversation: conversationOf(ctx, call.runtime), agent: ctx.actor.kind === 'agent' ? ctx.actor.agentId : '' },
    traceInTx: call.traceInTx,
  };
}

/** The file tools as one of the runner's tables (schemas carry the configured limits). */
function fileToolTable(ctx: Ctx): ToolTable<ToolInputSchemas> {
  const run = Object.fromEntries(Object.entries(fileTools).map(([n, f]) => [n, (c: Ctx, a: unknown, call: ToolCall) => f(envOf(c, call), a)]));
  return { area: 'file', schemas: toolInputSchemas(ctx.platform.config.limits), run: run as ToolTable<ToolInputSchemas>['run'] };
}

/**
 * Runs one file tool call as the context's actor through the one tool runner (see runToolCall).
 *
 * @example
 * const r = await runTool(ctx, 'ws_write_file', { path: 'reports/summary.md', content: '# Summary' });
 * r.text // 'Created agents/agt_a3B9kLm2/reports/summary.md (9 bytes); version 1, …'
 */
export function runTool(ctx: Ctx, name: string, args: unknown, opts: ToolCallOptions = {}): Promise<ToolResult> {
  return runToolCall(ctx, fileToolTable(ctx), name, args, opts);
}
