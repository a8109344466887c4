import type { ToolArgs } from '@stoa/contract';
import { listVersions, restoreAsNewVersion } from '../files/versions.js';
import { findForAgent } from './read-text.js';
import { underFolder } from './resolve-path.js';
import { budget, type ToolAnswer, type ToolEnv } from './tool-env.js';

/**
 * `list_versions`: a file's versions, newest first, one per line (number, size, author, time), found where
 * read tools look (own folder first, then the read scope).
 *
 * @example
 * (await listVersionsTool(env, { path: 'notes.md' })).text
 * // 'agents/agt_a3B9kLm2/notes.md has 2 versions, newest first:\nversion 2 (current) · 12 bytes · agent: Researcher · 2026-12-05T05:40:00.000Z\n…'
 */
export async function listVersionsTool(env: ToolEnv, args: ToolArgs<'list_versions'>): Promise<ToolAnswer> {
  const row = await findForAgent(env.ctx, args.path, env.scopes);
  const versions = await listVersions(env.ctx, row.path);
  const lines = versions.map(
    (v) => `version ${v.version}${v.current ? ' (current)' : ''} · ${v.size} bytes · ${v.author || v.authorDetail.kind} · ${v.modified}`,
  );
  const n = versions.length;
  return {
    text: `${row.path} has ${n} version${n === 1 ? '' : 's'}, newest first:\n${lines.join('\n')}`,
    path: row.path,
    version: row.version,
    data: {
      versions: versions.map((v) => ({ version: v.version, size: v.size, author: v.author || v.authorDetail.kind, modified: v.modified, current: v.current })),
    },
  };
}

/** `restore_version`: an earlier version of a file in the write scope becomes its newest version; a change. */
export async function restoreVersionTool(env: ToolEnv, args: ToolArgs<'restore_version'>): Promise<ToolAnswer> {
  const path = underFolder(args.path, env.scopes.write, env.scopes);
  const r = await restoreAsNewVersion(env.ctx, { path, version: args.version, expectedVersion: args.expected_version }, env);
  return {
    text: `Restored version ${args.version} of ${path} as version ${r.file.version}${r.changes ? `; ${budget(r.changes)}` : ''}.`,
    path,
    version: r.file.version,
  };
}
