import { StoaError } from '@stoa/contract';
import { isInside } from '../paths.js';
import type { Ctx } from '../platform.js';
import type { ParseMode } from './parse.js';
import { parseStoredFile } from './parsing.js';
import { chunkReadScope } from './read-scope.js';

export const MAX_REFERENCES = 50;

export interface ReferenceCheck {
  fileAssetId: string;
  chunkId: string;
  /**
   * valid: the cited text is where it was, in the current version at the same path;
   * moved: the text is still there, but the file has another path or the text another position;
   * changed: the current version no longer contains the cited text;
   * deleted: the file is gone; not_found: no such asset/chunk (or not readable by the caller).
   */
  status: 'valid' | 'moved' | 'changed' | 'deleted' | 'not_found';
  path: string | null;
  citedVersion: number | null;
  currentVersion: number | null;
  span: { start: number; end: number } | null;
  excerpt: string | null;
}

/**
 * Re-checks cited evidence (R6 `validateUnderstandingReferences`, B4): for each fileAssetId/chunkId, whether the
 * cited text is still there, moved, changed or deleted, with a short excerpt of what is there now.
 *
 * @example
 * const [r] = await validateReferences(ctx, [{ fileAssetId: 'fa_…', chunkId: 'ch_…' }]); // r.status 'valid'
 */
export async function validateReferences(ctx: Ctx, refs: Array<{ fileAssetId: string; chunkId: string }>): Promise<ReferenceCheck[]> {
  if (refs.length === 0) throw new StoaError('bad_request', 'give at least one reference ASSET:CHUNK');
  if (refs.length > MAX_REFERENCES) throw new StoaError('bad_request', `at most ${MAX_REFERENCES} references per call`);
  const scope = chunkReadScope(ctx);
  const db = ctx.platform.db.kysely;
  const current = new Map<string, string>();
  const out: ReferenceCheck[] = [];
  for (const ref of refs) {
    const none: ReferenceCheck = { ...ref, status: 'not_found', path: null, citedVersion: null, currentVersion: null, span: null, excerpt: null };
    const chunk = await db
      .selectFrom('doc_chunks')
      .innerJoin('doc_assets', 'doc_assets.id', 'doc_chunks.asset_id')
      .select([
        'doc_chunks.text',
        'doc_chunks.version',
        'doc_chunks.start_offset',
        'doc_chunks.end_offset',
        'doc_chunks.path',
        'doc_assets.file_id',
        'doc_assets.parse_mode',
      ])
      .where('doc_chunks.id', '=', ref.chunkId)
      .where('doc_chunks.asset_id', '=', ref.fileAssetId)
      .where('doc_assets.project_id', '=', ctx.project.id)
      .executeTakeFirst();
    if (!chunk || !isInside(chunk.path, scope)) {
      out.push(none);
      continue;
    }
    const file = await db.selectFrom('files').selectAll().where('id', '=', chunk.file_id).where('project_id', '=', ctx.project.id).executeTakeFirst();
    const base = { ...ref, citedVersion: chunk.version, span: { start: chunk.start_offset, end: chunk.end_offset } };
    if (!file) {
      out.push({ ...base, status: 'deleted', path: chunk.path, currentVersion: null, excerpt: null });
      continue;
    }
    if (!isInside(file.path, scope)) {
      out.push(none);
      continue;
    }
    let text = current.get(file.id);
    if (text === undefined) {
      // Parsed in a worker under the same caps as understanding; a file that cannot be parsed now reads as empty.
      const outcome = await parseStoredFile(ctx.platform, file, chunk.parse_mode as ParseMode, { chunk: false });
      text = outcome.ok ? outcome.doc.text : '';
      current.set(file.id, text);
    }
    const at = text.slice(chunk.start_offset, chunk.end_offset) === chunk.text ? chunk.start_offset : text.indexOf(chunk.text);
    if (at < 0) {
      const excerpt = text.slice(chunk.start_offset, Math.min(chunk.end_offset, chunk.start_offset + 300)) || null;
      out.push({ ...base, status: 'changed', path: file.path, currentVersion: file.version, excerpt });
      continue;
    }
    const moved = file.path !== chunk.path || at !== chunk.start_offset;
    out.push({
      ...base,
      status: moved ? 'moved' : 'valid',
      path: file.path,
      currentVersion: file.version,
      span: { start: at, end: at + chunk.text.length },
      excerpt: chunk.text.slice(0, 300),
    });
  }
  return out;
}
