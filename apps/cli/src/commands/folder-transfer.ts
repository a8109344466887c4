import { createReadStream, createWriteStream, lstatSync, readdirSync } from 'node:fs';
import { mkdir, rename, unlink } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { filesRoutes, isStoaError } from '@stoa/contract';
import type { Api } from '../api.js';
import { resumeKeyOf } from '../upload-resume.js';

/** One file of a folder transfer that did not make it, and why (the stable code and message). */
export interface TransferFailure {
  path: string;
  code: string;
  message: string;
}

export interface TransferResult {
  files: Array<{ path: string; size: number; version?: number }>;
  folders: string[];
  failed: TransferFailure[];
}

/** Remote path of a local entry below the folder being uploaded: always "/"-separated. */
function remoteJoin(base: string, rel: string): string {
  const clean = base.replace(/(?<!\/)\/+$/, '');
  const r = rel.split(sep).join('/');
  return clean ? (r ? `${clean}/${r}` : clean) : r;
}

function failureOf(path: string, e: unknown): TransferFailure {
  if (isStoaError(e)) return { path, code: e.code, message: e.message };
  return { path, code: 'io_error', message: e instanceof Error ? e.message : String(e) };
}

/**
 * Local files and folders below `dir`, depth first, in name order. Symbolic links are not followed (a link to
 * `/` must not upload the machine); they are reported as skipped.
 */
function walk(dir: string): { files: string[]; emptyFolders: string[]; skipped: string[] } {
  const out = { files: [] as string[], emptyFolders: [] as string[], skipped: [] as string[] };
  const visit = (d: string) => {
    const entries = readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    if (entries.length === 0 && d !== dir) out.emptyFolders.push(d);
    for (const e of entries) {
      const full = join(d, e.name);
      if (e.isDirectory()) visit(full);
      else if (e.isFile()) out.files.push(full);
      else out.skipped.push(full);
    }
  };
  visit(dir);
  return out;
}

/**
 * Uploads a local folder to `target`, keeping its layout: every file becomes a file (a new version where one is
 * there already), every empty folder a folder. A file that is refused (a name the F1 rules forbid, the quota) does
 * not stop the others; it is listed in `failed`.
 */
export async function putFolder(api: Api, localDir: string, target: string, onFile: (path: string, size: number) => void): Promise<TransferResult> {
  const result: TransferResult = { files: [], folders: [], failed: [] };
  const { files, emptyFolders, skipped } = walk(localDir);
  for (const s of skipped)
    result.failed.push({ path: relative(localDir, s), code: 'skipped', message: 'not a regular file or folder (links are not followed)' });
  for (const local of files) {
    const path = remoteJoin(target, relative(localDir, local));
    try {
      const size = lstatSync(local).size;
      const r = (await api.upload(path, (range) => createReadStream(local, range), size, { resumeKey: resumeKeyOf(local) })) as {
        file?: { path: string; size: number; version: number };
      } & {
        path: string;
        size: number;
        version: number;
      };
      const f = r.file ?? r;
      result.files.push({ path: f.path, size: f.size, version: f.version });
      onFile(f.path, f.size);
    } catch (e) {
      result.failed.push(failureOf(path, e));
    }
  }
  for (const local of emptyFolders) {
    const path = remoteJoin(target, relative(localDir, local));
    try {
      const d = await api.call(filesRoutes.createFolder, { project: api.project, path });
      result.folders.push(d.path);
    } catch (e) {
      result.failed.push(failureOf(path, e));
    }
  }
  return result;
}

/**
 * Downloads every file below the remote folder `source` into `localDir`, keeping the layout. Each file is written
 * to a temporary name and renamed when complete, so an interrupted run leaves no half file under a real name.
 */
export async function getFolder(api: Api, source: string, localDir: string, onFile: (path: string, size: number) => void): Promise<TransferResult> {
  const result: TransferResult = { files: [], folders: [], failed: [] };
  const prefix = source.replace(/(?<!\/)\/+$/, '');
  const root = resolve(localDir);
  let cursor: string | null | undefined;
  do {
    const page = await api.call(filesRoutes.list, { project: api.project, prefix, cursor: cursor ?? undefined, limit: 5000 });
    for (const f of page.files) {
      const rel = prefix ? f.path.slice(prefix.length + 1) : f.path;
      const target = resolve(root, ...rel.split('/'));
      // Server paths never contain "..", but a local path is only written inside the folder asked for.
      if (!target.startsWith(root + sep)) {
        result.failed.push({ path: f.path, code: 'path_invalid', message: 'would be written outside the target folder' });
        continue;
      }
      const tmp = `${target}.stoa-part`;
      try {
        await mkdir(resolve(target, '..'), { recursive: true });
        const d = await api.download(f.path);
        await pipeline(d.stream, createWriteStream(tmp));
        await rename(tmp, target);
        result.files.push({ path: f.path, size: f.size, version: f.version });
        onFile(f.path, f.size);
      } catch (e) {
        await unlink(tmp).catch(() => undefined);
        result.failed.push(failureOf(f.path, e));
      }
    }
    cursor = page.nextCursor;
  } while (cursor);
  return result;
}
