import { memoryRefusal, resolveMemoryTarget } from '../memory/target.js';
import { versionText } from '../memory/store.js';
import { FILE_OF, type MemoryKind } from '../memory/types.js';
import type { Ctx } from '../platform.js';
import { inSqlBatches } from '../db-batches.js';
import { diffOf, label, noteFor, spanOf, touchedIn, type ChangeStatus, type ConversationChange } from './change-items.js';

/** The memory items, with the reference and text to restore. */
export interface MemoryChange extends ConversationChange {
  kind: 'memory';
  memoryRef: { file: string; agent?: string; conversation?: string };
  beforeText: string;
}

export async function memoryChanges(ctx: Ctx, conv: string): Promise<MemoryChange[]> {
  const db = ctx.platform.db.kysely;
  const ids = await touchedIn(ctx, 'memory_versions', conv);
  if (ids.length === 0) return [];
  const dialect = ctx.platform.db.dialect;
  const files = await inSqlBatches(dialect, ids, (batch) => db.selectFrom('memory_files').selectAll().where('id', 'in', batch).execute());
  const versions = await inSqlBatches(dialect, ids, (batch) =>
    db
      .selectFrom('memory_versions')
      .select(['file_id', 'version', 'chars', 'author_kind', 'author_label', 'author_meta'])
      .where('file_id', 'in', batch)
      .orderBy('version')
      .execute(),
  );
  const out: MemoryChange[] = [];
  for (const f of files) {
    const kind = f.kind as MemoryKind;
    const file = FILE_OF[kind];
    const memoryRef = kind === 'soul' ? { file, agent: f.scope_id } : kind === 'memory' ? { file, conversation: f.scope_id } : { file };
    let target;
    try {
      target = await resolveMemoryTarget(ctx, memoryRef);
    } catch {
      continue; // its agent or conversation is gone
    }
    if (await memoryRefusal(ctx, target, 'memory.read')) continue;
    const path = kind === 'agents' ? file : `${file}:${f.scope_id}`;
    const vs = versions.filter((v) => v.file_id === f.id);
    const span = spanOf(vs, conv);
    if (!span) continue;
    const { first, last, others } = span;
    const beforeVersion = first.version - 1;
    const never = beforeVersion === 0 ? (kind === 'soul' ? (target.agentInstructions ?? '') : '') : undefined;
    const beforeText = never ?? (await versionText(db, f.id, beforeVersion));
    const lastText = (await versionText(db, f.id, last.version)) ?? '';
    const currentText = (await versionText(db, f.id, f.version)) ?? '';
    const status: ChangeStatus =
      beforeText === undefined ? 'unrecoverable' : currentText === beforeText ? 'reverted' : others.length ? 'conflict' : 'revertible';
    const size = (s: string) => Buffer.byteLength(s, 'utf8');
    out.push({
      ref: `memory:${path}`,
      kind: 'memory',
      path,
      movedFrom: null,
      movedSince: null,
      before: beforeVersion === 0 ? null : { version: beforeVersion, size: size(beforeText ?? '') },
      after: { version: last.version, size: size(lastText) },
      current: { version: f.version, size: size(currentText) },
      status,
      changedBy: [...new Set(others.map((v) => label(v.author_kind, v.author_label)))],
      diff: diffOf(path, beforeText ?? '', lastText, beforeVersion === 0 ? 'never saved' : `version ${beforeVersion}`, `version ${last.version}`),
      binary: false,
      note: noteFor(status, 'edited', null),
      memoryRef,
      beforeText: beforeText ?? '',
    });
  }
  return out;
}
