import { isStoaError, memoryToolSchemas, type MemoryToolName } from '@stoa/contract';
import { replaceOnce } from '../tools/replace-once.js';
import type { Ctx } from '../platform.js';
import { runToolCall, type ToolCallOptions, type ToolResult } from '../tools/area-tool.js';
import { appendMemory, getMemory, setMemory } from './memory.js';
import { searchMemory } from './search.js';
import type { MemoryDoc } from './types.js';

/** What a tool of this area answers: the one runner's result. */
export type MemoryToolResult = ToolResult;

function where(d: MemoryDoc): string {
  return d.file === 'MEMORY.md' && d.conversation
    ? `${d.file} of conversation ${d.conversation}`
    : d.file === 'SOUL.md' && d.agent
      ? `${d.file} of ${d.agent}`
      : d.file;
}

const tools: { [N in MemoryToolName]: (ctx: Ctx, a: any) => Promise<{ text: string; version: number | null }> } = {
  memory_get: async (ctx, a) => {
    const d = await getMemory(ctx, { file: a.file, conversation: a.channel });
    return { text: `${where(d)}, version ${d.version}${d.editable ? '' : ' (read-only for you)'}:\n${d.content}`, version: d.version };
  },
  memory_append: async (ctx, a) => {
    const d = await appendMemory(ctx, { file: a.file, conversation: a.channel }, a.text);
    return { text: `Appended to ${where(d)}; it is now version ${d.version}.`, version: d.version };
  },
  memory_set: async (ctx, a) => {
    const d = await setMemory(ctx, { file: a.file, conversation: a.channel }, a.content, { base: a.expected_version });
    return { text: `Saved ${where(d)} as version ${d.version}.`, version: d.version };
  },
  memory_edit: async (ctx, a) => {
    const ref = { file: a.file, conversation: a.channel };
    // Without expected_version the edit goes to the newest text: a save in between is read again, not lost.
    for (let attempt = 1; ; attempt++) {
      const d = await getMemory(ctx, ref);
      const base: number = a.expected_version ?? d.version;
      // A stale expected_version is refused by the save below as memory_version_conflict, before the text matters.
      const edited = base === d.version ? replaceOnce(d.content, a.old_str, a.new_str, where(d), d.version) : { text: d.content, line: 0 };
      try {
        const saved = await setMemory(ctx, ref, edited.text, { base });
        return { text: `Replaced 1 occurrence at line ${edited.line} of ${where(saved)}; it is now version ${saved.version}.`, version: saved.version };
      } catch (e) {
        if (a.expected_version !== undefined || attempt >= 3 || !isStoaError(e) || e.code !== 'memory_version_conflict') throw e;
      }
    }
  },
  memory_search: async (ctx, a) => {
    const hits = await searchMemory(ctx, { query: a.query, limit: a.limit ?? 10 });
    if (hits.length === 0) return { text: 'No memory file you may read matches.', version: null };
    return { text: hits.map((h, i) => `${i + 1}. ${h.title} (version ${h.version}): ${h.snippet}`).join('\n'), version: null };
  },
};

/**
 * Runs one memory tool call as the context's actor (an agent, usually in a conversation) — the implementation
 * behind the MCP memory tools. Refusals never throw: the model reads `Refused: <reason>` and can change course.
 *
 * @example
 * await runMemoryTool(agentCtx, 'memory_append', { file: 'MEMORY.md', text: 'Renewal moved to 2 November' });
 * // { text: 'Appended to MEMORY.md of conversation conv_…; it is now version 4.', refused: false, version: 4 }
 */
export function runMemoryTool(ctx: Ctx, name: string, args: unknown, opts: ToolCallOptions = {}): Promise<MemoryToolResult> {
  return runToolCall(
    ctx,
    {
      area: 'memory',
      schemas: memoryToolSchemas,
      run: tools,
      pathArg: 'file',
      refusalSuffix: (e) =>
        e.code === 'memory_version_conflict' ? ` (memory_version_conflict; the current version is ${String(e.details?.currentVersion)})` : '',
    },
    name,
    args,
    opts,
  );
}
