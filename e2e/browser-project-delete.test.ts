import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProjectFor, findProject, localAdminPrincipal } from '@stoa/core/testing';
import { hasChromium, startUiServer, type UiServer } from './browser-helpers.js';

// Deleting a whole project from the web UI (F13): only the installation administrator sees it, and only typing the
// project's exact name arms the button.
describe.skipIf(!hasChromium)('web UI: deleting a project', () => {
  let s: UiServer;

  beforeAll(async () => {
    s = await startUiServer();
    await createProjectFor(s.t.platform, await localAdminPrincipal(s.t.platform), { name: 'doomed' });
  });
  afterAll(async () => s?.close());

  it('asks for the name, deletes the project, and a project admin never sees the button', async () => {
    const editorCtx = await s.t.userCtx('pam', 'admin');
    const asProjectAdmin = await s.signedIn({ as: editorCtx });
    await asProjectAdmin.page.getByRole('link', { name: 'Members' }).click();
    await asProjectAdmin.page.getByRole('heading', { name: 'Members' }).waitFor();
    expect(await asProjectAdmin.page.getByRole('button', { name: 'Delete project' }).count()).toBe(0);
    await asProjectAdmin.context.close();

    const { context, page } = await s.signedIn();
    await page.getByRole('combobox', { name: 'Project' }).selectOption({ label: 'doomed' });
    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByRole('button', { name: 'Delete project' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete project' });
    const confirm = dialog.getByRole('button', { name: 'Delete project' });
    await dialog.getByRole('textbox').fill('Doomed');
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByRole('textbox').fill('doomed');
    await Promise.all([page.waitForResponse((r) => r.request().method() === 'DELETE' && r.ok()), confirm.click()]);
    // Back in the remaining project, with no way to pick the deleted one.
    await page.getByRole('heading', { name: 'Files' }).waitFor();
    expect(await page.getByRole('option', { name: 'doomed' }).count()).toBe(0);
    await expect(findProject(s.t.platform, 'doomed')).rejects.toMatchObject({ code: 'not_found' });
    await context.close();
  });
});
