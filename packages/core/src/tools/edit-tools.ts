import { StoaError, type ToolArgs } from '@stoa/contract';
import { listFilesRecursive } from '../files/list-files.js';
import { createTwoFilesPatch } from 'diff';
import { assertCan } from '../policies/can.js';
import { findFileRow } from '../files/read-file.js';
import { isTextContent } from '../files/mime.js';
import { agentWrite, type AgentWriteResult, type CurrentFile } from './agent-write.js';
import { binaryReadAnswer, cutForModel, readForAgent } from './read-text.js';
import { underFolder } from './resolve-path.js';
import { replaceOnce } from './replace-once.js';
import { budget, checkWriteSize, traceWith, type ToolAnswer, type ToolEnv } from './tool-env.js';
import { listFolderOf, wsDeleteFile } from './ws-tools.js';

/**
 * `list_files` (X1): the files the caller may read as JSON with `filePath`, `url` and metadata.
 *
 * @example
 * JSON.parse((await listFilesJson(env, {})).text).files[0].filePath // 'agents/agt_a3B9kLm2/notes.md'
 */
export async function listFilesJson(env: ToolEnv, args: ToolArgs<'list_files'>): Promise<ToolAnswer> {
  const folder = listFolderOf(env, args.prefix);
  const { files, nextCursor } = await listFilesRecursive(env.ctx, { prefix: folder, limit: env.limits.agentListMax });
  const notes = new Map<string, string>();
  if (files.length > 0) {
    const db = env.ctx.platform.db.kysely;
    for (let i = 0; i < files.length; i += 500) {
      const ids = files.slice(i, i + 500).map((f) => f.id);
      for (const n of await db.selectFrom('file_notes').selectAll().where('file_id', 'in', ids).execute()) notes.set(n.file_id, n.description);
    }
  }
  const base = (env.ctx.platform.config.publicUrl ?? '').replace(/(?<!\/)\/+$/, '');
  const out = files.map((f) => ({
    filePath: f.path,
    url: `${base}/api/v1/projects/${env.ctx.project.id}/files/content?path=${encodeURIComponent(f.path)}`,
    size: f.size,
    type: f.type,
    modified: f.modified,
    version: f.version,
    permissions: f.permissions,
    createdBy: f.createdBy,
    ...(notes.has(f.id) ? { description: notes.get(f.id) } : {}),
  }));
  return { text: JSON.stringify({ files: out, truncated: nextCursor !== null }) };
}

/** `read_file` (X6, B5): optional line range with a header "lines a–b of N". */
export async function readFileLines(env: ToolEnv, args: ToolArgs<'read_file'>): Promise<ToolAnswer> {
  const r = await readForAgent(env.ctx, args.file_path, env.scopes);
  if ('binary' in r) return binaryReadAnswer(r);
  const lines = r.text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const n = lines.length;
  const from = args.offset ?? 1;
  if (n > 0 && from > n) throw new StoaError('bad_request', `offset ${from} is past the end of "${r.row.path}", which has ${n} line${n === 1 ? '' : 's'}`);
  const to = n === 0 ? 0 : Math.min(n, args.limit !== undefined ? from + args.limit - 1 : n);
  const body = n === 0 ? '' : lines.slice(from - 1, to).join('\n');
  const header = `[${r.row.path} · version ${r.row.version} · lines ${n === 0 ? 0 : from}–${to} of ${n}]`;
  const hint = `read further with offset ${to + 1}`;
  return { text: `${header}\n${cutForModel(body, env.limits.agentReadChars, hint)}`, path: r.row.path, version: r.row.version };
}

/** `create_file` (X2): a new file; refused if it exists. */
export async function createFile(env: ToolEnv, args: ToolArgs<'create_file'>): Promise<ToolAnswer> {
  checkWriteSize(env, args.file_contents);
  const path = underFolder(args.file_path, env.scopes.write, env.scopes);
  const answer = (r: AgentWriteResult): ToolAnswer => ({
    text: `Created ${path} (${r.file.size} bytes, type ${r.file.type}, permissions ${r.file.permissions}); version ${r.file.version}; ${budget(r.changes)}.`,
    path,
    version: r.file.version,
  });
  const r = await agentWrite(env.ctx, {
    path,
    mode: 'create',
    content: args.file_contents,
    permissions: args.permissions ?? '644',
    expectedVersion: args.expected_version,
    attribution: env.attribution,
    window: env.window,
    after: args.file_description
      ? async (trx, file) => {
          await trx.insertInto('file_notes').values({ file_id: file.id, description: args.file_description! }).execute();
        }
      : undefined,
    trace: traceWith(env, answer),
  });
  return answer(r);
}

/**
 * A dry run of an edit: the same checks as the real one (scope, text file, expected version, the edit itself) and
 * the unified diff it would make; nothing is stored and nothing counts.
 */
async function previewEdit(env: ToolEnv, path: string, expectedVersion: number | undefined, edit: (cur: CurrentFile | null) => string): Promise<ToolAnswer> {
  assertCan(env.ctx.actor, 'file.write', { kind: 'file', path });
  const row = await findFileRow(env.ctx, path);
  let cur: CurrentFile | null = null;
  if (row) {
    const bytes = await env.ctx.platform.blobs.read(row.blob_key);
    if (!isTextContent(row.mime, bytes))
      throw new StoaError('not_a_text_file', `"${path}" is a binary file (${row.mime}, ${row.size} bytes); it cannot be edited as text`);
    cur = { row, text: bytes.toString('utf8') };
  }
  const version = row?.version ?? 0;
  if (expectedVersion !== undefined && expectedVersion !== version) {
    throw new StoaError('version_conflict', `"${path}" is at version ${version}, not ${expectedVersion}; read it again and retry`, { currentVersion: version });
  }
  const after = edit(cur);
  const diff = createTwoFilesPatch(path, path, cur?.text ?? '', after, row ? `version ${version}` : 'new file', 'after the edit');
  const note = `Dry run: nothing was stored or counted. The edit would change ${path} (now ${row ? `version ${version}` : 'absent'}) like this:`;
  return {
    text: `${note}\n${cutForModel(diff, env.limits.agentReadChars, 'the diff is longer')}`,
    path,
    version: row?.version ?? null,
    data: { diff, dryRun: true },
  };
}

/** `str_replace` (X3, B5): exactly one match, applied to the newest content inside the transaction. */
export async function strReplace(env: ToolEnv, args: ToolArgs<'str_replace'>): Promise<ToolAnswer> {
  checkWriteSize(env, args.new_str, 'new_str');
  const path = underFolder(args.file_path, env.scopes.write, env.scopes);
  const edit = (cur: CurrentFile | null) => {
    if (!cur) throw new StoaError('not_found', `file "${path}" does not exist; create it with create_file`);
    return replaceOnce(cur.text, args.old_str, args.new_str, `"${path}"`, cur.row.version);
  };
  if (args.dry_run) return previewEdit(env, path, args.expected_version, (cur) => edit(cur).text);
  let line = 0;
  const answer = (r: AgentWriteResult): ToolAnswer => ({
    text: `Replaced 1 occurrence at line ${line} of ${path}; version ${r.file.version}; ${budget(r.changes)}.`,
    path,
    version: r.file.version,
  });
  const r = await agentWrite(env.ctx, {
    path,
    mode: 'replace',
    expectedVersion: args.expected_version,
    attribution: env.attribution,
    window: env.window,
    content: (cur) => {
      const e = edit(cur);
      line = e.line;
      return e.text;
    },
    trace: traceWith(env, answer),
  });
  return answer(r);
}

/**
 * The text after every edit of an edit_file call, applied in order to the text the edits before left; a failing
 * edit refuses the whole call, named by its index (from 0) and with its own reason.
 */
function applyEdits(cur: CurrentFile, path: string, edits: ToolArgs<'edit_file'>['edits']): { text: string; lines: number[] } {
  let text = cur.text;
  const lines: number[] = [];
  edits.forEach((e, i) => {
    try {
      const r = replaceOnce(text, e.old_str, e.new_str, `"${path}"`, cur.row.version);
      text = r.text;
      lines.push(r.line);
    } catch (err) {
      if (!(err instanceof StoaError)) throw err;
      const after = i === 0 ? '' : ` (as edits[0]–edits[${i - 1}] left it)`;
      throw new StoaError(err.code, `edits[${i}] of ${edits.length}: ${err.message}${after}; no edit was applied`, { ...err.details, edit: i });
    }
  });
  return { text, lines };
}

/** `edit_file`: several exact replacements in one file, applied in order to its newest content, all or none. */
export async function editFile(env: ToolEnv, args: ToolArgs<'edit_file'>): Promise<ToolAnswer> {
  checkWriteSize(env, args.edits.map((e) => e.new_str).join(''), 'new_str (all edits together)');
  const path = underFolder(args.path, env.scopes.write, env.scopes);
  const edit = (cur: CurrentFile | null) => {
    if (!cur) throw new StoaError('not_found', `file "${path}" does not exist; create it with create_file`);
    return applyEdits(cur, path, args.edits);
  };
  if (args.dry_run) return previewEdit(env, path, args.expected_version, (cur) => edit(cur).text);
  let lines: number[] = [];
  const answer = (r: AgentWriteResult): ToolAnswer => {
    const n = lines.length;
    return {
      text: `Applied ${n} edit${n === 1 ? '' : 's'} to ${path} (at line${n === 1 ? '' : 's'} ${lines.join(', ')}); version ${r.file.version}; ${budget(r.changes)}.`,
      path,
      version: r.file.version,
    };
  };
  const r = await agentWrite(env.ctx, {
    path,
    mode: 'replace',
    expectedVersion: args.expected_version,
    attribution: env.attribution,
    window: env.window,
    content: (cur) => {
      const e = edit(cur);
      lines = e.lines;
      return e.text;
    },
    trace: traceWith(env, answer),
  });
  return answer(r);
}

/** `full_file_rewrite` (X4): the whole content replaced (created if missing). */
export async function fullFileRewrite(env: ToolEnv, args: ToolArgs<'full_file_rewrite'>): Promise<ToolAnswer> {
  checkWriteSize(env, args.file_contents);
  const path = underFolder(args.file_path, env.scopes.write, env.scopes);
  if (args.dry_run) return previewEdit(env, path, args.expected_version, () => args.file_contents);
  const answer = (r: AgentWriteResult): ToolAnswer => ({
    text: `${r.created ? 'Created' : 'Rewrote'} ${path} (${r.file.size} bytes, permissions ${r.file.permissions}); version ${r.file.version}; ${budget(r.changes)}.`,
    path,
    version: r.file.version,
  });
  const r = await agentWrite(env.ctx, {
    path,
    mode: 'replace',
    content: args.file_contents,
    permissions: args.permissions,
    expectedVersion: args.expected_version,
    attribution: env.attribution,
    window: env.window,
    trace: traceWith(env, answer),
  });
  return answer(r);
}

/** `delete_file` (X5): same rules as ws_delete_file. */
export async function deleteFileTool(env: ToolEnv, args: ToolArgs<'delete_file'>): Promise<ToolAnswer> {
  return wsDeleteFile(env, { path: args.file_path, expected_version: args.expected_version });
}
