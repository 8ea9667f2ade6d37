/**
 * What a new user stumbled on (issue 17), checked in Chromium (run by scripts/e2e.mjs
 * `--spec newuser`):
 *   - item 3: an invalid option value is announced in the status line and every download is off
 *     until it is fixed (the old result must not be saved as if it matched the fields);
 *   - item 8: output.file_format=pdf makes the primary button "Download PDF" and it saves a PDF;
 *   - item 9: the first Tab stops are skip links, and one of them reaches the Download button.
 */

import assert from 'node:assert/strict';

import { fixturePng, noProblemsCheck, openPage, runCheckList, statusText, upload, waitForDone } from './harness.js';
import type { Check, CheckResult, E2eContext, Report } from './harness.js';

export async function runChecks(ctx: E2eContext, report: Report): Promise<CheckResult[]> {
  const { context, page, problems } = await openPage(ctx, { context: { viewport: { width: 1280, height: 800 } } });
  const maxColors = () => page.locator('[data-option="processing.max_colors"] input');
  const checks: Check[] = [
    {
      name: 'item 3: processing.max_colors=999 → the status names the invalid option and downloads are disabled; fixing it re-enables them',
      async run() {
        await upload(page, 'fixture.png', fixturePng);
        await waitForDone(page);
        await page.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)));
        await maxColors().fill('999');
        await page.waitForFunction(() => /^Invalid option processing\.max_colors/.test(document.querySelector('[role="status"]')?.textContent ?? ''));
        assert.match(await statusText(page), /downloads are off/);
        assert.equal(await page.getByRole('button', { name: 'Download SVG' }).isDisabled(), true);
        for (const f of ['SVG', 'PDF', 'EPS', 'DXF', 'PNG']) {
          assert.equal(await page.getByRole('group', { name: 'Download as' }).getByRole('button', { name: f, exact: true }).isDisabled(), true, f);
        }
        // The status is where the user looks: in the viewport, not below the sidebar.
        const box = await page.getByRole('status').boundingBox();
        assert.ok(box !== null && box.y >= 0 && box.y + box.height <= 800, `status at ${JSON.stringify(box)}`);
        await page.getByRole('button', { name: 'Go to processing.max_colors' }).click();
        assert.equal(await maxColors().evaluate((el) => el === document.activeElement), true);
        await maxColors().fill('8');
        await waitForDone(page);
        assert.equal(await page.getByRole('button', { name: 'Download SVG' }).isDisabled(), false);
      },
    },
    {
      name: 'item 8: output.file_format=pdf → the primary button is "Download PDF" and saves a PDF',
      async run() {
        await page.locator('[data-option="output.file_format"] select').selectOption('pdf');
        const button = page.getByRole('button', { name: 'Download PDF' }).first();
        await button.waitFor();
        const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
        assert.match(download.suggestedFilename(), /\.pdf$/);
        const path = await download.path();
        const { readFile } = await import('node:fs/promises');
        const bytes = await readFile(path);
        assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-');
        await page.locator('[data-option="output.file_format"] select').selectOption('svg');
      },
    },
    {
      name: 'item 6 (sibling): "Saved <name>" of the Download-as panel is cleared when an option changes',
      async run() {
        const panel = page.getByRole('group', { name: 'Download as' });
        const [download] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'EPS', exact: true }).click()]);
        assert.match(download.suggestedFilename(), /\.eps$/);
        await page.waitForFunction(() => /^Saved /.test(document.querySelector('.download-message.download-saved')?.textContent ?? ''));
        await maxColors().fill('6');
        await page.waitForFunction(() => document.querySelector('.download-saved') === null);
        await waitForDone(page);
      },
    },
    {
      name: 'item 9: the first Tab stops are skip links; "Skip to Download" then Tab lands on the Download button',
      async run() {
        // Start from the top of the document, as after loading the page.
        await page.evaluate(() => {
          (document.activeElement as HTMLElement | null)?.blur();
          document.body.tabIndex = -1;
          document.body.focus();
          document.body.removeAttribute('tabindex');
        });
        await page.keyboard.press('Tab');
        assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to the result');
        await page.keyboard.press('Tab');
        assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to Download');
        await page.keyboard.press('Enter');
        assert.equal(await page.evaluate(() => document.activeElement?.id), 'primary-download');
      },
    },
    noProblemsCheck(problems),
  ];
  const results = await runCheckList(checks, report, page);
  await context.close();
  return results;
}
