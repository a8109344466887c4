import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { AxeResults, RunOptions } from 'axe-core';
import { createAgent, putFile } from '@stoa/core/testing';
import { fileRow, hasChromium, startUiServer, uploadViaUi, type UiServer } from './browser-helpers.js';

// Evaluated, not added as a <script>: the UI's Content-Security-Policy (rightly) refuses inline scripts.
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const webSrc = join(import.meta.dirname, '../apps/web/src');

/** The open dialog's axe-core violations (contrast first: "New knowledge base…" once drew white on white). */
async function dialogViolations(page: Page, where: string): Promise<string[]> {
  await page.getByRole('dialog').waitFor();
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: string, opts: RunOptions) => Promise<AxeResults> } }).axe;
    const r = await axe.run('[role="dialog"]', { resultTypes: ['violations'] });
    return r.violations.map((v) => `${v.id} (${v.help}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  return found.map((v) => `${where}: ${v}`);
}

/** The source files that draw a dialog (role="dialog"), so a new one cannot go unchecked. */
function dialogFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return dialogFiles(p);
    return /\.tsx$/.test(e.name) && /\srole="dialog"/.test(readFileSync(p, 'utf8')) ? [p.slice(webSrc.length + 1)] : [];
  });
}

// Every dialog of the UI, opened, passes axe-core (contrast included) in its open state.
describe.skipIf(!hasChromium)('web UI: every dialog passes axe-core open', () => {
  let s: UiServer;

  beforeAll(async () => {
    s = await startUiServer();
  });
  afterAll(async () => s?.close());

  it('knows every dialog of the UI', () => {
    // Each file here has its dialog opened by the test below; add a new one there too.
    expect(dialogFiles(webSrc).sort()).toEqual([
      'components/command-palette.tsx',
      'components/confirm-dialog.tsx',
      'components/delete-project-dialog.tsx',
      'components/invite-dialog.tsx',
      'components/shortcuts.tsx',
      'components/sign-in-again.tsx',
      'components/volume-picker.tsx',
      'pages/agent-activity.tsx',
      'pages/files/move-dialog.tsx',
      'pages/files/share-dialog.tsx',
      'pages/files/upload-queue.tsx',
    ]);
  });

  it('opens each dialog and finds no violation', async () => {
    const admin = await s.t.admin();
    await putFile(admin, { path: 'inbox/taken.txt', source: 'theirs' });
    const agent = await createAgent(admin, { name: 'Dialogs', instructions: 'Open dialogs.', files: 'on' });
    const { context, page } = await s.signedIn();
    const found: string[] = [];
    const close = async () => {
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
    };

    await page.goto(`${s.url}/files/inbox`);
    await fileRow(page, 'inbox/taken.txt').getByRole('button', { name: 'Delete taken.txt' }).click();
    found.push(...(await dialogViolations(page, 'confirm (delete a file)')));
    await close();
    await fileRow(page, 'inbox/taken.txt').getByRole('button', { name: 'Move to… taken.txt' }).click();
    found.push(...(await dialogViolations(page, 'move to…')));
    await close();
    await uploadViaUi(page, [{ name: 'taken.txt', body: 'mine' }]);
    found.push(...(await dialogViolations(page, 'upload over a taken name')));
    await page.getByRole('dialog').getByRole('button', { name: 'Skip' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'New knowledge base…' }).click();
    found.push(...(await dialogViolations(page, 'new knowledge base')));
    await close();

    await fileRow(page, 'inbox/taken.txt').getByRole('button', { name: 'taken.txt', exact: true }).click();
    await page.getByRole('button', { name: 'Share link…' }).click();
    found.push(...(await dialogViolations(page, 'share link')));
    await close();
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Control+k');
    found.push(...(await dialogViolations(page, 'command palette')));
    await close();
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('?');
    found.push(...(await dialogViolations(page, 'keyboard shortcuts')));
    await close();

    await page.goto(`${s.url}/members`);
    await page.getByRole('button', { name: 'Invite a person…' }).click();
    found.push(...(await dialogViolations(page, 'invite')));
    await close();
    await page.getByRole('button', { name: 'Delete project' }).click();
    found.push(...(await dialogViolations(page, 'delete project')));
    await close();

    await page.goto(`${s.url}/agents/${agent.id}`);
    await page.locator('.agent-detail').getByRole('button', { name: 'Create token' }).click();
    found.push(...(await dialogViolations(page, 'new agent token')));
    await page.getByRole('dialog').getByRole('button').last().click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    // The session ends under an open page: the sign-in dialog comes over it.
    await page.evaluate(() => localStorage.setItem('stoa.token', 'not-a-valid-token-any-more'));
    await page.getByRole('link', { name: 'Wiki' }).click();
    found.push(...(await dialogViolations(page, 'sign in again')));

    expect(found).toEqual([]);
    await context.close();
  });
});
