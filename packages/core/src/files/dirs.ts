import { sql } from 'kysely';
import type { Q } from '../platform.js';
import { ancestorDirs, baseName, dirOf } from '../paths.js';

/**
 * Folders are not stored (F2): this table is a derived index of how many files each folder holds, kept in
 * the same transaction as the file rows, so a folder "appears with its first file and disappears with its
 * last" and listing subfolders never scans every file.
 */
export async function addToDirs(trx: Q, projectId: string, filePath: string): Promise<void> {
  for (const d of ancestorDirs(filePath)) {
    await trx
      .insertInto('dirs')
      .values({ project_id: projectId, path: d, parent: dirOf(d), name: baseName(d), file_count: 1 })
      .onConflict((oc) => oc.columns(['project_id', 'path']).doUpdateSet({ file_count: sql`dirs.file_count + 1` }))
      .execute();
  }
}

export async function removeFromDirs(trx: Q, projectId: string, filePath: string): Promise<void> {
  const dirs = ancestorDirs(filePath);
  if (dirs.length === 0) return;
  await trx.updateTable('dirs').set({ file_count: sql`file_count - 1` }).where('project_id', '=', projectId).where('path', 'in', dirs).execute();
  await trx.deleteFrom('dirs').where('project_id', '=', projectId).where('path', 'in', dirs).where('file_count', '<=', 0).execute();
}
