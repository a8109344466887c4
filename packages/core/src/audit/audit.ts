import type { AuditActionName } from '@stoa/contract';
import type { Q, Ctx } from '../platform.js';
import { assertCan } from '../policies/can.js';
import { hotQuery } from '../hot-query.js';

/**
 * An action of the audit log: one of `auditActions` (packages/contract/src/audit-actions.ts), which the UI names.
 * Callers that pass an action along as a string are held to the list by audit-actions.test.ts.
 */
export type AuditAction = AuditActionName | (string & {});

export interface AuditEntry {
  id: number;
  at: string;
  actor: { kind: string; id: string | null; name: string | null };
  action: string;
  path: string | null;
  from: string | null;
  to: string | null;
  size: number | null;
  details: Record<string, unknown> | null;
}

/**
 * Writes an audit entry in the caller's transaction. Only people's actions are audited (F15): agents'
 * actions are in their conversation trace instead, so this is a no-op for agent actors.
 */
export async function recordAudit(
  trx: Q,
  ctx: Ctx,
  e: { action: AuditAction; path?: string; from?: string; to?: string; size?: number; details?: Record<string, unknown> },
): Promise<void> {
  if (ctx.actor.kind !== 'user') return;
  ctx.audited?.push(e.action);
  await insertAudit(trx, {
    project_id: ctx.project.id,
    at: ctx.platform.clock().toISOString(),
    actor_id: ctx.actor.userId,
    actor_label: ctx.actor.name,
    action: e.action,
    path: e.path ?? null,
    from_path: e.from ?? null,
    to_path: e.to ?? null,
    size: e.size ?? null,
    details: e.details ? JSON.stringify(e.details) : null,
  });
}

type AuditRow = {
  project_id: string;
  at: string;
  actor_id: string;
  actor_label: string;
  action: string;
  path: string | null;
  from_path: string | null;
  to_path: string | null;
  size: number | null;
  details: string | null;
};

/** Every person's change writes one: built once (issue 30). */
const insertAudit = hotQuery((db, a: AuditRow) =>
  db.insertInto('audit_log').values({
    project_id: a.project_id,
    at: a.at,
    actor_kind: 'user',
    actor_id: a.actor_id,
    actor_label: a.actor_label,
    action: a.action,
    path: a.path,
    from_path: a.from_path,
    to_path: a.to_path,
    size: a.size,
    details: a.details,
  }),
);

/**
 * The project's audit log, newest first, for admins. `before` is the cursor (an entry id).
 *
 * @example
 * const { entries, nextCursor } = await listAudit(ctx, { limit: 50 });
 */
export async function listAudit(
  ctx: Ctx,
  input: { limit?: number; before?: number; action?: string; path?: string } = {},
): Promise<{ entries: AuditEntry[]; nextCursor: number | null }> {
  assertCan(ctx.actor, 'audit.read', { kind: 'project' });
  const limit = Math.min(Math.max(input.limit ?? 100, 1), 1000);
  let q = ctx.platform.db.kysely.selectFrom('audit_log').selectAll().where('project_id', '=', ctx.project.id);
  if (input.before) q = q.where('id', '<', input.before);
  if (input.action) q = q.where('action', '=', input.action);
  if (input.path) q = q.where((eb) => eb.or([eb('path', '=', input.path!), eb('from_path', '=', input.path!), eb('to_path', '=', input.path!)]));
  const rows = await q
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  return {
    entries: page.map((r) => ({
      id: Number(r.id),
      at: r.at,
      actor: { kind: r.actor_kind, id: r.actor_id, name: r.actor_label },
      action: r.action,
      path: r.path,
      from: r.from_path,
      to: r.to_path,
      size: r.size === null ? null : Number(r.size),
      details: r.details ? JSON.parse(r.details) : null,
    })),
    nextCursor: rows.length > limit ? Number(page[page.length - 1]!.id) : null,
  };
}
