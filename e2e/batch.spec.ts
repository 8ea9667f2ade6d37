/**
 * Browser checks of "Many images" (run by scripts/e2e.mjs): several files chosen at once are traced
 * in the export worker and saved as one zip, named after the inputs, a bad file listed in the
 * panel and in errors.txt, the image on the page untouched; the main thread stays free meanwhile.
 */

import assert from 'node:assert/strict';

import { unzipSync } from 'fflate';
import type { Page } from 'playwright-core';

import { fixturePng, noProblemsCheck, openPage, runCheckList, TIMEOUT } from './harness.js';
import type { Check, CheckResult, E2eContext } from './harness.js';

const batchPanel = (page: Page) => page.getByRole('region', { name: 'Many images' });

const CHECKS: Check[] = [
  {
    name: 'three files chosen at once → one zip with an SVG per good file and errors.txt for the bad one',
    async run(page) {
      const panel = batchPanel(page);
      await panel.getByLabel('Format', { exact: true }).selectOption('svg');
      const [download] = await Promise.all([
        page.waitForEvent('download', { timeout: TIMEOUT }),
        panel.getByLabel('Images to trace', { exact: true }).setInputFiles([
          { name: 'one.png', mimeType: 'image/png', buffer: fixturePng },
          { name: 'broken.png', mimeType: 'image/png', buffer: Buffer.from('this is not an image') },
          { name: 'two.png', mimeType: 'image/png', buffer: fixturePng },
        ]),
      ]);
      assert.equal(download.suggestedFilename(), 'tracelab-batch.zip');
      const { readFile } = await import('node:fs/promises');
      const zip = unzipSync(new Uint8Array(await readFile(await download.path())));
      assert.deepEqual(Object.keys(zip).sort(), ['errors.txt', 'one.svg', 'two.svg']);
      assert.match(new TextDecoder().decode(zip['one.svg']), /^<\?xml[\s\S]*<svg[\s\S]*<\/svg>\s*$/);
      assert.deepEqual(zip['one.svg'], zip['two.svg']);
      assert.match(new TextDecoder().decode(zip['errors.txt']), /^broken\.png: error 1006: /);
      const message = (await panel.locator('.batch-message').textContent()) ?? '';
      assert.match(message, /Saved tracelab-batch\.zip: 2 traced, 1 failed \(broken\.png: error 1006/);
      // The page's own image and result are not touched by a batch.
      assert.equal(await page.getByRole('img', { name: 'Traced vector result' }).count(), 0);
    },
  },
  {
    name: 'PDF chosen: the zip holds PDFs',
    async run(page) {
      const panel = batchPanel(page);
      await panel.getByLabel('Format', { exact: true }).selectOption('pdf');
      const [download] = await Promise.all([
        page.waitForEvent('download', { timeout: TIMEOUT }),
        panel.getByLabel('Images to trace', { exact: true }).setInputFiles([{ name: 'one.png', mimeType: 'image/png', buffer: fixturePng }]),
      ]);
      const { readFile } = await import('node:fs/promises');
      const zip = unzipSync(new Uint8Array(await readFile(await download.path())));
      assert.deepEqual(Object.keys(zip), ['one.pdf']);
      assert.equal(new TextDecoder().decode(zip['one.pdf']!.subarray(0, 5)), '%PDF-');
    },
  },
];

export async function runChecks(ctx: E2eContext, report: (r: CheckResult) => void = () => {}): Promise<CheckResult[]> {
  const { context, page, problems } = await openPage(ctx, { context: { acceptDownloads: true } });
  // A 1006 for the bad file is expected; it never reaches the console as an error.
  const results = await runCheckList([...CHECKS, noProblemsCheck(problems)], report, page);
  await context.close();
  return results;
}
