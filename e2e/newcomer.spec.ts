/**
 * What a newcomer still tripped on (issue 29), checked in Chromium (run by scripts/e2e.mjs
 * `--spec newcomer`; the phone layout, item 1, is in layout.spec.ts):
 *   - item 3: output.size.scale=0 and output.size.width=0 are marked in their field with the
 *     API's message and a "Go to" link, like any invalid value, and the result on screen stays;
 *   - item 4: an 8000 × 8000 PNG is refused with 1013 from its header — no decode step, no draft —
 *     with an offer to trace it shrunk to input.max_pixels, which traces it;
 *   - item 7: a new input takes the old result and its "Done" off the screen at once, while the
 *     new picture is still on its way; the image URL and base64 boxes do not keep the text of an
 *     earlier input once a file, a sample, a paste or the other box is used.
 */

import assert from 'node:assert/strict';

import { encode } from 'fast-png';
import type { Page } from 'playwright-core';

import { fixturePng, noProblemsCheck, openPage, resultWaiter, runCheckList, statusText, upload } from './harness.js';
import type { Check, CheckResult, E2eContext, Report } from './harness.js';

/** How long a typed value takes to reach the tracer and its answer the page, at most, here. */
const SETTLE_MS = 1500;

/** An 8000 × 8000 PNG (64 MP, twice MAX_ACCEPTED_PIXELS): 1-bit grey, left half black, right half white; about 10 kB. */
function hugePng(): Buffer {
  const size = 8000;
  const row = new Uint8Array(size / 8).fill(0xff, size / 16);
  const data = new Uint8Array(row.length * size);
  for (let y = 0; y < size; y++) data.set(row, y * row.length);
  return Buffer.from(encode({ width: size, height: size, data, channels: 1, depth: 1 }));
}

const optionField = (page: Page, name: string) => page.locator(`[data-option="${name}"]`);

/** Opens the option group that holds `name` (folded groups hide their fields). */
async function showOption(page: Page, name: string): Promise<void> {
  const group = optionField(page, name).locator('xpath=ancestor::details[1]');
  if ((await group.getAttribute('open')) === null) await group.locator('summary').click();
}

/** The trace id (data-trace-id) of the result image on screen; 0 when there is none. */
async function shownTraceId(page: Page): Promise<number> {
  const img = page.getByRole('img', { name: 'Traced vector result' });
  return (await img.count()) > 0 ? Number((await img.getAttribute('data-trace-id')) ?? 0) : 0;
}

export async function runChecks(ctx: E2eContext, report: Report): Promise<CheckResult[]> {
  // No service worker: it would answer the sample requests itself, out of page.route's reach.
  const { context, page, problems } = await openPage(ctx, { context: { viewport: { width: 1280, height: 800 }, serviceWorkers: 'block' } });
  const nextResult = resultWaiter();
  const checks: Check[] = [
    {
      name: 'item 3: output.size.scale=0 and output.size.width=0 are marked in their field with a message and a "Go to" link; the result on screen stays',
      async run() {
        await upload(page, 'fixture.png', fixturePng);
        await nextResult(page);
        for (const name of ['output.size.scale', 'output.size.width']) {
          const before = await shownTraceId(page);
          assert.ok(before > 0, 'a result is on screen');
          await showOption(page, name);
          const input = optionField(page, name).locator('input');
          await input.fill('0');
          // Marked beside the field, as processing.max_colors=999 is.
          assert.equal(await input.getAttribute('aria-invalid'), 'true');
          assert.match((await optionField(page, name).locator('.field-error').textContent()) ?? '', new RegExp(`${name.replace(/\./g, '\\.')} must be greater than 0`));
          assert.match(await statusText(page), new RegExp(`^Invalid option ${name.replace(/\./g, '\\.')}:`));
          // Nothing is traced with the value: the previous result stays and no error replaces it.
          await page.waitForTimeout(SETTLE_MS);
          assert.equal(await shownTraceId(page), before, 'the previous result is still shown');
          assert.doesNotMatch(await statusText(page), /^Error/);
          // The "Go to" link of every invalid value leads to the field.
          await input.blur();
          await page.getByRole('button', { name: `Go to ${name}` }).click();
          assert.equal(await input.evaluate((el) => el === document.activeElement), true, 'Go to focuses the field');
          // Fixed (emptied: no size set), it traces again.
          await input.fill('');
          await nextResult(page);
        }
      },
    },
    {
      name: 'item 4: an 8000 × 8000 PNG is refused with 1013 from its header (no decode step, no draft) and offers to trace it shrunk to input.max_pixels, which traces it',
      async run() {
        // Every step the result bar shows, from now on.
        await page.evaluate(() => {
          const seen: string[] = [];
          (window as unknown as { seenSteps: string[] }).seenSteps = seen;
          const bar = document.querySelector('.result-bar')!;
          new MutationObserver(() => {
            const step = bar.querySelector('.trace-progress .hint')?.textContent;
            if (step && seen.at(-1) !== step) seen.push(step);
          }).observe(bar, { subtree: true, childList: true, characterData: true });
        });
        await upload(page, 'huge.png', hugePng());
        // Generous: what tells "at once" from "decoded first" is the steps below, not the clock.
        await page.waitForFunction(() => document.querySelector('[role="status"]')?.textContent?.startsWith('Error'), null, { timeout: 15_000 });
        // Issue 41 item 6: numbers with separators, and no "shrink larger images first" beside the button that does it.
        assert.equal(
          await statusText(page),
          'Error 1013: Image has too many pixels: 8000×8000 = 64,000,000 px; the maximum is 33,554,432 px. The page can shrink it for you (in your browser) and trace that:',
        );
        const steps = await page.evaluate(() => (window as unknown as { seenSteps: string[] }).seenSteps);
        assert.ok(!steps.includes('decode') && !steps.includes('draft'), `steps shown: ${JSON.stringify(steps)}`);
        // The button names the size it traces at (issue 41 item 6: it said "to 2,097,252 px").
        const offer = page.getByRole('button', { name: 'Trace it shrunk to 1448 × 1448 px', exact: true });
        await offer.click();
        await nextResult(page);
        // √(2,097,252 / 64,000,000) × 8000 = 1448.2: the largest square within input.max_pixels.
        const input = page.getByRole('img', { name: 'Input image huge-1448x1448.png' });
        await input.waitFor();
        assert.deepEqual(await input.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]), [1448, 1448]);
        assert.equal(await offer.count(), 0, 'the offer is gone with the error');
      },
    },
    {
      name: 'item 7: a new input says "Loading the image…" and takes the old result off the screen at once, before the new picture has arrived',
      async run() {
        assert.ok((await shownTraceId(page)) > 0 && (await statusText(page)) === 'Done', 'a result is on screen');
        // The sample's download is held until the page has been looked at: nothing else can
        // have changed the status meanwhile.
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        await page.route('**/samples/logo.png', async (route) => {
          await held;
          await route.continue();
        });
        try {
          await page.getByRole('button', { name: 'Sample: Logo', exact: true }).click();
          await page.waitForFunction(
            () => document.querySelector('[role="status"]')?.textContent?.trim() === 'Loading the image…' && document.querySelector('img[alt="Traced vector result"]') === null,
            null,
            { timeout: 5000 },
          );
        } finally {
          release();
        }
        await nextResult(page);
        await page.getByRole('img', { name: 'Input image logo.png' }).waitFor();
        await page.unroute('**/samples/logo.png');
      },
    },
    {
      name: 'item 7: the image URL and base64 boxes are emptied when another input (a file, a sample, a paste, the other box) is used',
      async run() {
        const urlBox = page.getByLabel('Image URL', { exact: true });
        const base64Box = page.getByLabel('Base64 text or data: URL', { exact: true });
        // A URL: its box keeps the address of the picture on screen.
        await urlBox.fill('samples/logo.png');
        await page.getByRole('button', { name: 'Load URL', exact: true }).click();
        await nextResult(page);
        assert.equal(await urlBox.inputValue(), 'samples/logo.png');
        // A file: the URL is no longer the input.
        await upload(page, 'fixture.png', fixturePng);
        await nextResult(page);
        assert.equal(await urlBox.inputValue(), '');
        // Base64 text, then a sample: the text goes, and so does an address typed meanwhile.
        await base64Box.fill(fixturePng.toString('base64'));
        await page.getByRole('button', { name: 'Load base64', exact: true }).click();
        await nextResult(page);
        assert.equal(await base64Box.inputValue(), fixturePng.toString('base64'));
        await urlBox.fill('samples/photo.png');
        await page.getByRole('button', { name: 'Sample: Shapes', exact: true }).click();
        await nextResult(page);
        assert.deepEqual([await urlBox.inputValue(), await base64Box.inputValue()], ['', '']);
        // The other box: a URL empties the base64 box.
        await base64Box.fill(fixturePng.toString('base64'));
        await page.getByRole('button', { name: 'Load base64', exact: true }).click();
        await nextResult(page);
        await urlBox.fill('samples/logo.png');
        await page.getByRole('button', { name: 'Load URL', exact: true }).click();
        await nextResult(page);
        assert.deepEqual([await urlBox.inputValue(), await base64Box.inputValue()], ['samples/logo.png', '']);
        // A paste anywhere on the page.
        await page.evaluate((bytes) => {
          const data = new DataTransfer();
          data.items.add(new File([new Uint8Array(bytes)], 'pasted.png', { type: 'image/png' }));
          window.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
        }, [...fixturePng]);
        await nextResult(page);
        assert.equal(await urlBox.inputValue(), '');
      },
    },
    noProblemsCheck(problems),
  ];
  const results = await runCheckList(checks, report, page);
  await context.close();
  return results;
}
