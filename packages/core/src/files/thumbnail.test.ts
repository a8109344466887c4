import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import type { Ctx } from '../platform.js';
import { createAgent } from '../agents/agents.js';
import { putFile } from './put-file.js';
import { thumbnailOf } from './thumbnail.js';
import { pruneThumbnails } from './thumbnail-cache.js';
import { deleteFile } from './delete-file.js';
import { sweepBlobs } from './sweeper.js';
import { listTrash } from '../trash/list-trash.js';
import { purgeFromTrash } from '../trash/purge-trash.js';

describe('thumbnails of pictures', () => {
  let t: TestPlatform;
  let editor: Ctx;

  beforeAll(async () => {
    t = await createTestPlatform('sqlite');
    editor = await t.userCtx('eve', 'editor');
  });
  afterAll(() => t.cleanup());

  it('are at most 256 px a side, made once per content and shared by copies', async () => {
    const png = await sharp({ create: { width: 800, height: 400, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    await putFile(editor, { path: 'photos/wide.png', source: png });
    const first = await thumbnailOf(editor, { path: 'photos/wide.png' });
    const meta = await sharp(first.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 256, 128]);
    const cached = join(t.platform.config.dataDir, 'cache', 'thumbnails', `${first.sha256}-256.webp`);
    expect(existsSync(cached)).toBe(true);
    await putFile(editor, { path: 'elsewhere/copy.png', source: png });
    expect((await thumbnailOf(editor, { path: 'elsewhere/copy.png' })).bytes.equals(first.bytes)).toBe(true);
  });

  it('refuses what is not a picture, a damaged one, and a decompression bomb, before decoding it whole', async () => {
    await putFile(editor, { path: 'notes.txt', source: 'hello' });
    await expect(thumbnailOf(editor, { path: 'notes.txt' })).rejects.toMatchObject({ code: 'preview_unavailable' });
    await putFile(editor, { path: 'broken.png', source: Buffer.from('\x89PNG\r\n\x1a\nnot really') });
    await expect(thumbnailOf(editor, { path: 'broken.png' })).rejects.toMatchObject({ code: 'preview_unavailable' });
    // 9,000 × 5,000 of one colour: a small file that would be 135 MB of pixels once decoded.
    const bomb = await sharp({ create: { width: 9000, height: 5000, channels: 3, background: '#000' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(1024 * 1024);
    await putFile(editor, { path: 'bomb.png', source: bomb });
    await expect(thumbnailOf(editor, { path: 'bomb.png' })).rejects.toMatchObject({ code: 'preview_unavailable' });
  });

  it('are only for who may read the file', async () => {
    const a = await createAgent(await t.admin(), { name: 'Own', files: 'on', read: 'own' });
    await expect(thumbnailOf(await t.agentCtx(a.id), { path: 'photos/wide.png' })).rejects.toMatchObject({ code: 'forbidden' });
  });

  it('leave the cache once their picture is gone for good, and the least used go first over the cap', async () => {
    const dir = join(t.platform.config.dataDir, 'cache', 'thumbnails');
    const picture = (background: string) =>
      sharp({ create: { width: 300, height: 300, channels: 3, background } })
        .png()
        .toBuffer();
    await putFile(editor, { path: 'gone.png', source: await picture('#aa0000') });
    const gone = await thumbnailOf(editor, { path: 'gone.png' });
    await deleteFile(editor, { path: 'gone.png' });
    // In the trash the picture can come back: its thumbnail stays.
    await pruneThumbnails(t.platform);
    expect(existsSync(join(dir, `${gone.sha256}-256.webp`))).toBe(true);
    const admin = await t.admin();
    const entry = (await listTrash(admin)).items.find((i) => i.path === 'gone.png')!;
    await purgeFromTrash(admin, { id: entry.id });
    await sweepBlobs(t.platform, { graceMs: 0 });
    await pruneThumbnails(t.platform);
    expect(existsSync(join(dir, `${gone.sha256}-256.webp`))).toBe(false);

    await putFile(editor, { path: 'old.png', source: await picture('#00aa00') });
    await putFile(editor, { path: 'new.png', source: await picture('#0000aa') });
    const old = await thumbnailOf(editor, { path: 'old.png' });
    await new Promise((r) => setTimeout(r, 20));
    const recent = await thumbnailOf(editor, { path: 'new.png' });
    const before = readdirSync(dir).length;
    await pruneThumbnails(t.platform, { maxBytes: recent.bytes.length });
    expect(readdirSync(dir).length).toBeLessThan(before);
    expect(existsSync(join(dir, `${old.sha256}-256.webp`))).toBe(false);
    expect(existsSync(join(dir, `${recent.sha256}-256.webp`))).toBe(true);
    // A pruned thumbnail is made again on demand.
    expect((await thumbnailOf(editor, { path: 'old.png' })).bytes.equals(old.bytes)).toBe(true);
  });
});
