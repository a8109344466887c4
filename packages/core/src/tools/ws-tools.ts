import { StoaError, type ToolArgs } from '@stoa/contract';
import { listFilesRecursive } from '../files/list-files.js';
import { agentDelete, agentWrite, type AgentWriteResult } from './agent-write.js';
import { binaryReadAnswer, cutForModel, readForAgent } from './read-text.js';
import { underFolder } from './resolve-path.js';
import { budget, checkWriteSize, traceWith, type ToolAnswer, type ToolEnv } from './tool-env.js';

/** The folder a list call covers (prefix relative to the read scope). */
export function listFolderOf(env: ToolEnv, prefix: string | undefined): string {
  return underFolder(prefix ?? '', env.scopes.read, env.scopes, 'folder');
}

/**
 * `ws_list_files(prefix)`: one line per file — root path, size, type, modified — at most STOA_AGENT_LIST_MAX.
 *
 * @example
 * await wsListFiles(env, { prefix: 'pricing' }) // { text: 'pricing/price-list.md\t812\ttext/markdown\t2026-…' }
 */
export async function wsListFiles(env: ToolEnv, args: ToolArgs<'ws_list_files'>): Promise<ToolAnswer> {
  const folder = listFolderOf(env, args.prefix);
  const max = env.limits.agentListMax;
  const { files, nextCursor } = await listFilesRecursive(env.ctx, { prefix: folder, limit: max });
  const where = folder === '' ? 'the project storage' : `"${folder}/"`;
  if (files.length === 0) return { text: `No files in ${where}.` };
  const lines = files.map((f) => `${f.path}\t${f.size}\t${f.type}\t${f.modified}`);
  if (nextCursor) lines.push(`[more files: only the first ${max} of ${where} are listed; give a narrower prefix to see the rest]`);
  return { text: lines.join('\n') };
}

/** `ws_read_file(path)`: own folder first, then the read scope; text only, cut at STOA_AGENT_READ_CHARS. */
export async function wsReadFile(env: ToolEnv, args: ToolArgs<'ws_read_file'>): Promise<ToolAnswer> {
  const r = await readForAgent(env.ctx, args.path, env.scopes);
  if ('binary' in r) return binaryReadAnswer(r);
  // The own copy shadows a shared file at the same path: say which one this is (issue 29).
  const head = r.shadows ? `[${r.row.path}]\n` : '';
  return { text: head + cutForModel(r.text, env.limits.agentReadChars), path: r.row.path, version: r.row.version };
}

/** `ws_write_file(path, content, mode)`: overwrite or append (appends applied on the server, in the transaction). */
export async function wsWriteFile(env: ToolEnv, args: ToolArgs<'ws_write_file'>): Promise<ToolAnswer> {
  checkWriteSize(env, args.content);
  const path = underFolder(args.path, env.scopes.write, env.scopes);
  const append = args.mode === 'append';
  const n = Buffer.byteLength(args.content, 'utf8');
  const answer = (r: AgentWriteResult): ToolAnswer => {
    const what = append
      ? r.created
        ? `Created ${path} with ${n} bytes (append to a new file)`
        : `Appended ${n} bytes to ${path} (now ${r.file.size} bytes)`
      : r.created
        ? `Created ${path} (${n} bytes)`
        : `Overwrote ${path} (${n} bytes)`;
    return { text: `${what}; version ${r.file.version}, type ${r.file.type}; ${budget(r.changes)}.`, path, version: r.file.version };
  };
  const r = await agentWrite(env.ctx, {
    path,
    mode: 'replace',
    expectedVersion: args.expected_version,
    attribution: env.attribution,
    window: env.window,
    content: append ? (cur) => (cur?.text ?? '') + args.content : args.content,
    // The trace entry commits with the write (one transaction, not two).
    trace: traceWith(env, answer),
  });
  return answer(r);
}

/** `ws_delete_file(path)`: only in the own folder; not available when both scopes are the whole project. */
export async function wsDeleteFile(env: ToolEnv, args: ToolArgs<'ws_delete_file'>): Promise<ToolAnswer> {
  const folder = env.scopes.delete;
  if (folder === null) throw new StoaError('forbidden', 'deleting files is not available to an agent that reads and writes the whole project');
  const path = underFolder(args.path, folder, env.scopes);
  const r = await agentDelete(env.ctx, { path, expectedVersion: args.expected_version, window: env.window });
  return { text: `Deleted ${path} (it was at version ${r.file.version}, ${r.file.size} bytes); ${budget(r.changes)}.`, path };
}
