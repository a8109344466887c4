import type { Command } from 'commander';
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { mkdtemp, rename, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { StoaError } from '@stoa/contract/errors';
import { formatBytes } from '@stoa/contract/format';
import { routeIndex } from '@stoa/contract/route-index';
import type { Api } from '../api.js';
import { action, type GlobalOptions } from '../context.js';
import { print, table, UsageError } from '../output.js';
import { progressBar } from '../progress.js';
import { resumeKeyOf } from '../upload-resume.js';
import { getFolder, putFolder, type TransferResult } from './folder-transfer.js';
import { textArg } from '../text-arg.js';

/** Copies stdin into a file in a new temporary folder and returns its path. */
async function spoolStdin(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'stoa-stdin-'));
  const file = join(dir, 'stdin');
  await pipeline(process.stdin, createWriteStream(file));
  return file;
}

/** The §7 JSON shape of a file: path, size, type, modified, createdBy (more fields are welcome). */
function fileJson(f: { path: string; size: number; type: string; modified: string; createdBy: string; version?: number; [k: string]: unknown }) {
  return {
    path: f.path,
    size: f.size,
    type: f.type,
    modified: f.modified,
    createdBy: f.createdBy,
    version: f.version,
    id: f.id,
    sha256: f.sha256,
    permissions: f.permissions,
  };
}

function fileRows(files: Array<{ path: string; size: number; type: string; modified: string; createdBy: string }>): string {
  if (files.length === 0) return '(no files)';
  return table([['PATH', 'SIZE', 'TYPE', 'MODIFIED', 'CREATED BY'], ...files.map((f) => [f.path, formatBytes(f.size), f.type, f.modified, f.createdBy])]);
}

function parseVersion(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`VERSION must be a positive integer, got "${v}"`);
  return n;
}

function isLocalFolder(local: string): boolean {
  try {
    return statSync(local).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Prints what a folder transfer did; files that failed are listed on stderr and make the exit code 1, after every
 * other file was transferred.
 */
function reportTransfer(json: boolean, r: TransferResult, verb: 'sent' | 'received'): void {
  print(json, r, () => {
    const would = r.dryRun ? 'would be ' : '';
    const n = r.summary;
    const head =
      `${r.dryRun ? 'Dry run: ' : ''}${n.sent} files ${would}${verb}, ${n.skipped} unchanged (skipped), ${n.folders} empty folders ${would}created` +
      (r.deleted.length ? `, ${n.deleted} ${would}deleted` : '') +
      `, ${n.failed} failed`;
    return [head, ...r.files.map((f) => `  ${verb === 'sent' ? '>' : '<'} ${f.path}`), ...r.deleted.map((p) => `  - ${p}`)].join('\n');
  });
  if (r.failed.length > 0) {
    if (!json) for (const f of r.failed) process.stderr.write(`error ${f.code}: ${f.path}: ${f.message}\n`);
    process.exitCode = 1;
  }
}

/** True when PATH names a folder rather than a file (the two have their own operations). */
async function isFolder(api: Api, path: string): Promise<boolean> {
  try {
    await api.call(routeIndex.files.stat, { project: api.project, path });
    return false;
  } catch (e) {
    if (!(e instanceof StoaError) || e.code !== 'not_found') throw e;
  }
  try {
    await api.call(routeIndex.files.statFolder, { project: api.project, path });
    return true;
  } catch (e) {
    if (e instanceof StoaError && e.code === 'not_found') return false;
    throw e;
  }
}

export function registerFiles(program: Command): void {
  const files = program.command('files').description('The project file storage');

  files
    .command('ls [prefix]')
    .description('List files under a folder (recursively)')
    .action(
      action(async (api, g, prefix?: string) => {
        const all: Array<Parameters<typeof fileJson>[0]> = [];
        let cursor: string | null | undefined;
        do {
          const page = await api.call(routeIndex.files.list, { project: api.project, prefix: prefix ?? '', cursor: cursor ?? undefined, limit: 5000 });
          all.push(...page.files);
          cursor = page.nextCursor;
        } while (cursor);
        print(!!g.json, all.map(fileJson), () => fileRows(all));
      }),
    );

  files
    .command('find <text>')
    .description('Find files whose name contains TEXT (case-insensitive, whole storage)')
    .action(
      action(async (api, g, text: string) => {
        const r = await api.call(routeIndex.files.find, { project: api.project, q: await textArg(text) });
        print(!!g.json, r.files.map(fileJson), () => fileRows(r.files));
      }),
    );

  files
    .command('stat <path>')
    .description('Metadata of one file')
    .action(
      action(async (api, g, path: string) => {
        const f = await api.call(routeIndex.files.stat, { project: api.project, path });
        print(!!g.json, { ...fileJson(f), version: f.version, created: f.created, creator: f.creator }, () =>
          table([
            ['path', f.path],
            ['size', `${f.size} (${formatBytes(f.size)})`],
            ['type', f.type],
            ['modified', f.modified],
            // The list's "Created by" column stays empty for people (F6); stat names whoever wrote it, a person too.
            ['created by', f.createdBy || (f.creator.label ? `${f.creator.label} (${f.creator.kind === 'user' ? 'person' : f.creator.kind})` : '—')],
            ['version', String(f.version)],
            ['sha256', f.sha256],
          ]),
        );
      }),
    );

  files
    .command('get <path> [local]')
    .description('Download a file to LOCAL (default: its name here), or "-" for stdout; with -r a whole folder into LOCAL')
    .option('-r, --recursive', 'download every file below the folder PATH ("/" for all), keeping the layout; unchanged files are skipped')
    .option('--dry-run', 'with -r: only say what would be downloaded, created or deleted')
    .option('--delete', 'with -r: mirror — delete local files and folders below LOCAL that PATH does not have')
    .action(
      action(async (api, g, path: string, local: string | undefined, opts: { recursive?: boolean; dryRun?: boolean; delete?: boolean }) => {
        if ((opts.dryRun || opts.delete) && !opts.recursive) throw new UsageError('--dry-run and --delete go with -r');
        if (opts.recursive) {
          if (local === '-') throw new UsageError('a folder cannot be written to stdout');
          const dir =
            local ??
            (path
              .replace(/(?<!\/)\/+$/, '')
              .split('/')
              .pop() ||
              '.');
          const r = await getFolder(api, path, dir, {
            dryRun: opts.dryRun,
            delete: opts.delete,
            onFile: (p, size) => !g.json && process.stderr.isTTY && process.stderr.write(`got ${p} (${formatBytes(size)})\n`),
          });
          return reportTransfer(!!g.json, r, 'received');
        }
        const d = await api.download(path);
        if (local === '-') {
          await pipeline(d.stream, process.stdout);
          return;
        }
        const target = local ?? d.name;
        const tmp = `${target}.stoa-part`;
        const bar = progressBar(`get ${d.name}`, d.size);
        let done = 0;
        const meter = new Transform({
          transform(c, _e, cb) {
            bar.update((done += c.length));
            cb(null, c);
          },
        });
        try {
          await pipeline(d.stream, meter, createWriteStream(tmp));
          await rename(tmp, target);
        } catch (e) {
          await unlink(tmp).catch(() => undefined);
          throw e;
        }
        bar.finish();
        print(!!g.json, { path, local: target, size: done }, () => `Saved ${path} to ${target} (${formatBytes(done)})`);
      }),
    );

  files
    .command('put <local> <path>')
    .description('Upload LOCAL (or "-" for stdin) to PATH (creates folders; a file already there gets a new version); with -r a whole folder')
    .option('--base <version>', 'fail with version_conflict unless the file is at this version')
    .option('-r, --recursive', 'upload the folder LOCAL and everything in it to the folder PATH, keeping the layout; unchanged files are skipped')
    .option('--dry-run', 'with -r: only say what would be uploaded, created or deleted')
    .option('--delete', 'with -r: mirror — delete files and folders below PATH that LOCAL does not have')
    .action(
      action(async (api, g, localArg: string, path: string, opts: { base?: string; recursive?: boolean; dryRun?: boolean; delete?: boolean }) => {
        if ((opts.dryRun || opts.delete) && !opts.recursive) throw new UsageError('--dry-run and --delete go with -r');
        const isDir = localArg !== '-' && isLocalFolder(localArg);
        if (isDir && !opts.recursive) throw new UsageError(`"${localArg}" is a folder: add -r to upload it and everything in it`);
        if (opts.recursive) {
          if (!isDir) throw new UsageError(`-r needs a local folder, and "${localArg}" is not one`);
          const r = await putFolder(api, localArg, path, {
            dryRun: opts.dryRun,
            delete: opts.delete,
            onFile: (p, size) => !g.json && process.stderr.isTTY && process.stderr.write(`put ${p} (${formatBytes(size)})\n`),
          });
          return reportTransfer(!!g.json, r, 'sent');
        }
        // stdin has no size to announce: spool it to a temporary file first (bounded memory at any size).
        const spooled = localArg === '-' ? await spoolStdin() : null;
        try {
          await putLocal(api, g, spooled ?? localArg, path, opts);
        } finally {
          if (spooled) await rm(dirname(spooled), { recursive: true, force: true });
        }
      }),
    );

  async function putLocal(api: Api, g: GlobalOptions, local: string, path: string, opts: { base?: string }): Promise<void> {
    let size: number;
    try {
      const st = statSync(local);
      if (!st.isFile()) throw new Error();
      size = st.size;
    } catch {
      throw new StoaError('not_found', `local file "${local}" does not exist or is not a file`);
    }
    const bar = progressBar(`put ${path}`, size);
    const r = (await api.upload(path, (range) => createReadStream(local, range), size, {
      expectedVersion: opts.base !== undefined ? Number(opts.base) : undefined,
      onProgress: (n) => bar.update(n),
      resumeKey: resumeKeyOf(local),
    })) as any;
    bar.finish();
    const f = r.file ?? r;
    print(!!g.json, fileJson(f), () => `Uploaded ${f.path} (${formatBytes(f.size)}, version ${f.version})`);
  }

  files
    .command('mkdir <path>')
    .description('Create a folder (and missing parents); it exists while empty')
    .action(
      action(async (api, g, path: string) => {
        const d = await api.call(routeIndex.files.createFolder, { project: api.project, path });
        print(!!g.json, d, () => `Created folder ${d.path}`);
      }),
    );

  files
    .command('mv <from> <to>')
    .description('Rename or move a file or a whole folder (TO ending in "/" keeps the name); never overwrites')
    .action(
      action(async (api, g, from: string, to: string) => {
        if (await isFolder(api, from)) {
          const d = await api.call(routeIndex.files.moveFolder, { project: api.project, from, to });
          return print(!!g.json, d, () => `Moved folder ${from} → ${d.path} (${d.fileCount} files)`);
        }
        const f = await api.call(routeIndex.files.move, { project: api.project, from, to });
        print(!!g.json, fileJson(f), () => `Moved ${from} → ${f.path}`);
      }),
    );

  files
    .command('rm <path>')
    .description('Delete a file with its versions to the trash (`stoa trash`); -r deletes a folder with everything in it')
    .option('-r, --recursive', 'delete a folder and every file below it')
    .action(
      action(async (api, g, path: string, opts: { recursive?: boolean }) => {
        if (await isFolder(api, path)) {
          const r = await api.call(routeIndex.files.deleteFolder, { project: api.project, path, recursive: opts.recursive ? 'true' : 'false' });
          return print(!!g.json, r, () => `Deleted folder ${r.path} (${r.files} files, ${formatBytes(r.bytes)})${r.files > 0 ? '; it is in the trash' : ''}`);
        }
        const f = await api.call(routeIndex.files.remove, { project: api.project, path });
        print(!!g.json, fileJson(f), () => `Deleted ${f.path}; it is in the trash (stoa trash list)`);
      }),
    );

  files
    .command('usage')
    .description('Storage used and quota')
    .action(
      action(async (api, g) => {
        const u = await api.call(routeIndex.files.usage, { project: api.project });
        print(!!g.json, { used: u.used, quota: u.quota, reserved: u.reserved, files: u.files }, () => u.text);
      }),
    );

  files
    .command('versions <path>')
    .description('Versions of a file, newest first')
    .action(
      action(async (api, g, path: string) => {
        const vs = await api.call(routeIndex.files.versions, { project: api.project, path });
        print(
          !!g.json,
          vs.map((v) => ({ version: v.version, size: v.size, modified: v.modified, author: v.author, sha256: v.sha256, current: v.current })),
          () =>
            table([
              ['VERSION', 'SIZE', 'MODIFIED', 'AUTHOR'],
              ...vs.map((v) => [String(v.version) + (v.current ? ' (current)' : ''), formatBytes(v.size), v.modified, v.author]),
            ]),
        );
      }),
    );

  files
    .command('restore <path> <version>')
    .description('Restore an earlier version (saved as a new version)')
    .action(
      action(async (api, g, path: string, version: string) => {
        const f = await api.call(routeIndex.files.restore, { project: api.project, path, version: parseVersion(version) });
        print(!!g.json, fileJson(f), () => `Restored ${path} to version ${version} (now version ${f.version})`);
      }),
    );
}
