import { formatBytes } from '@stoa/contract';
import type { Ctx } from '../platform.js';
import { assertCan } from '../policies/can.js';
import { quotaOf } from '../projects/projects.js';
import { projectFileCount } from './dirs.js';

// The one size formatter lives in the contract (the CLI and web print sizes without loading the core).
export { formatBytes };

/**
 * Storage usage shared by people and all agents (F4). Versions do not count.
 *
 * @example
 * await usage(ctx) // { used: 12400000, quota: 1073741824, reserved: 0, text: "Used 12.4 MB of 1.0 GB" }
 */
export async function usage(ctx: Ctx): Promise<{ used: number; quota: number; reserved: number; files: number; text: string }> {
  assertCan(ctx.actor, 'project.read', { kind: 'project' });
  const db = ctx.platform.db.kysely;
  const p = await db.selectFrom('projects').select(['used_bytes', 'reserved_bytes']).where('id', '=', ctx.project.id).executeTakeFirstOrThrow();
  const files = await projectFileCount(db, ctx.project.id);
  const quota = quotaOf(ctx.platform, ctx.project);
  const used = Number(p.used_bytes);
  return { used, quota, reserved: Number(p.reserved_bytes), files, text: `Used ${formatBytes(used)} of ${formatBytes(quota)}` };
}
