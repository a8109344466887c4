import { isDocsToolName, isMemoryToolName, isToolName, isWikiToolName, docsToolSchemas, memoryToolSchemas, toolNames, wikiToolSchemas } from '@stoa/contract';
import type { Ctx } from '../platform.js';
import type { LockTarget } from '../files/locks.js';
import { dispatchTool } from '../tools/all-tools.js';
import type { ToolCallOptions, ToolGate, ToolResult } from '../tools/area-tool.js';
import { toolScopes } from '../tools/caller.js';
import { underFolder } from '../tools/resolve-path.js';
import { assertInConversation, assertNotLocked, assertQuota, assertRoleAllows, countChange } from './chain.js';
import { changes, fileChange, reads, type OperationTraits, type ToolOperation } from './operation.js';

/** The file a tool writes, resolved into the caller's write scope as the tool resolves it; a dry run touches nothing. */
const written =
  (arg: string) =>
  (ctx: Ctx, a: Record<string, string>): LockTarget[] =>
    a.dry_run ? [] : [{ path: underFolder(a[arg]!, toolScopes(ctx).write, toolScopes(ctx)), member: true }];

/** The file a tool deletes; none when the caller may delete nowhere (the tool refuses that itself). */
const deleted =
  (arg: string) =>
  (ctx: Ctx, a: Record<string, string>): LockTarget[] => {
    const s = toolScopes(ctx);
    return s.delete === null ? [] : [{ path: underFolder(a[arg]!, s.delete, s), member: true }];
  };

const readsFor = (agent: 'read' | 'none'): OperationTraits => ({ ...reads('file.read'), agent });

/** Traits of the file tools (X1–X6, the ws_* tools of §7). Changes are counted by the file mutator, in their transaction. */
const fileTools: Record<(typeof toolNames)[number], OperationTraits> = {
  ws_list_files: readsFor('none'),
  ws_read_file: readsFor('read'),
  ws_write_file: fileChange('file.write', null, written('path')),
  ws_delete_file: fileChange('file.delete', null, deleted('path')),
  list_files: readsFor('none'),
  read_file: readsFor('read'),
  create_file: fileChange('file.write', null, written('file_path')),
  str_replace: fileChange('file.write', null, written('file_path')),
  edit_file: fileChange('file.write', null, written('path')),
  full_file_rewrite: fileChange('file.write', null, written('file_path')),
  delete_file: fileChange('file.delete', null, deleted('file_path')),
  read_files: readsFor('read'),
  create_folder: fileChange('file.write', null, (ctx, a: Record<string, string>) => [
    { path: underFolder(a.folder_path!, toolScopes(ctx).write, toolScopes(ctx), 'folder'), member: true },
  ]),
  move_file: fileChange('file.move', null, (ctx, a: Record<string, string>) => {
    const s = toolScopes(ctx);
    if (s.delete === null) return [];
    return [
      { path: underFolder(a.from_path!, s.delete, s, 'folder'), member: true, subtree: true },
      { path: underFolder(a.to_path!, s.write, s, 'folder'), member: true },
    ];
  }),
  tree: readsFor('none'),
  glob: readsFor('none'),
  file_changes: readsFor('none'),
  list_versions: readsFor('none'),
  restore_version: fileChange('file.write', null, written('path')),
};

/** Memory files (M1–M6): a save counts in the agent's write window like every other change (§9). */
const memorySave: OperationTraits = { ...changes('memory.write', null), window: 'runner' };
const memoryTools: Record<keyof typeof memoryToolSchemas, OperationTraits> = {
  memory_get: reads('memory.read'),
  memory_append: memorySave,
  memory_set: memorySave,
  memory_edit: memorySave,
  memory_search: reads('memory.read'),
};

/** A wiki page an agent saves counts in its window and is charged against the project's quota (issue 26). */
const wikiTools: Record<keyof typeof wikiToolSchemas, OperationTraits> = {
  wiki_list: reads('wiki.read'),
  wiki_get: reads('wiki.read'),
  wiki_put: { ...changes('wiki.write', null), window: 'runner', charges: (a: { text: string }) => Buffer.byteLength(a.text, 'utf8') },
  // An edit adds at most its new text (what it takes out is not given back before the save).
  wiki_edit: { ...changes('wiki.write', null), window: 'runner', charges: (a: { new_str: string }) => Buffer.byteLength(a.new_str, 'utf8') },
  wiki_search: reads('wiki.read'),
  search: reads('project.read'),
};

const docsTools: Record<keyof typeof docsToolSchemas, OperationTraits> = {
  docs_understand: changes('file.read', null, 'none'),
  docs_status: reads('file.read'),
  docs_chunks: reads('file.read'),
  docs_search: reads('file.read'),
  docs_validate: reads('file.read'),
};

const entries = (area: ToolOperation['area'], t: Record<string, OperationTraits>): ToolOperation[] =>
  Object.entries(t).map(([id, traits]) => ({ id, scope: 'tool', area, traits }));

/** Every agent tool, as table entries with their traits: the runner applies them on every transport. */
export const toolOperations: readonly ToolOperation[] = [
  ...entries('file', fileTools),
  ...entries('memory', memoryTools),
  ...entries('wiki', wikiTools),
  ...entries('docs', docsTools),
];

const byName = new Map(toolOperations.map((t) => [t.id, t]));

/** The table entry of a tool as this context offers it (a volume offers no memory or wiki tools), or undefined. */
export function findTool(ctx: Ctx, name: string): ToolOperation | undefined {
  if (ctx.project.volume && (isMemoryToolName(name) || isWikiToolName(name))) return undefined;
  return isToolName(name) || isMemoryToolName(name) || isWikiToolName(name) || isDocsToolName(name) ? byName.get(name) : undefined;
}

/** The runner's steps for one tool, in the order runOperation applies them to every operation. */
function gateOf(op: ToolOperation): ToolGate {
  return async (ctx, args) => {
    assertRoleAllows(ctx, op, 'tools.call');
    await assertInConversation(ctx);
    await assertNotLocked(ctx, op.traits, args);
    await assertQuota(ctx, op.traits, args);
    return countChange(ctx, op.traits);
  };
}

/**
 * Calls an agent tool through the operation runner: its declared traits are applied (policy, conversation
 * membership, locks, window, quota) before the tool runs; the tool runner of its area checks the arguments,
 * answers `Refused: <reason>` instead of throwing and records the call in the trace. Every transport reaches
 * tools this way (MCP over HTTP and stdio, the tool-call route, the CLI, the SDK).
 *
 * @example
 * await callTool(ctx, 'ws_write_file', { path: 'notes.md', content: '# Notes' });
 */
export function callTool(ctx: Ctx, name: string, args: unknown, opts: Omit<ToolCallOptions, 'gate'> = {}): Promise<ToolResult> {
  const op = findTool(ctx, name);
  return dispatchTool(ctx, name, args, op ? { ...opts, gate: gateOf(op) } : opts);
}
