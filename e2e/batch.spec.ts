/**
 * Browser checks of "Many images" (run by scripts/e2e.mjs): several files chosen at once are traced
 * in an export worker and saved as one zip, named after the inputs, a bad file listed in the
 * panel and in errors.txt, the image on the page untouched; the main thread stays free meanwhile.
 * The zip holds the format output.file_format names (set in Options, as the Download button
 * says), for every format; Cancel stops the batch at once, downloads nothing by itself and offers
 * the images already traced.
 */

import assert from 'node:assert/strict';

import { unzipSync } from 'fflate';
import type { Download, Page, Worker } from 'playwright-core';

import { denseShapesPng } from './draw.js';
import { fixturePng, noProblemsCheck, openPage, runCheckList, TIMEOUT } from './harness.js';
import type { Check, CheckResult, E2eContext } from './harness.js';

const batchPanel = (page: Page) => page.getByRole('region', { name: 'Many images' });

/** How each format's file starts (the zip must hold that format, not SVGs named otherwise). */
const FORMAT_START: Readonly<Record<string, RegExp>> = {
  svg: /^<\?xml[\s\S]*<svg/,
  pdf: /^%PDF-/,
  eps: /^%!PS-Adobe-3\.0 EPSF-3\.0/,
  dxf: /^\s*0\r?\nSECTION/,
  png: /^\x89PNG/,
};

async function zipOf(download: Download): Promise<Record<string, Uint8Array>> {
  const { readFile } = await import('node:fs/promises');
  return unzipSync(new Uint8Array(await readFile(await download.path())));
}

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
  {
    name: 'issue 29 item 5: the format chosen in Options (output.file_format, the Download button\'s) is the batch\'s, for every format, with its extension',
    async run(page) {
      const panel = batchPanel(page);
      for (const format of ['pdf', 'eps', 'dxf', 'png', 'svg']) {
        await page.locator('[data-option="output.file_format"] select').selectOption(format);
        await page.getByRole('button', { name: `Download ${format.toUpperCase()}`, exact: true }).waitFor({ timeout: TIMEOUT });
        assert.equal(await panel.getByLabel('Format', { exact: true }).inputValue(), format);
        const [download] = await Promise.all([
          page.waitForEvent('download', { timeout: TIMEOUT }),
          panel.getByLabel('Images to trace', { exact: true }).setInputFiles([{ name: 'one.png', mimeType: 'image/png', buffer: fixturePng }]),
        ]);
        const zip = await zipOf(download);
        assert.deepEqual(Object.keys(zip), [`one.${format}`], format);
        assert.match(Buffer.from(zip[`one.${format}`]!.subarray(0, 64)).toString('latin1'), FORMAT_START[format]!, format);
      }
    },
  },
  {
    name: 'issue 29 item 5: Cancel stops the batch at once (its worker ends, no further image), downloads nothing, and offers the images traced before',
    async run(page) {
      const panel = batchPanel(page);
      await page.locator('[data-option="output.file_format"] select').selectOption('svg');
      const dense = Buffer.from(denseShapesPng());
      // Workers the batch starts (the page's own are running already).
      const started: Worker[] = [];
      const onWorker = (w: Worker) => started.push(w);
      page.on('worker', onWorker);
      let downloads = 0;
      const onDownload = () => downloads++;
      page.on('download', onDownload);
      try {
        // A small image first, then large ones that take seconds each: Cancel comes while one of
        // them is traced.
        await panel.getByLabel('Images to trace', { exact: true }).setInputFiles([
          { name: 'one.png', mimeType: 'image/png', buffer: fixturePng },
          ...[2, 3, 4, 5].map((n) => ({ name: `dense-${n}.png`, mimeType: 'image/png', buffer: dense })),
        ]);
        const message = panel.locator('.batch-message');
        await page.waitForFunction((el) => /Tracing 2 of 5/.test(el?.textContent ?? ''), await message.elementHandle(), { timeout: TIMEOUT });
        assert.ok(started.length > 0, 'the batch runs in a worker of its own');
        const closed = started.map((w) => new Promise<void>((resolve) => w.once('close', () => resolve())));
        const clicked = Date.now();
        await panel.getByRole('button', { name: 'Cancel', exact: true }).click();
        await page.waitForFunction((el) => /^Cancelled/.test(el?.textContent ?? ''), await message.elementHandle(), { timeout: 2000 });
        assert.equal(await message.textContent(), 'Cancelled: 1 traced, 4 not traced. Nothing was downloaded; the traced images can still be saved.');
        // The image in flight is not finished in the background: the batch's worker is stopped.
        await Promise.race([Promise.all(closed), new Promise((_, reject) => setTimeout(() => reject(new Error('the batch worker still runs 2 s after Cancel')), 2000))]);
        assert.ok(Date.now() - clicked < 4000);
        assert.equal(await panel.getByRole('button', { name: 'Cancel', exact: true }).count(), 0);
        assert.equal(downloads, 0, 'Cancel downloads nothing by itself');
        const [download] = await Promise.all([
          page.waitForEvent('download', { timeout: TIMEOUT }),
          panel.getByRole('button', { name: 'Save the 1 traced as a zip', exact: true }).click(),
        ]);
        assert.equal(download.suggestedFilename(), 'tracelab-batch.zip');
        assert.deepEqual(Object.keys(await zipOf(download)), ['one.svg']);
        // A new batch runs normally after a cancelled one.
        const [again] = await Promise.all([
          page.waitForEvent('download', { timeout: TIMEOUT }),
          panel.getByLabel('Images to trace', { exact: true }).setInputFiles([{ name: 'two.png', mimeType: 'image/png', buffer: fixturePng }]),
        ]);
        assert.deepEqual(Object.keys(await zipOf(again)), ['two.svg']);
      } finally {
        page.off('worker', onWorker);
        page.off('download', onDownload);
      }
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
