import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextFor, listFilesRecursive, openVolume, type Principal } from '@stoa/core/testing';
import { fileRow, hasChromium, startUiServer, uploadViaUi, type UiServer } from './browser-helpers.js';

// A person's own files in the web UI (R1): picked beside the projects, holding files only, and nobody else's.
describe.skipIf(!hasChromium)('web UI: my files', () => {
  let s: UiServer;

  beforeAll(async () => {
    s = await startUiServer();
  });
  afterAll(async () => s?.close());

  it('uploads into my own volume, which the project and another person never show', async () => {
    const amy = await s.t.userCtx('amy', 'editor');
    const { context, page } = await s.signedIn({ as: amy });
    await page.getByRole('combobox', { name: 'Project' }).selectOption({ label: 'My files' });
    // A volume holds files: no wiki, memory, agents or members there.
    await page.getByRole('link', { name: 'Wiki' }).waitFor({ state: 'detached' });
    expect(await page.getByRole('link', { name: 'Members' }).count()).toBe(0);
    await uploadViaUi(page, [{ name: 'secret-plan.txt', body: 'only mine', type: 'text/plain' }]);
    await fileRow(page, 'secret-plan.txt').waitFor();
    // It stays picked after a reload.
    await page.reload();
    await fileRow(page, 'secret-plan.txt').waitFor();

    const amyPrincipal: Principal = { kind: 'user', userId: amy.actor.kind === 'user' ? amy.actor.userId : '', name: 'amy', superuser: false };
    const mine = await openVolume(s.t.platform, amyPrincipal, { catalog: 'users' });
    const inVolume = await listFilesRecursive(await contextFor(s.t.platform, amyPrincipal, { project: mine.volumeId }), {});
    expect(inVolume.files.map((f) => f.path)).toEqual(['secret-plan.txt']);
    expect((await listFilesRecursive(await s.t.admin(), {})).files.map((f) => f.path)).not.toContain('secret-plan.txt');

    // Back in the project: its files, not mine.
    await page.getByRole('combobox', { name: 'Project' }).selectOption({ label: 'default' });
    await page.getByRole('link', { name: 'Wiki' }).waitFor();
    expect(await fileRow(page, 'secret-plan.txt').count()).toBe(0);
    await context.close();

    // Another person's "My files" is their own, empty.
    const bob = await s.t.userCtx('bob', 'editor');
    const other = await s.signedIn({ as: bob });
    await other.page.getByRole('combobox', { name: 'Project' }).selectOption({ label: 'My files' });
    await other.page.getByRole('link', { name: 'Wiki' }).waitFor({ state: 'detached' });
    expect(await fileRow(other.page, 'secret-plan.txt').count()).toBe(0);
    await other.context.close();
  });
});
