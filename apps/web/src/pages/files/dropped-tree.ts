import type { UploadJob } from './upload-queue-model.js';

/** A file picked or dropped, with the folder it sits in relative to what was picked ('' for the top). */
interface PickedFile {
  dir: string;
  file: File;
}

/** What a drop or a folder pick holds: its files, and the folders with nothing in them (created as folders). */
interface Picked {
  files: PickedFile[];
  emptyFolders: string[];
}

// The parts of the File and Directory Entries API used here (a test builds a fake tree of these).
interface Entry {
  readonly isFile: boolean;
  readonly isDirectory: boolean;
  readonly name: string;
}
interface FileEntry extends Entry {
  file(ok: (f: File) => void, fail?: (e: unknown) => void): void;
}
interface DirEntry extends Entry {
  createReader(): { readEntries(ok: (entries: Entry[]) => void, fail?: (e: unknown) => void): void };
}

/** One item of a drop, as DataTransferItem has it. */
export interface DropItem {
  kind: string;
  webkitGetAsEntry(): Entry | null;
  getAsFile(): File | null;
}

const join = (dir: string, name: string) => [dir, name].filter(Boolean).join('/');

async function readAll(dir: DirEntry): Promise<Entry[]> {
  const reader = dir.createReader();
  const all: Entry[] = [];
  // readEntries answers in batches (100 at a time in Chromium) and an empty batch at the end.
  for (;;) {
    const batch = await new Promise<Entry[]>((ok, fail) => reader.readEntries(ok, fail));
    if (!batch.length) return all;
    all.push(...batch);
  }
}

async function walk(entry: Entry, dir: string, out: Picked): Promise<void> {
  if (entry.isFile) {
    const file = await new Promise<File>((ok, fail) => (entry as FileEntry).file(ok, fail));
    out.files.push({ dir, file });
    return;
  }
  if (!entry.isDirectory) return;
  const path = join(dir, entry.name);
  const children = await readAll(entry as DirEntry);
  if (!children.length) out.emptyFolders.push(path);
  for (const child of children) await walk(child, path, out);
}

/**
 * The files of a drop, folders walked whole with their relative paths. Call it inside the drop handler: the
 * browser empties the DataTransfer when the handler returns, so the entries are taken before the first await.
 *
 * @example
 * const picked = await pickedFromDrop([...e.dataTransfer.items]);
 */
export async function pickedFromDrop(items: readonly DropItem[]): Promise<Picked> {
  const out: Picked = { files: [], emptyFolders: [] };
  const taken = items.filter((i) => i.kind === 'file').map((i) => ({ entry: i.webkitGetAsEntry(), file: i.getAsFile() }));
  for (const { entry, file } of taken) {
    if (entry) await walk(entry, '', out);
    else if (file) out.files.push({ dir: '', file });
  }
  return out;
}

/**
 * The files of an <input type=file webkitdirectory> pick: each keeps the folder path in webkitRelativePath
 * (browsers do not report empty folders there).
 *
 * @example
 * pickedFromInput([file]) // a file "photos/2026/a.jpg" → { dir: 'photos/2026', file }
 */
export function pickedFromInput(files: readonly File[]): Picked {
  return {
    files: files.map((file) => {
      const rel = file.webkitRelativePath || file.name;
      return { dir: rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '', file };
    }),
    emptyFolders: [],
  };
}

/**
 * The queue's jobs for what was picked into `folder`: each file into its own subfolder, and the empty folders
 * created (first, so they show while the files go).
 *
 * @example
 * jobsFor('default', 'inbox', { files: [], emptyFolders: ['photos/empty'] }) // [{ kind: 'folder', project: 'default', folder: 'inbox/photos', name: 'empty' }]
 */
export function jobsFor(project: string, folder: string, picked: Picked): UploadJob[] {
  const folders = picked.emptyFolders.map<UploadJob>((path) => {
    const cut = path.lastIndexOf('/');
    return { kind: 'folder', project, folder: join(folder, cut < 0 ? '' : path.slice(0, cut)), name: path.slice(cut + 1) };
  });
  const files = picked.files.map<UploadJob>(({ dir, file }) => ({ kind: 'file', project, folder: join(folder, dir), file }));
  return [...folders, ...files];
}
