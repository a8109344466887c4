import { describe, expect, it } from 'vitest';
import { jobsFor, pickedFromDrop, pickedFromInput, type DropItem } from './dropped-tree.js';

// A fake of the File and Directory Entries API as Chromium behaves: readEntries answers in batches of at most
// `batch` entries, then an empty batch.
type Node = File | { name: string; children: Node[] };
function entry(node: Node, batch = 2): unknown {
  if (node instanceof File) return { isFile: true, isDirectory: false, name: node.name, file: (ok: (f: File) => void) => ok(node) };
  return {
    isFile: false,
    isDirectory: true,
    name: node.name,
    createReader: () => {
      let at = 0;
      return {
        readEntries: (ok: (e: unknown[]) => void) => {
          const part = node.children.slice(at, at + batch).map((c) => entry(c, batch));
          at += batch;
          setTimeout(() => ok(part), 0);
        },
      };
    },
  };
}
const item = (node: Node): DropItem => ({
  kind: 'file',
  webkitGetAsEntry: () => entry(node) as ReturnType<DropItem['webkitGetAsEntry']>,
  getAsFile: () => (node instanceof File ? node : null),
});
const f = (name: string) => new File(['x'], name);

describe('pickedFromDrop', () => {
  it('walks dropped folders whole (past the first batch of entries), keeping relative paths, beside loose files', async () => {
    const tree = {
      name: 'photos',
      children: [f('a.jpg'), f('b.jpg'), f('c.jpg'), { name: '2026', children: [f('d.jpg'), { name: 'empty', children: [] }] }],
    };
    const picked = await pickedFromDrop([item(f('loose.txt')), item(tree), { kind: 'string', webkitGetAsEntry: () => null, getAsFile: () => null }]);
    expect(picked.files.map((p) => `${p.dir}|${p.file.name}`)).toEqual(['|loose.txt', 'photos|a.jpg', 'photos|b.jpg', 'photos|c.jpg', 'photos/2026|d.jpg']);
    expect(picked.emptyFolders).toEqual(['photos/2026/empty']);
  });

  it('creates a dropped empty folder itself', async () => {
    expect(await pickedFromDrop([item({ name: 'nothing', children: [] })])).toEqual({ files: [], emptyFolders: ['nothing'] });
  });

  it('takes a plain file when the browser gives no entry', async () => {
    const file = f('x.bin');
    const picked = await pickedFromDrop([{ kind: 'file', webkitGetAsEntry: () => null, getAsFile: () => file }]);
    expect(picked.files).toEqual([{ dir: '', file }]);
  });
});

describe('pickedFromInput', () => {
  it('keeps the folder of each file from webkitRelativePath', () => {
    const deep = f('d.jpg');
    Object.defineProperty(deep, 'webkitRelativePath', { value: 'photos/2026/d.jpg' });
    const plain = f('a.txt');
    expect(pickedFromInput([deep, plain]).files.map((p) => p.dir)).toEqual(['photos/2026', '']);
  });
});

describe('jobsFor', () => {
  it('puts each file under the open folder at its relative path, and makes the empty folders, also at the top', () => {
    const a = f('a.txt');
    const b = f('b.txt');
    const picked = {
      files: [
        { dir: '', file: a },
        { dir: 'photos/2026', file: b },
      ],
      emptyFolders: ['photos/empty', 'nothing'],
    };
    expect(jobsFor('p', 'inbox', picked)).toEqual([
      { kind: 'folder', project: 'p', folder: 'inbox/photos', name: 'empty' },
      { kind: 'folder', project: 'p', folder: 'inbox', name: 'nothing' },
      { kind: 'file', project: 'p', folder: 'inbox', file: a },
      { kind: 'file', project: 'p', folder: 'inbox/photos/2026', file: b },
    ]);
    expect(jobsFor('p', '', picked).map((j) => j.folder)).toEqual(['photos', '', '', 'photos/2026']);
  });
});
