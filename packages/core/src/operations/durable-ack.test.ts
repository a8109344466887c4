import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb, type WalSync } from '@stoa/db';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import { createAgent } from '../agents/agents.js';
import { createConversation } from '../conversations/conversations.js';
import { runOperation } from './run-operation.js';

/**
 * A power cut, simulated: the disk holds what the last *completed* sync of the WAL covered. Each sync first
 * copies the database file and its WAL as they are when the sync begins (nothing else runs on the event loop
 * meanwhile, so the copy is consistent), then syncs; once it returned, that copy is what survives a power cut.
 */
function powerCutDisk() {
  const dir = mkdtempSync(join(tmpdir(), 'stoa-power-cut-'));
  const survivors: string[] = [];
  let syncs = 0;
  const syncWal: WalSync = async (fh, walPath) => {
    const copy = join(dir, `at-sync-${++syncs}`);
    mkdirSync(copy);
    const dbFile = walPath.replace(/-wal$/, '');
    copyFileSync(dbFile, join(copy, 'stoa.db'));
    copyFileSync(walPath, join(copy, 'stoa.db-wal'));
    await fh.datasync();
    survivors.push(join(copy, 'stoa.db'));
  };
  return {
    syncWal,
    syncs: () => syncs,
    /** Opens what a power cut now would leave on disk (SQLite recovers the copied WAL's committed frames). */
    async afterPowerCut() {
      const file = survivors.at(-1);
      if (!file) throw new Error('nothing was ever synced');
      const work = join(dir, `opened-${survivors.length}-${Math.random().toString(36).slice(2)}`);
      mkdirSync(work);
      copyFileSync(file, join(work, 'stoa.db'));
      copyFileSync(`${file}-wal`, join(work, 'stoa.db-wal'));
      return openDb({ kind: 'sqlite', file: join(work, 'stoa.db') });
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

describe('an acknowledged change is durable (decision 0022)', () => {
  let t: TestPlatform | undefined;
  let disk: ReturnType<typeof powerCutDisk> | undefined;
  afterEach(async () => {
    await t?.cleanup();
    disk?.cleanup();
  });

  it("answers a person's upload, an agent's memory append, wiki page and file write only once a sync that began after the commit returned", async () => {
    disk = powerCutDisk();
    t = await createTestPlatform('sqlite', {}, { syncWal: disk.syncWal });
    const admin = await t.admin();
    const a = await createAgent(admin, { name: 'Scribe', files: 'on', write: 'project', read: 'project' });
    const conv = await createConversation(admin, { members: [a.id] });
    const agent = await t.agentCtx(a.id, conv.id);

    const up = (await runOperation(admin, 'files.upload', { path: 'notes/plan.md', source: Readable.from(['step one\n']) })) as { file: { version: number } };
    let db = await disk.afterPowerCut();
    expect(await db.kysely.selectFrom('files').select(['version', 'size']).where('path', '=', 'notes/plan.md').executeTakeFirst()).toEqual({
      version: up.file.version,
      size: 9,
    });
    await db.close();

    const append = (await runOperation(agent, 'tools.call', { name: 'memory_append', arguments: { file: 'MEMORY.md', text: 'the sky is green here' } })) as {
      refused: boolean;
    };
    expect(append.refused).toBe(false);
    db = await disk.afterPowerCut();
    const memory = await db.kysely.selectFrom('memory_versions').select('content').execute();
    expect(memory.map((m) => m.content).join('\n')).toContain('the sky is green here');
    await db.close();

    const page = (await runOperation(agent, 'tools.call', { name: 'wiki_put', arguments: { path: 'handbook/sky', text: '# Sky\nGreen.\n' } })) as {
      refused: boolean;
    };
    expect(page.refused).toBe(false);
    db = await disk.afterPowerCut();
    expect((await db.kysely.selectFrom('wiki_pages').select('body').where('path', '=', 'handbook/sky').executeTakeFirst())?.body).toContain('Green.');
    await db.close();

    const written = (await runOperation(agent, 'tools.call', { name: 'ws_write_file', arguments: { path: 'notes/plan.md', content: 'step two\n' } })) as {
      refused: boolean;
      version: number;
    };
    expect(written.refused).toBe(false);
    db = await disk.afterPowerCut();
    expect((await db.kysely.selectFrom('files').select('version').where('path', '=', 'notes/plan.md').executeTakeFirst())?.version).toBe(written.version);
    // The agent's change is in its conversation's trace on disk too (the trace is written before the answer).
    expect((await db.kysely.selectFrom('tool_calls').select('tool').where('tool', '=', 'ws_write_file').execute()).length).toBe(1);
    await db.close();
  });

  it('answers reads without a sync: a stat, a listing, a file read and a read tool', async () => {
    disk = powerCutDisk();
    t = await createTestPlatform('sqlite', {}, { syncWal: disk.syncWal });
    const admin = await t.admin();
    await runOperation(admin, 'files.upload', { path: 'a.md', source: Readable.from(['x']) });
    const a = await createAgent(admin, { name: 'Reader', files: 'on', read: 'project' });
    const conv = await createConversation(admin, { members: [a.id] });
    const agent = await t.agentCtx(a.id, conv.id);
    const before = disk.syncs();
    await runOperation(admin, 'files.stat', { path: 'a.md' });
    await runOperation(admin, 'files.list', {});
    const read = (await runOperation(agent, 'tools.call', { name: 'ws_read_file', arguments: { path: 'a.md' } })) as { refused: boolean };
    expect(read.refused).toBe(false);
    expect(disk.syncs()).toBe(before);
    // …while a change waits for one.
    await runOperation(admin, 'folders.create', { path: 'new-folder' });
    expect(disk.syncs()).toBe(before + 1);
  });
});
