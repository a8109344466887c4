import type { Ctx } from '../platform.js';
import { assertCan } from '../policies/can.js';
import { quotaOf } from '../projects/projects.js';

/** Formats bytes like the Files header (SPEC F4): "12.4 MB", "1.0 GB". Binary multiples (1 GB = 1024³ bytes, as the 1 GB default quota reads "1.0 GB"), one decimal. */
export function formatBytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${n} B` : `${v.toFixed(1)} ${units[i]}`;
}

/**
 * Storage usage shared by people and all agents (SPEC F4). Versions do not count.
 *
 * @example
 * await usage(ctx) // { used: 12400000, quota: 1073741824, reserved: 0, text: "Used 12.4 MB of 1.0 GB" }
 */
export async function usage(ctx: Ctx): Promise<{ used: number; quota: number; reserved: number; files: number; text: string }> {
  assertCan(ctx.actor, 'project.read', { kind: 'project' });
  const db = ctx.platform.db.kysely;
  const p = await db.selectFrom('projects').select(['used_bytes', 'reserved_bytes']).where('id', '=', ctx.project.id).executeTakeFirstOrThrow();
  const files = await db.selectFrom('files').select((eb) => eb.fn.countAll().as('n')).where('project_id', '=', ctx.project.id).executeTakeFirstOrThrow();
  const quota = quotaOf(ctx.platform, ctx.project);
  const used = Number(p.used_bytes);
  return { used, quota, reserved: Number(p.reserved_bytes), files: Number(files.n), text: `Used ${formatBytes(used)} of ${formatBytes(quota)}` };
}
