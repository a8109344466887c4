import { StoaError, type ToolArgs } from '@stoa/contract';
import { foldersBelow, listFilesRecursive } from '../files/list-files.js';
import { moveFile } from '../files/move-file.js';
import { createFolder, moveFolder, statFolder } from '../files/folders.js';
import type { FileInfo } from '../files/file-info.js';
import { binaryAnswer, cutForModel, readForAgent } from './read-text.js';
import { underFolder } from './resolve-path.js';
import { budget, type ToolAnswer, type ToolEnv } from './tool-env.js';
import type { Q } from '../platform.js';
import { countAgentChange } from '../operations/agent-gate.js';
import { listFolderOf } from './ws-tools.js';
import { compileGlob } from './glob-match.js';

/** Files a tree or glob call looks through at most; beyond, the answer says the search was cut. */
const SCAN_MAX = 100_000;
const PAGE = 1000;

/** Every file under `folder` (inside the caller's read scope), a page at a time, up to SCAN_MAX. */
async function* filesUnder(env: ToolEnv, folder: string): AsyncGenerator<FileInfo> {
  let cursor: string | null = null;
  let seen = 0;
  do {
    const page: { files: FileInfo[]; nextCursor: string | null } = await listFilesRecursive(env.ctx, { prefix: folder, cursor, limit: PAGE });
    for (const f of page.files) {
      if (seen++ >= SCAN_MAX) return;
      yield f;
    }
    cursor = page.nextCursor;
  } while (cursor);
}

/**
 * `read_files(file_paths)`: several text files in one answer, each read exactly like read_file (own folder first,
 * text only, within the byte limit, cut at the character limit). One file's refusal does not refuse the others.
 *
 * @example
 * await readFiles(env, { file_paths: ['a.md', 'b.md'] }) // '[agents/…/a.md · version 1]\n…\n\n[b.md · version 3]\n…'
 */
export async function readFiles(env: ToolEnv, args: ToolArgs<'read_files'>): Promise<ToolAnswer> {
  const parts: string[] = [];
  const files: Array<{ path: string; version: number | null; refused?: string }> = [];
  for (const raw of args.file_paths) {
    try {
      const r = await readForAgent(env.ctx, raw, env.scopes);
      const body = 'binary' in r ? binaryAnswer(r.row) : cutForModel(r.text, env.limits.agentReadChars, `read "${r.row.path}" with read_file offset/limit`);
      parts.push(`[${r.row.path} · version ${r.row.version}]\n${body}`);
      files.push({ path: r.row.path, version: r.row.version });
    } catch (e) {
      if (!(e instanceof StoaError)) throw e;
      parts.push(`[${raw}]\nRefused: ${e.message}`);
      files.push({ path: raw, version: null, refused: e.code });
    }
  }
  return { text: parts.join('\n\n'), data: { files } };
}

/**
 * `move_file(from_path, to_path)`: renames or moves a file with its versions, or a folder with everything in it;
 * never overwrites. The source must be where the caller may move (write and delete), the target where it may
 * write; the move counts as one change whatever the folder holds.
 */
export async function moveFileTool(env: ToolEnv, args: ToolArgs<'move_file'>): Promise<ToolAnswer> {
  if (env.scopes.delete === null)
    throw new StoaError(
      'forbidden',
      'moving files is not available to an agent that reads and writes the whole project: a move removes the file from its old path, like a delete',
    );
  const from = underFolder(args.from_path, env.scopes.delete, env.scopes);
  const to = underFolder(args.to_path, env.scopes.write, env.scopes);
  let changes = { used: 0, max: 0 };
  const count = async (trx: Q) => (changes = (await countAgentChange(trx, env.ctx, env.window))!);
  if (await statFolder(env.ctx, from)) {
    if (args.expected_version !== undefined) throw new StoaError('bad_request', `"${from}" is a folder; folders have no version, leave expected_version out`);
    const folder = await moveFolder(env.ctx, { from, to, countChange: count });
    return {
      text: `Moved folder ${from} to ${folder.path} (${folder.fileCount} file${folder.fileCount === 1 ? '' : 's'}); ${budget(changes)}.`,
      path: folder.path,
    };
  }
  const file = await moveFile(env.ctx, { from, to, expectedVersion: args.expected_version, beforeMove: count });
  return { text: `Moved ${from} to ${file.path}; version ${file.version}; ${budget(changes)}.`, path: file.path, version: file.version };
}

/**
 * `create_folder(folder_path)`: an empty folder that stays while empty (F9 as amended), where the caller may write;
 * missing parents appear. Refused when a file or folder is at that path.
 *
 * @example
 * (await createFolderTool(env, { folder_path: 'reports/2026' })).text // 'Created folder agents/agt_…/reports/2026; …'
 */
export async function createFolderTool(env: ToolEnv, args: ToolArgs<'create_folder'>): Promise<ToolAnswer> {
  const path = underFolder(args.folder_path, env.scopes.write, env.scopes, 'folder');
  let changes = { used: 0, max: 0 };
  const folder = await createFolder(env.ctx, { path, countChange: async (trx) => (changes = (await countAgentChange(trx, env.ctx, env.window))!) });
  return { text: `Created folder ${folder.path}; ${budget(changes)}.`, path: folder.path };
}

interface Node {
  files: Array<{ name: string; size: number }>;
  dirs: Map<string, Node>;
  count: number;
}

function node(): Node {
  return { files: [], dirs: new Map(), count: 0 };
}

/**
 * `tree(prefix, depth)`: folders and files under a folder as an indented outline, sizes in bytes; folders deeper
 * than `depth` show only how many files they hold. At most STOA_AGENT_LIST_MAX lines.
 *
 * @example
 * (await treeView(env, { prefix: 'reports', depth: 1 })).text // 'reports/\n  2026/ (3 files)\n  summary.md 812'
 */
export async function treeView(env: ToolEnv, args: ToolArgs<'tree'>): Promise<ToolAnswer> {
  const folder = listFolderOf(env, args.prefix);
  const depth = args.depth ?? 3;
  const root = node();
  let scanned = 0;
  for await (const f of filesUnder(env, folder)) {
    scanned++;
    const rel = folder === '' ? f.path : f.path.slice(folder.length + 1);
    const parts = rel.split('/');
    let n = root;
    n.count++;
    for (const d of parts.slice(0, -1)) {
      if (!n.dirs.has(d)) n.dirs.set(d, node());
      n = n.dirs.get(d)!;
      n.count++;
    }
    n.files.push({ name: parts[parts.length - 1]!, size: f.size });
  }
  // Folders with no file below them are real too (F9 as amended): they show, with no count.
  for (const d of await foldersBelow(env.ctx, folder, SCAN_MAX)) {
    let n = root;
    for (const part of (folder === '' ? d : d.slice(folder.length + 1)).split('/')) {
      if (!n.dirs.has(part)) n.dirs.set(part, node());
      n = n.dirs.get(part)!;
    }
  }
  const max = env.limits.agentListMax;
  const lines: string[] = [folder === '' ? '/' : `${folder}/`];
  let cut = false;
  const walk = (n: Node, level: number): void => {
    for (const [name, d] of [...n.dirs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (lines.length > max) return void (cut = true);
      lines.push(`${'  '.repeat(level)}${name}/${level >= depth ? ` (${d.count} file${d.count === 1 ? '' : 's'})` : ''}`);
      if (level < depth) walk(d, level + 1);
    }
    for (const f of n.files) {
      if (lines.length > max) return void (cut = true);
      lines.push(`${'  '.repeat(level)}${f.name} ${f.size}`);
    }
  };
  walk(root, 1);
  if (scanned === 0 && root.dirs.size === 0) return { text: `No files in ${folder === '' ? 'the project storage' : `"${folder}/"`}.` };
  if (cut) lines.push(`[cut at ${max} lines; give a deeper prefix or a smaller depth]`);
  if (scanned >= SCAN_MAX) lines.push(`[only the first ${SCAN_MAX} files were looked at]`);
  return { text: lines.join('\n'), path: folder, data: { files: scanned, truncated: cut } };
}

/**
 * `glob(pattern, prefix)`: the files whose path matches a glob (glob-match.ts, linear time: `*` within a folder, `**` across
 * folders, `{a,b}`, `[ab]`), matched against the path from the root and the path below `prefix`.
 *
 * @example
 * (await globFiles(env, { pattern: '**\/*.csv' })).text // 'pricing/2026.csv\nreports/q1.csv'
 */
export async function globFiles(env: ToolEnv, args: ToolArgs<'glob'>): Promise<ToolAnswer> {
  const folder = listFolderOf(env, args.prefix);
  const match = compileGlob(args.pattern);
  const max = env.limits.agentListMax;
  const paths: string[] = [];
  let more = false;
  let looked = 0;
  for await (const f of filesUnder(env, folder)) {
    // Give other requests their turn between slices of matching (issue 27: no request holds the event loop).
    if (++looked % 200 === 0) await new Promise((r) => setImmediate(r));
    const rel = folder === '' ? f.path : f.path.slice(folder.length + 1);
    if (!match(f.path) && (rel === f.path || !match(rel))) continue;
    if (paths.length === max) {
      more = true;
      break;
    }
    paths.push(f.path);
  }
  if (paths.length === 0) return { text: `No file matches "${args.pattern}".`, data: { paths } };
  return {
    text: paths.join('\n') + (more ? `\n[more matches: only the first ${max} are listed; narrow the pattern or prefix]` : ''),
    data: { paths, truncated: more },
  };
}
