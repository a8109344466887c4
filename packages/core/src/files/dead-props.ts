import { StoaError } from '@stoa/contract';
import { normalizePath } from '../paths.js';
import { inTx, type Ctx } from '../platform.js';
import { assertCan } from '../policies/can.js';
import { lockFileRow } from './commit-version.js';
import { inSqlBatches } from '../db-batches.js';

/** A client-defined property of a file (WebDAV "dead" property): a namespace, a name and an XML value. */
export interface DeadProp {
  ns: string;
  name: string;
  value: string;
}

const MAX_PROPS_PER_FILE = 200;
const MAX_VALUE_CHARS = 16_384;

/**
 * Sets and removes client properties of a file in one transaction (all or nothing). They belong to the file,
 * so they move with it and go when it is deleted.
 *
 * @example
 * await patchDeadProps(ctx, 'a.md', [{ op: 'set', ns: 'urn:x', name: 'colour', value: 'blue' }]);
 */
export type DeadPropChange = ({ op: 'set' } & DeadProp) | { op: 'remove'; ns: string; name: string };

export async function patchDeadProps(ctx: Ctx, rawPath: string, changes: DeadPropChange[]): Promise<void> {
  const path = normalizePath(rawPath);
  assertCan(ctx.actor, 'file.write', { kind: 'file', path });
  for (const c of changes)
    if (c.op === 'set' && c.value.length > MAX_VALUE_CHARS) throw new StoaError('too_large', `property value over ${MAX_VALUE_CHARS} characters`);
  await inTx(ctx.platform, async (trx) => {
    const row = await lockFileRow(trx, ctx, path);
    if (!row) throw new StoaError('not_found', `file "${path}" does not exist`);
    // In the order given (RFC 4918 §9.2: a later instruction overrides an earlier one).
    for (const c of changes) {
      if (c.op === 'remove') await trx.deleteFrom('dav_props').where('file_id', '=', row.id).where('ns', '=', c.ns).where('name', '=', c.name).execute();
      else {
        await trx
          .insertInto('dav_props')
          .values({ file_id: row.id, project_id: ctx.project.id, ns: c.ns, name: c.name, value: c.value })
          .onConflict((oc) => oc.columns(['file_id', 'ns', 'name']).doUpdateSet({ value: c.value }))
          .execute();
      }
    }
    const n = Number(
      (
        await trx
          .selectFrom('dav_props')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('file_id', '=', row.id)
          .executeTakeFirstOrThrow()
      ).n,
    );
    if (n > MAX_PROPS_PER_FILE) throw new StoaError('too_large', `a file holds at most ${MAX_PROPS_PER_FILE} properties`);
  });
}

/** Client properties of files by file id (for a listing: one query for a page of files). */
export async function deadPropsOf(ctx: Ctx, fileIds: string[]): Promise<Map<string, DeadProp[]>> {
  const out = new Map<string, DeadProp[]>();
  if (fileIds.length === 0) return out;
  const rows = await inSqlBatches(ctx.platform.db.dialect, fileIds, (batch) =>
    ctx.platform.db.kysely
      .selectFrom('dav_props')
      .select(['file_id', 'ns', 'name', 'value'])
      .where('project_id', '=', ctx.project.id)
      .where('file_id', 'in', batch)
      .orderBy('ns')
      .orderBy('name')
      .execute(),
  );
  for (const r of rows) out.set(r.file_id, [...(out.get(r.file_id) ?? []), { ns: r.ns, name: r.name, value: r.value }]);
  return out;
}

/**
 * Sets the modification time a sync client reports for a file (WebDAV getlastmodified, X-OC-Mtime), without a
 * new version: the content did not change, only the time the client keeps for it.
 *
 * @example
 * await setFileModified(ctx, { path: 'a.md', modified: new Date('2026-01-01T00:00:00Z') });
 */
export async function setFileModified(ctx: Ctx, input: { path: string; modified: Date }): Promise<void> {
  const path = normalizePath(input.path);
  assertCan(ctx.actor, 'file.write', { kind: 'file', path });
  if (Number.isNaN(input.modified.getTime())) throw new StoaError('bad_request', 'modification time is not a valid date');
  const r = await ctx.platform.db.kysely
    .updateTable('files')
    .set({ modified_at: input.modified.toISOString() })
    .where('project_id', '=', ctx.project.id)
    .where('path', '=', path)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) throw new StoaError('not_found', `file "${path}" does not exist`);
}
