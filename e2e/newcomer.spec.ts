/**
 * What a newcomer still tripped on (issue 29), checked in Chromium (run by scripts/e2e.mjs
 * `--spec newcomer`; the phone layout, item 1, is in layout.spec.ts):
 *   - item 3: output.size.scale=0 and output.size.width=0 are marked in their field with the
 *     API's message and a "Go to" link, like any invalid value, and the result on screen stays;
 */

import assert from 'node:assert/strict';

import type { Page } from 'playwright-core';

import { fixturePng, noProblemsCheck, openPage, resultWaiter, runCheckList, statusText, upload } from './harness.js';
import type { Check, CheckResult, E2eContext, Report } from './harness.js';

/** How long a typed value takes to reach the tracer and its answer the page, at most, here. */
const SETTLE_MS = 1500;

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
  const { context, page, problems } = await openPage(ctx, { context: { viewport: { width: 1280, height: 800 } } });
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
    noProblemsCheck(problems),
  ];
  const results = await runCheckList(checks, report, page);
  await context.close();
  return results;
}
