import type { ToolArgs } from '@stoa/contract';
import { can } from '../policies/can.js';
import { isInside } from '../paths.js';
import type { ToolAnswer, ToolEnv } from './tool-env.js';
import { changesAfter } from '../files/file-changes.js';

/**
 * `file_changes(cursor, limit)`: the files written, moved or deleted after `cursor`, oldest first (B7), only those
 * the caller may read; the answer ends with the cursor to pass next time. A move from a place the caller may not
 * read shows only where the file is now.
 *
 * @example
 * (await fileChanges(env, { cursor: earlier })).data // { changes: [{ cursor: 'Zk8…', kind: 'written', path: 'a.md', … }], cursor: 'Zk8…' }
 */
export async function fileChanges(env: ToolEnv, args: ToolArgs<'file_changes'>): Promise<ToolAnswer> {
  const actor = env.ctx.actor;
  const readable = (p: string) => isInside(p, env.scopes.read) && !can(actor, 'file.read', { kind: 'file', path: p });
  const { changes: out, cursor: next } = await changesAfter(env.ctx, { cursor: args.cursor, limit: args.limit ?? env.limits.agentListMax, readable });
  if (out.length === 0) return { text: `No changes after cursor ${args.cursor ?? '0'}. Next cursor: ${next}`, data: { changes: [], cursor: next } };
  const lines = out.map(
    (c) => `${c.cursor}\t${c.kind}\t${c.path}${c.from_path ? ` (from ${c.from_path})` : ''}\tversion ${c.version}\t${c.size} bytes\t${c.at}`,
  );
  return { text: `${lines.join('\n')}\nNext cursor: ${next}`, data: { changes: out, cursor: next } };
}
