/**
 * What a new user stumbled on (issue 17), checked in Chromium (run by scripts/e2e.mjs
 * `--spec newuser`):
 *   - item 3: an invalid option value is announced in the status line and every download is off
 *     until it is fixed (the old result must not be saved as if it matched the fields);
 *   - item 8: output.file_format=pdf makes the primary button "Download PDF" and it saves a PDF;
 *   - item 9: the first Tab stops are skip links, and one of them reaches the Download button;
 *   - item 10: stroke draw styles report their shapes (not "Shapes: 0"); the Line art preset on a
 *     light colour picture (every colour snaps to white) says why the result is blank;
 *   - item 6: an image URL that fails to load leaves no earlier picture, result or download behind;
 *   - item 2: deleting the Shapes sample's background colour leaves the other shapes smooth;
 *   - item 10 (the rest): an address without a scheme, a text file named .png, an empty Credits.
 */

import assert from 'node:assert/strict';

import { scenePng, circle } from './draw.js';
import { fixturePng, noProblemsCheck, openPage, runCheckList, stats, statusText, upload, waitForDone } from './harness.js';
import type { Check, CheckResult, E2eContext, Report } from './harness.js';

export async function runChecks(ctx: E2eContext, report: Report): Promise<CheckResult[]> {
  // The failed-URL check fetches a missing file on purpose: its 404 is not a problem.
  const missingUrl = 'no-such-image.png';
  const { context, page, problems } = await openPage(ctx, { context: { viewport: { width: 1280, height: 800 } }, isExpected: (text) => text.includes(missingUrl) });
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
    {
      name: 'item 10: stroke_shapes and stroke_edges report the shapes they draw, not "Shapes: 0"',
      async run() {
        await upload(page, 'fixture.png', fixturePng);
        await waitForDone(page);
        const filled = Number((await stats(page)).Shapes);
        assert.ok(filled > 0);
        for (const style of ['stroke_shapes', 'stroke_edges']) {
          await page.locator('[data-option="output.draw_style"] select').selectOption(style);
          await page.waitForFunction(() => document.querySelector('img[alt="Traced vector result"]') !== null);
          await waitForDone(page);
          await page.waitForFunction((n) => /Shapes: (\d+)/.exec(document.querySelector('[data-testid="stats"]')?.textContent ?? '')?.[1] === String(n), filled);
        }
        await page.locator('[data-option="output.draw_style"] select').selectOption('fill_shapes');
        await waitForDone(page);
      },
    },
    {
      name: 'item 10: Line art on a light colour picture → the blank result says why (one colour, palette, max_colors)',
      async run() {
        const lemon = Buffer.from(scenePng({ width: 80, height: 64, background: [255, 255, 255], shapes: [{ color: [250, 220, 60], inside: circle(40, 32, 24) }] }));
        await upload(page, 'lemon.png', lemon);
        await waitForDone(page);
        assert.equal(await page.locator('.result-hint').count(), 0, 'two colours: no hint');
        await page.getByLabel('Preset', { exact: true }).selectOption('line-art');
        const hint = page.locator('.result-hint');
        await hint.waitFor();
        const text = (await hint.textContent()) ?? '';
        assert.match(text, /single colour, #FFFFFF/);
        assert.match(text, /processing\.palette/);
        assert.match(text, /Line art/);
        await page.getByLabel('Preset', { exact: true }).selectOption('defaults');
        await page.waitForFunction(() => document.querySelector('.result-hint') === null);
      },
    },
    {
      name: 'item 6: a failed image URL replaces the previous picture — no old image, result or download stays',
      async run() {
        await upload(page, 'fixture.png', fixturePng);
        await page.waitForFunction(() => document.querySelector<HTMLButtonElement>('#primary-download')?.disabled === false);
        await waitForDone(page);
        await page.getByLabel('Image URL').fill(missingUrl);
        await page.getByRole('button', { name: 'Load URL' }).click();
        await page.waitForFunction(() => (document.querySelector('[role="status"]')?.textContent ?? '').startsWith('Error'));
        assert.equal(await page.locator('img[alt="Traced vector result"]').count(), 0, 'the old result is gone');
        assert.equal(await page.getByRole('img', { name: /fixture\.png/ }).count(), 0, 'the old input is gone');
        assert.equal(await page.locator('#primary-download').isDisabled(), true);
        const panel = page.getByRole('group', { name: 'Download as' });
        for (const f of ['SVG', 'PDF']) assert.equal(await panel.getByRole('button', { name: f, exact: true }).isDisabled(), true, f);
        assert.doesNotMatch(await page.locator('.viewer').innerText(), /fixture\.png/);
      },
    },
    {
      name: 'item 2: on the Shapes sample, deleting the background colour leaves the other shapes as smooth (nodes do not grow)',
      async run() {
        await page.getByRole('button', { name: 'Try a sample' }).click();
        await page.getByRole('img', { name: 'Input image shapes.png' }).waitFor();
        await waitForDone(page);
        const nodesBefore = Number((await stats(page)).Nodes);
        const hexes = await page.getByRole('list', { name: 'Result colours' }).locator('.palette-hex').allTextContents();
        const background = hexes[0]!; // the largest area comes first
        await page.getByRole('button', { name: `Delete ${background}` }).click();
        await page.waitForFunction((hex) => !Array.from(document.querySelectorAll('.palette-hex')).some((el) => el.textContent === hex), background);
        await waitForDone(page);
        const nodesAfter = Number((await stats(page)).Nodes);
        // Stair-stepped edges had 119 nodes where 37 were (issue 17); gone with the background, fewer.
        assert.ok(nodesAfter <= nodesBefore, `nodes ${nodesBefore} → ${nodesAfter}`);
        await page.getByRole('button', { name: 'Clear palette rules' }).click();
        await waitForDone(page);
      },
    },
    {
      name: 'item 10: an address typed without http:// is fetched over https from that host, not relative to the site',
      async run() {
        const asked: string[] = [];
        await page.route('https://example.com/**', (route) => {
          asked.push(route.request().url());
          return route.fulfill({ status: 200, body: fixturePng, contentType: 'image/png', headers: { 'access-control-allow-origin': '*' } });
        });
        await page.getByLabel('Image URL').fill('example.com/logo.png');
        await page.getByRole('button', { name: 'Load URL' }).click();
        await page.getByRole('img', { name: 'Input image logo.png' }).waitFor();
        await waitForDone(page);
        assert.deepEqual(asked, ['https://example.com/logo.png']);
        await page.unroute('https://example.com/**');
      },
    },
    {
      name: 'item 10: a text file named .png says it is not a PNG, JPEG, GIF, BMP, TIFF or WebP image, quotes its text, and the viewer does not blame the browser',
      async run() {
        await upload(page, 'notes.png', Buffer.from('this is not an image\n'));
        await page.waitForFunction(() => (document.querySelector('[role="status"]')?.textContent ?? '').startsWith('Error'));
        const text = await statusText(page);
        assert.match(text, /^Error 1006: .*not a PNG, JPEG, GIF, BMP, TIFF or WebP image/);
        assert.match(text, /"this is not an i/);
        const viewer = await page.locator('.viewer').innerText();
        assert.doesNotMatch(viewer, /browser/i);
        assert.match(viewer, /not an image that can be read/);
      },
    },
    {
      name: 'item 10: an empty Credits value says "no number", not "received NaN"',
      async run() {
        const account = page.getByRole('region', { name: 'Local account' });
        await account.getByLabel('Credits', { exact: true }).fill('');
        await account.getByRole('button', { name: 'Set account', exact: true }).click();
        await page.waitForFunction(() => /no number/.test(document.querySelector('.service')?.textContent ?? ''));
        assert.doesNotMatch((await page.locator('.service').textContent()) ?? '', /NaN/);
      },
    },
    noProblemsCheck(problems),
  ];
  const results = await runCheckList(checks, report, page);
  await context.close();
  return results;
}
