import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '@stoa/db/testing';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import { createAgent } from '../agents/agents.js';
import { createConversation } from '../conversations/conversations.js';
import { putFile } from '../files/put-file.js';
import { findFileRow } from '../files/read-file.js';
import { listFilesRecursive } from '../files/list-files.js';
import { deleteFile } from '../files/delete-file.js';
import type { Ctx } from '../platform.js';
import { callTool } from '../operations/tool-ops.js';

/**
 * A2, row for row: every setting × list/read/write/append/delete × own folder / another agent's folder /
 * a user's file / a file at the storage root. A cell is "yes" when the operation really took effect on that file
 * (listed, read, changed, deleted) — not merely when the tool answered without "Refused:" — so a write that lands
 * somewhere else (own-folder mode nests a path under agents/<ID>/) counts as "no" for the target.
 */
type Op = 'list' | 'read' | 'write' | 'append' | 'delete';
type Target = 'own' | 'other' | 'user' | 'root';
type Cells = Record<Op, Record<Target, boolean>>;
const all = (v: boolean) => ({ own: v, other: v, user: v, root: v });
const ownOnly = { own: true, other: false, user: false, root: false };

const rows: Array<{ write: 'own' | 'project'; read: 'project' | 'own'; cells: Cells }> = [
  { write: 'own', read: 'project', cells: { list: all(true), read: all(true), write: ownOnly, append: ownOnly, delete: ownOnly } },
  { write: 'own', read: 'own', cells: { list: ownOnly, read: ownOnly, write: ownOnly, append: ownOnly, delete: ownOnly } },
  { write: 'project', read: 'project', cells: { list: all(true), read: all(true), write: all(true), append: all(true), delete: all(false) } },
  { write: 'project', read: 'own', cells: { list: ownOnly, read: ownOnly, write: ownOnly, append: ownOnly, delete: ownOnly } },
];

describe.each(testDbKinds())('A2 effective rights matrix (%s)', (kind) => {
  for (const row of rows) {
    describe(`writes ${row.write}, reads ${row.read}`, () => {
      let t: TestPlatform;
      let admin: Ctx;
      let agent: Ctx;
      let targets: Record<Target, string>;
      beforeAll(async () => {
        t = await createTestPlatform(kind, { agentWritesPerConversation: 10_000 });
        admin = await t.admin();
        const a = await createAgent(admin, { name: 'Tester', files: 'on', write: row.write, read: row.read });
        const b = await createAgent(admin, { name: 'Other', files: 'on' });
        const conv = await createConversation(admin, { members: [a.id] });
        agent = await t.agentCtx(a.id, conv.id);
        targets = { own: `agents/${a.id}/own.md`, other: `agents/${b.id}/theirs.md`, user: 'docs/user.md', root: 'root.md' };
      });
      afterAll(async () => t.cleanup());

      // Each cell starts from the same four files and nothing else (earlier cells may have written elsewhere).
      async function seed(): Promise<void> {
        const keep = new Set(Object.values(targets));
        for (const f of (await listFilesRecursive(admin, {})).files) if (!keep.has(f.path)) await deleteFile(admin, { path: f.path });
        for (const p of keep) await putFile(admin, { path: p, source: 'original' });
      }
      async function content(path: string): Promise<string | null> {
        const r = await findFileRow(admin, path);
        return r ? (await t.platform.blobs.read(r.blob_key)).toString('utf8') : null;
      }

      const ops: Op[] = ['list', 'read', 'write', 'append', 'delete'];
      // The same cells through the seed-002 tools (list_files, read_file, full_file_rewrite, str_replace, delete_file).
      const cases = (['ws', 'edit'] as const).flatMap((family) =>
        ops.flatMap((op) => (['own', 'other', 'user', 'root'] as Target[]).map((target) => ({ family, op, target, allowed: row.cells[op][target] }))),
      );
      it.each(cases)('$family $op $target → $allowed', async ({ family, op, target, allowed }) => {
        await seed();
        const path = targets[target];
        let took: boolean;
        if (family === 'edit') {
          took = await viaEditTools(op, path, allowed);
        } else if (op === 'list') {
          const r = await callTool(agent, 'ws_list_files', {});
          took = r.text.split('\n').some((l) => l.startsWith(path + '\t'));
        } else if (op === 'read') {
          const r = await callTool(agent, 'ws_read_file', { path });
          took = r.text === 'original';
          if (!allowed) expect(r.text).toMatch(/^Refused: /);
        } else if (op === 'write' || op === 'append') {
          const r = await callTool(agent, 'ws_write_file', {
            path,
            content: op === 'write' ? 'changed' : '+more',
            mode: op === 'write' ? 'overwrite' : 'append',
          });
          took = (await content(path)) === (op === 'write' ? 'changed' : 'original+more');
          // Whatever happened, the answer names the root path it wrote to, inside the agent's write scope.
          if (!r.refused)
            expect(r.text).toMatch(
              row.write === 'project' && row.read === 'project'
                ? /^(Created|Overwrote|Appended)/
                : new RegExp(`agents/${agent.actor.kind === 'agent' ? agent.actor.agentId : ''}/`),
            );
        } else {
          const r = await callTool(agent, 'ws_delete_file', { path });
          took = (await content(path)) === null;
          if (!allowed) expect(r.text).toMatch(/^Refused: /);
        }
        expect(took).toBe(allowed);
      });

      async function viaEditTools(op: Op, path: string, allowed: boolean): Promise<boolean> {
        if (op === 'list') return JSON.parse((await callTool(agent, 'list_files', {})).text).files.some((f: { filePath: string }) => f.filePath === path);
        if (op === 'read') {
          const r = await callTool(agent, 'read_file', { file_path: path });
          if (!allowed) expect(r.text).toMatch(/^Refused: /);
          return r.text.endsWith('of 1]\noriginal');
        }
        if (op === 'write') {
          await callTool(agent, 'full_file_rewrite', { file_path: path, file_contents: 'changed' });
          return (await content(path)) === 'changed';
        }
        if (op === 'append') {
          await callTool(agent, 'str_replace', { file_path: path, old_str: 'original', new_str: 'original+more' });
          return (await content(path)) === 'original+more';
        }
        const r = await callTool(agent, 'delete_file', { file_path: path });
        if (!allowed) expect(r.text).toMatch(/^Refused: /);
        return (await content(path)) === null;
      }
    });
  }
});
