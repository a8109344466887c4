import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, lstatSync, readdirSync } from 'node:fs';
import { mkdir, rename, rmdir, unlink } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { isStoaError } from '@stoa/contract/errors';
import { routeIndex } from '@stoa/contract/route-index';
import type { Api } from '../api.js';
import { resumeKeyOf } from '../upload-resume.js';

/** One file of a folder transfer that did not make it, and why (the stable code and message). */
export interface TransferFailure {
  path: string;
  code: string;
  message: string;
}

/**
 * What a folder transfer did (or, with `dryRun`, would do), like rsync's summary: files sent, files skipped
 * because the other side already has the same bytes (by SHA-256), empty folders created, what `--delete` removed.
 */
export interface TransferResult {
  dryRun: boolean;
  /** Files sent (uploaded or downloaded). */
  files: Array<{ path: string; size: number; version?: number }>;
  /** Unchanged files, skipped: the other side has the same content. */
  skipped: string[];
  /** Empty folders created on the other side. */
  folders: string[];
  /** Files and folders removed on the other side because this side does not have them (`--delete`). */
  deleted: string[];
  failed: TransferFailure[];
  summary: { sent: number; skipped: number; folders: number; deleted: number; failed: number };
}

interface TransferOptions {
  /** Only say what would be done. */
  dryRun?: boolean;
  /** Mirror: remove what the other side has and this side does not. */
  delete?: boolean;
  onFile?: (path: string, size: number) => void;
}

function emptyResult(dryRun: boolean): TransferResult {
  return { dryRun, files: [], skipped: [], folders: [], deleted: [], failed: [], summary: { sent: 0, skipped: 0, folders: 0, deleted: 0, failed: 0 } };
}

function finish(r: TransferResult): TransferResult {
  r.summary = { sent: r.files.length, skipped: r.skipped.length, folders: r.folders.length, deleted: r.deleted.length, failed: r.failed.length };
  return r;
}

/** Remote path of a local entry below the folder being uploaded: always "/"-separated. */
function remoteJoin(base: string, rel: string): string {
  const clean = base.replace(/^\/+|(?<!\/)\/+$/g, '');
  const r = rel.split(sep).join('/');
  return clean ? (r ? `${clean}/${r}` : clean) : r;
}

function failureOf(path: string, e: unknown): TransferFailure {
  if (isStoaError(e)) return { path, code: e.code, message: e.message };
  return { path, code: 'io_error', message: e instanceof Error ? e.message : String(e) };
}

async function sha256Of(file: string): Promise<string> {
  const h = createHash('sha256');
  await pipeline(createReadStream(file), h);
  return h.digest('hex');
}

/** Local files and folders below `dir`, depth first, in name order; links are not followed (a link to `/` must not upload the machine). */
function walk(dir: string): { files: string[]; folders: string[]; emptyFolders: string[]; skipped: string[] } {
  const out = { files: [] as string[], folders: [] as string[], emptyFolders: [] as string[], skipped: [] as string[] };
  const visit = (d: string) => {
    const entries = readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    if (d !== dir) out.folders.push(d);
    if (entries.length === 0 && d !== dir) out.emptyFolders.push(d);
    for (const e of entries) {
      const full = join(d, e.name);
      if (e.isDirectory()) visit(full);
      else if (e.isFile()) {
        // A half download of an interrupted `get -r` is not content.
        if (!e.name.endsWith('.stoa-part')) out.files.push(full);
      } else out.skipped.push(full);
    }
  };
  visit(dir);
  return out;
}

/** The files (path → size and SHA-256) and folders the server has below `prefix` ("" = everything). */
async function remoteTree(
  api: Api,
  prefix: string,
): Promise<{ files: Map<string, { size: number; sha256: string; version: number }>; folders: Set<string>; emptyFolders: Set<string> }> {
  const files = new Map<string, { size: number; sha256: string; version: number }>();
  let cursor: string | null | undefined;
  do {
    const page = await api.call(routeIndex.files.list, { project: api.project, prefix, cursor: cursor ?? undefined, limit: 5000 });
    for (const f of page.files) files.set(f.path, { size: f.size, sha256: f.sha256, version: f.version });
    cursor = page.nextCursor;
  } while (cursor);
  const below = (p: string) => !prefix || p.startsWith(`${prefix}/`);
  const tree = (await api.call(routeIndex.files.tree, { project: api.project })).filter((d) => below(d.path));
  return { files, folders: new Set(tree.map((d) => d.path)), emptyFolders: new Set(tree.filter((d) => d.fileCount === 0).map((d) => d.path)) };
}

/**
 * Uploads a local folder to `target`, keeping its layout, like `rsync -r`: a file the server already has with the
 * same bytes (SHA-256) is skipped (no new version), a changed one gets a new version, an empty folder is created
 * unless it is there. With `delete`, what the server has below `target` and the local folder does not is removed.
 * A file that is refused (a name the F1 rules forbid, the quota) does not stop the others; it is listed in `failed`.
 */
export async function putFolder(api: Api, localDir: string, target: string, opts: TransferOptions = {}): Promise<TransferResult> {
  const result = emptyResult(!!opts.dryRun);
  const prefix = target.replace(/^\/+|(?<!\/)\/+$/g, '');
  const { files, folders, emptyFolders, skipped } = walk(localDir);
  const remote = await remoteTree(api, prefix);
  for (const s of skipped)
    result.failed.push({ path: relative(localDir, s), code: 'skipped', message: 'not a regular file or folder (links are not followed)' });
  const localPaths = new Set<string>();
  for (const local of files) {
    const path = remoteJoin(prefix, relative(localDir, local));
    localPaths.add(path);
    try {
      const size = lstatSync(local).size;
      const there = remote.files.get(path);
      if (there && there.size === size && there.sha256 === (await sha256Of(local))) {
        result.skipped.push(path);
        continue;
      }
      if (opts.dryRun) {
        result.files.push({ path, size });
        continue;
      }
      const r = (await api.upload(path, (range) => createReadStream(local, range), size, { resumeKey: resumeKeyOf(local) })) as {
        file?: { path: string; size: number; version: number };
      } & { path: string; size: number; version: number };
      const f = r.file ?? r;
      result.files.push({ path: f.path, size: f.size, version: f.version });
      opts.onFile?.(f.path, f.size);
    } catch (e) {
      result.failed.push(failureOf(path, e));
    }
  }
  // An empty local folder still makes its target folder, as rsync would.
  const wholeEmpty = files.length === 0 && emptyFolders.length === 0 && prefix ? [localDir] : [];
  for (const local of [...wholeEmpty, ...emptyFolders]) {
    const path = remoteJoin(prefix, relative(localDir, local));
    if (remote.folders.has(path)) continue;
    try {
      if (!opts.dryRun) await api.call(routeIndex.files.createFolder, { project: api.project, path });
      result.folders.push(path);
    } catch (e) {
      result.failed.push(failureOf(path, e));
    }
  }
  if (opts.delete) {
    const localFolders = new Set(folders.map((d) => remoteJoin(prefix, relative(localDir, d))));
    for (const path of [...remote.files.keys()].sort()) {
      if (localPaths.has(path)) continue;
      try {
        if (!opts.dryRun) await api.call(routeIndex.files.remove, { project: api.project, path });
        result.deleted.push(path);
      } catch (e) {
        result.failed.push(failureOf(path, e));
      }
    }
    // Deepest first: a folder is empty by the time it is removed (one made empty above may be gone already).
    for (const path of [...remote.folders].sort().reverse()) {
      if (localFolders.has(path) || path === prefix) continue;
      try {
        if (!opts.dryRun) await api.call(routeIndex.files.deleteFolder, { project: api.project, path, recursive: 'false' });
        result.deleted.push(`${path}/`);
      } catch (e) {
        if (!(isStoaError(e) && e.code === 'not_found')) result.failed.push(failureOf(path, e));
        else result.deleted.push(`${path}/`);
      }
    }
  }
  return finish(result);
}

/**
 * Downloads every file below the remote folder `source` into `localDir`, keeping the layout, like `rsync -r`: a
 * local file with the same bytes (SHA-256) is left alone, empty folders are created, and with `delete` local files
 * and folders the server does not have are removed. Each file is written to a temporary name and renamed when
 * complete, so an interrupted run leaves no half file under a real name.
 */
export async function getFolder(api: Api, source: string, localDir: string, opts: TransferOptions = {}): Promise<TransferResult> {
  const result = emptyResult(!!opts.dryRun);
  const prefix = source.replace(/^\/+|(?<!\/)\/+$/g, '');
  const root = resolve(localDir);
  const remote = await remoteTree(api, prefix);
  const rel = (p: string) => (prefix ? p.slice(prefix.length + 1) : p);
  /** Where a server path lands locally; null when it would fall outside the folder asked for. */
  const localOf = (p: string): string | null => {
    const target = resolve(root, ...rel(p).split('/'));
    // Server paths never contain "..", but a local path is only written inside the folder asked for.
    return target.startsWith(root + sep) ? target : null;
  };
  const wanted = new Set<string>();
  for (const [path, f] of remote.files) {
    const target = localOf(path);
    if (!target) {
      result.failed.push({ path, code: 'path_invalid', message: 'would be written outside the target folder' });
      continue;
    }
    wanted.add(target);
    const tmp = `${target}.stoa-part`;
    try {
      const st = lstatSafe(target);
      if (st?.isFile() && st.size === f.size && (await sha256Of(target)) === f.sha256) {
        result.skipped.push(path);
        continue;
      }
      if (opts.dryRun) {
        result.files.push({ path, size: f.size, version: f.version });
        continue;
      }
      await mkdir(resolve(target, '..'), { recursive: true });
      const d = await api.download(path);
      await pipeline(d.stream, createWriteStream(tmp));
      await rename(tmp, target);
      result.files.push({ path, size: f.size, version: f.version });
      opts.onFile?.(path, f.size);
    } catch (e) {
      await unlink(tmp).catch(() => undefined);
      result.failed.push(failureOf(path, e));
    }
  }
  const wantedFolders = new Set<string>();
  for (const w of wanted) for (let d = resolve(w, '..'); d.startsWith(root + sep); d = resolve(d, '..')) wantedFolders.add(d);
  for (const folder of [...remote.emptyFolders].sort()) {
    const target = localOf(folder);
    if (!target) continue;
    for (let d = target; d.startsWith(root + sep); d = resolve(d, '..')) wantedFolders.add(d);
    if (lstatSafe(target)?.isDirectory()) continue;
    try {
      if (!opts.dryRun) await mkdir(target, { recursive: true });
      result.folders.push(folder);
    } catch (e) {
      result.failed.push(failureOf(folder, e));
    }
  }
  if (opts.delete && lstatSafe(root)?.isDirectory()) {
    const here = walk(root);
    for (const f of here.files) {
      if (wanted.has(f)) continue;
      try {
        if (!opts.dryRun) await unlink(f);
        result.deleted.push(relative(root, f).split(sep).join('/'));
      } catch (e) {
        result.failed.push(failureOf(f, e));
      }
    }
    for (const d of [...here.folders].sort().reverse()) {
      if (wantedFolders.has(d)) continue;
      try {
        if (!opts.dryRun) await rmdir(d);
        result.deleted.push(`${relative(root, d).split(sep).join('/')}/`);
      } catch (e) {
        result.failed.push(failureOf(d, e));
      }
    }
  }
  return finish(result);
}

function lstatSafe(p: string): ReturnType<typeof lstatSync> | null {
  try {
    return lstatSync(p);
  } catch {
    return null;
  }
}
