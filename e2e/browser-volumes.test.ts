import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, contextFor, createAgent, createProjectFor, deleteAgent, localAdminPrincipal, openVolume, putFile } from '@stoa/core/testing';
import { fileRow, hasChromium, startUiServer, uploadViaUi, type UiServer } from './browser-helpers.js';

// Knowledge bases in the web UI (R1): an editor makes one and fills it, a viewer of the project reads it but
// cannot write, a person outside the project never sees it — not in the picker, not through a link to it.
describe.skipIf(!hasChromium)('web UI: knowledge bases and skill packages', () => {
  let s: UiServer;

  beforeAll(async () => {
    s = await startUiServer();
  });
  afterAll(async () => s?.close());

  it('an editor creates a knowledge base and uploads into it; a viewer reads it; an outsider never sees it', async () => {
    const picker = (page: import('playwright-core').Page) => page.getByRole('combobox', { name: 'Project' });

    // The editor: "New knowledge base…", a name, and they are in it — a volume of files, no wiki or members.
    const ed = await s.signedIn({ as: await s.t.userCtx('edna', 'editor') });
    await ed.page.getByRole('button', { name: 'New knowledge base…' }).click();
    const dialog = ed.page.getByRole('dialog', { name: 'New knowledge base or skill package in default' });
    await dialog.getByRole('radio', { name: 'Knowledge base' }).check();
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Support handbook');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await ed.page.getByRole('link', { name: 'Wiki' }).waitFor({ state: 'detached' });
    await ed.page.waitForURL(/[?&]volume=vol_/);
    expect(await picker(ed.page).locator('option:checked').innerText()).toBe('Support handbook');
    await uploadViaUi(ed.page, [{ name: 'refunds.md', body: 'Refunds within thirty days.', type: 'text/markdown' }]);
    await fileRow(ed.page, 'refunds.md').waitFor();
    // A second version, seen in the preview panel as in any project.
    await uploadViaUi(ed.page, [{ name: 'refunds.md', body: 'Refunds within thirty days, in writing.', type: 'text/markdown' }]);
    await ed.page.getByRole('dialog', { name: 'This name is taken' }).getByRole('button', { name: 'Replace (new version)' }).click();
    await fileRow(ed.page, 'refunds.md').getByRole('button', { name: 'refunds.md', exact: true }).click();
    const edPanel = ed.page.getByRole('complementary', { name: 'Preview' });
    await edPanel.locator('.preview-rendered', { hasText: 'in writing' }).waitFor();
    await edPanel.locator('tr[data-version="2"]').waitFor();
    const link = ed.page.url();
    // The link survives a reload, and the project's own files do not hold the upload.
    await ed.page.reload();
    await fileRow(ed.page, 'refunds.md').waitFor();
    await picker(ed.page).selectOption({ label: 'default' });
    await ed.page.getByRole('link', { name: 'Wiki' }).waitFor();
    expect(ed.page.url()).not.toContain('volume=');
    expect(await fileRow(ed.page, 'refunds.md').count()).toBe(0);
    await ed.context.close();

    // A viewer of the project: the knowledge base is in the picker; they read the file but cannot write there.
    const vi = await s.signedIn({ as: await s.t.userCtx('vito', 'viewer') });
    expect(await vi.page.getByRole('button', { name: 'New knowledge base…' }).count()).toBe(0);
    await picker(vi.page).selectOption({ label: 'Support handbook' });
    await fileRow(vi.page, 'refunds.md').getByRole('button', { name: 'refunds.md', exact: true }).click();
    const viPanel = vi.page.getByRole('complementary', { name: 'Preview' });
    await viPanel.locator('.preview-rendered', { hasText: 'Refunds within thirty days, in writing.' }).waitFor();
    await viPanel.locator('tr[data-version="1"]').waitFor();
    expect(await vi.page.getByRole('button', { name: 'Upload', exact: true }).isDisabled()).toBe(true);
    expect(await fileRow(vi.page, 'refunds.md').getByRole('button', { name: 'Delete refunds.md' }).isDisabled()).toBe(true);
    // The editor's link opens it for the viewer too.
    await vi.page.goto(link);
    await fileRow(vi.page, 'refunds.md').waitFor();
    await vi.context.close();

    // Someone outside the project: no such entry in their picker, and the link shows nothing of it.
    const root = await localAdminPrincipal(s.t.platform);
    await createProjectFor(s.t.platform, root, { name: 'elsewhere' });
    const outsider = await addMember(await contextFor(s.t.platform, root, { project: 'elsewhere' }), { user: 'otto', role: 'admin' });
    const ot = await s.signedIn({
      as: await contextFor(s.t.platform, { kind: 'user', userId: outsider.userId, name: 'otto', superuser: false }, { project: 'elsewhere' }),
    });
    await ot.page.getByRole('link', { name: 'Wiki' }).waitFor();
    expect(await picker(ot.page).locator('option', { hasText: 'Support handbook' }).count()).toBe(0);
    await ot.page.goto(link);
    await ot.page.getByRole('alert').filter({ hasText: 'Not found' }).waitFor();
    // …over their own project, as for a volume that does not exist.
    await ot.page.getByRole('link', { name: 'Wiki' }).waitFor();
    expect(ot.page.url()).not.toContain('volume=');
    expect(await fileRow(ot.page, 'refunds.md').count()).toBe(0);
    expect(await ot.page.getByText('Refunds within thirty days').count()).toBe(0);
    await ot.context.close();
  });

  it("a deleted agent's files stay readable for the project's admin, marked, and the admin deletes them; a knowledge base too", async () => {
    const admin = await s.t.admin();
    const agent = await createAgent(admin, { name: 'Archivist', files: 'on' });
    const projectId = admin.project.id;
    const scope = await openVolume(s.t.platform, { kind: 'agent', agentId: agent.id, projectId }, { catalog: 'xperts' });
    await putFile(await contextFor(s.t.platform, { kind: 'agent', agentId: agent.id, projectId }, { project: scope.volumeId }), {
      path: 'findings.md',
      source: 'what the archivist found',
    });
    await deleteAgent(admin, agent.id);

    const { context, page } = await s.signedIn();
    const picker = page.getByRole('combobox', { name: 'Project' });
    await picker.locator('option', { hasText: 'Files of agent Archivist (agent deleted)' }).waitFor({ state: 'attached' });
    await picker.selectOption({ label: 'Files of agent Archivist (agent deleted)' });
    await fileRow(page, 'findings.md').waitFor();
    // Read-only now: nothing is written there any more.
    expect(await page.getByRole('button', { name: 'Upload', exact: true }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Delete this volume' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete this volume' }).click();
    // Back in the project, and the volume is gone from the picker and from the server.
    await page.getByRole('link', { name: 'Wiki' }).waitFor();
    expect(await picker.locator('option', { hasText: 'Archivist' }).count()).toBe(0);
    expect(await s.t.platform.db.kysely.selectFrom('projects').select('id').where('id', '=', scope.volumeId).execute()).toEqual([]);

    // A knowledge base: its project's admin deletes it the same way.
    const kb = await openVolume(s.t.platform, await localAdminPrincipal(s.t.platform), { catalog: 'knowledges', project: 'default', name: 'Old notes' });
    await page.reload();
    await picker.selectOption({ label: 'Old notes' });
    await page.waitForURL(new RegExp(`volume=${kb.volumeId}`));
    await page.getByRole('button', { name: 'Delete this volume' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete this volume' }).click();
    await page.getByRole('link', { name: 'Wiki' }).waitFor();
    expect(await picker.locator('option', { hasText: 'Old notes' }).count()).toBe(0);
    await context.close();
  });
});
