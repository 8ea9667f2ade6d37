/**
 * Small things a newcomer still tripped on (issue 41 item 6), in Chromium at 1280 × 800 (run by
 * scripts/e2e.mjs `--spec details`; the 1013 screen's words are checked in newcomer.spec.ts):
 *   - a new input takes the old picture's palette list (its Delete and Remap controls) off the
 *     page in the same task that says "Loading the image…", not a deferred render later;
 *   - side by side, the input and result views start on the same line when the input's caption
 *     wraps (a long file name) and the result's does not;
 *   - numbers in messages have thousands separators (a field's 1019 range);
 *   - the JS client snippet imports the package's `tracelab/client`.
 */

import assert from 'node:assert/strict';

import { fixturePng, noProblemsCheck, openPage, resultWaiter, runCheckList, upload } from './harness.js';
import type { Check, CheckResult, E2eContext, Report } from './harness.js';

/** Delete and Remap controls of the palette list. */
const PALETTE_CONTROLS = 'button[aria-label^="Delete #"], input[type="color"].palette-remap';

/** A file name long enough to wrap the input's caption over two lines or more at 1280 px. */
const LONG_NAME = 'holiday-snapshot-from-the-beach-at-sunset-with-the-whole-family-and-the-dog-final-version-3.png';

export async function runChecks(ctx: E2eContext, report: Report): Promise<CheckResult[]> {
  const { context, page, problems } = await openPage(ctx, { context: { viewport: { width: 1280, height: 800 } } });
  const nextResult = resultWaiter();
  const checks: Check[] = [
    {
      name: 'a new input takes the old palette list (Delete, Remap) off at once, in the task that says "Loading the image…" (issue 41 item 6)',
      async run() {
        await upload(page, 'fixture.png', fixturePng);
        await nextResult(page);
        await page.waitForFunction((sel) => document.querySelectorAll(sel).length > 0, PALETTE_CONTROLS);
        // Click "Try a sample" from the page and read the page before any other task runs: only
        // React's synchronous render of the click (flushed in microtasks) has happened.
        const seen = await page.evaluate(async (sel) => {
          const button = [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Try a sample')!;
          button.click();
          for (let i = 0; i < 5; i++) await Promise.resolve();
          return {
            status: document.querySelector('[role="status"]')?.textContent?.trim(),
            controls: document.querySelectorAll(sel).length,
            colours: document.querySelectorAll('ul[aria-label="Result colours"] li').length,
          };
        }, PALETTE_CONTROLS);
        assert.deepEqual(seen, { status: 'Loading the image…', controls: 0, colours: 0 });
        // The sample's own colours come with its result.
        await nextResult(page);
        await page.waitForFunction((sel) => document.querySelectorAll(sel).length > 0, PALETTE_CONTROLS);
      },
    },
    {
      name: 'side by side, the input and result views start on the same line when only the input caption wraps (issue 41 item 6)',
      async run() {
        await upload(page, LONG_NAME, fixturePng);
        await nextResult(page);
        const found = await page.evaluate(() => {
          const box = (sel: string) => document.querySelector(sel)!.getBoundingClientRect();
          // The height of each caption's text (its box may be stretched to line the views up).
          const captions = [...document.querySelectorAll('.compare figcaption')].map((c) => {
            const range = document.createRange();
            range.selectNodeContents(c);
            return range.getBoundingClientRect().height;
          });
          return {
            input: box('[aria-label="Input image view"]').top,
            result: box('[aria-label="Result view"]').top,
            inputWidth: box('[aria-label="Input image view"]').width,
            resultWidth: box('[aria-label="Result view"]').width,
            captions,
          };
        });
        const detail = JSON.stringify(found);
        assert.equal(found.captions.length, 2, detail);
        assert.ok(found.captions[0]! > found.captions[1]! + 10, `the input caption wraps, the result's does not: ${detail}`);
        assert.ok(Math.abs(found.inputWidth - found.resultWidth) < 1, `side by side, same width: ${detail}`);
        assert.ok(Math.abs(found.input - found.result) < 1, `the views start on the same line: ${detail}`);
      },
    },
    {
      name: "a field's 1019 message writes its range with thousands separators (issue 41 item 6)",
      async run() {
        const field = page.locator('[data-option="input.max_pixels"]');
        const group = field.locator('xpath=ancestor::details[1]');
        if ((await group.getAttribute('open')) === null) await group.locator('summary').click();
        await field.locator('input').fill('99');
        assert.match((await field.locator('.field-error').textContent()) ?? '', /input\.max_pixels must be an integer in 100…3,145,828; received '99'/);
        await field.locator('input').fill('');
        await page.waitForFunction(() => document.querySelector('[data-option="input.max_pixels"] .field-error') === null);
      },
    },
    {
      name: 'the JS client snippet imports the package entry tracelab/client, not a path of a checkout (issue 41 item 6)',
      async run() {
        await page.getByRole('tab', { name: 'JS client', exact: true }).click();
        const text = (await page.getByTestId('snippet').textContent()) ?? '';
        assert.match(text, /^import \{ createClient \} from "tracelab\/client";$/m);
        assert.doesNotMatch(text, /\.\/src\//);
      },
    },
    noProblemsCheck(problems),
  ];
  const results = await runCheckList(checks, report, page);
  await context.close();
  return results;
}
