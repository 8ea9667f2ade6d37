/**
 * End-to-end checks of the playground in a real browser (Debian's Chromium through playwright-core).
 * Run by scripts/e2e.mjs, which builds the site, serves dist/ from a sub-path with `vite preview`,
 * launches the browser and calls `runChecks`. The checks share one page and run in order.
 */

import assert from 'node:assert/strict';

import type { Page } from 'playwright-core';

import { denseShapesPng, scenePng, type Scene } from './draw.js';
import { browserEncode, fetchText, fixturePng, noProblemsCheck, openPage, resultWaiter, runCheckList, stats, status, statusText, TIMEOUT, upload } from './harness.js';
import type { Check, CheckResult, E2eContext } from './harness.js';

/** A PNG cut short inside its first data chunk: a valid signature, then nothing decodable. */
const corruptPng = Buffer.concat([fixturePng.subarray(0, 60), Buffer.from('this is not image data')]);

/** A large noisy picture that takes the tracer a while (for the abort check). */
function slowScene(): Scene {
  const inside = (x: number, y: number) => (Math.sin(x * 0.37) * Math.cos(y * 0.29) + Math.sin((x + y) * 0.11)) > 0.3;
  const blobs = (x: number, y: number) => Math.sin(x * 0.13 + Math.cos(y * 0.07) * 3) > 0.5;
  return {
    width: 600,
    height: 600,
    samples: 2,
    background: [240, 240, 240],
    shapes: [
      { color: [200, 30, 60], inside },
      { color: [30, 90, 200], inside: blobs },
      { color: [20, 160, 90], inside: (x, y) => inside(y, x) && blobs(y, x) },
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// Page helpers

const resultImg = (page: Page) => page.getByRole('img', { name: 'Traced vector result' });

async function resultSrc(page: Page): Promise<string | null> {
  return (await resultImg(page).count()) > 0 ? resultImg(page).getAttribute('src') : null;
}

/** Waits for Done and a result image newer than the last one seen; returns its blob URL. */
const waitForNewResult = resultWaiter();

function countFilledPaths(svg: string): number {
  return [...svg.matchAll(/<(?:path|circle|ellipse|rect)\b[^>]*>/g)].filter((m) => /\sfill="(?!none")/.test(m[0])).length;
}

/** Checks the result image: a rendered SVG blob, never inline SVG in the DOM. Returns the SVG text. */
async function checkResult(page: Page, src: string): Promise<string> {
  const svg = await fetchText(page, src);
  assert.ok(svg.length > 0, 'SVG blob is empty');
  assert.ok(svg.startsWith('<?xml'), `SVG blob starts with ${JSON.stringify(svg.slice(0, 20))}`);
  assert.match(svg, /<svg [^>]*viewBox="0 0 \d+ \d+"/);
  await page.waitForFunction(
    () => (document.querySelector<HTMLImageElement>('img[alt="Traced vector result"]')?.naturalWidth ?? 0) > 0,
    null,
    { timeout: TIMEOUT },
  );
  assert.equal(await page.locator('svg').count(), 0, 'the SVG must not be inlined into the DOM');
  const s = await stats(page);
  // One filled element per shape, except pixel art on its lattice: its fills of one colour share
  // one <path> (src/formats/svg.ts), so there are at most as many elements as shapes.
  if (s.Profile === 'pixel art') assert.ok(Number(s.Shapes) >= countFilledPaths(svg), `stats Shapes ${s.Shapes}`);
  else assert.equal(Number(s.Shapes), countFilledPaths(svg), `stats Shapes ${s.Shapes}`);
  assert.equal(s.Size, `${new TextEncoder().encode(svg).length.toLocaleString('en-US')} bytes`);
  assert.match(s.Profile ?? '', /^(pixel art|flat art|photo|line art)$/);
  // Why the engine chose it: a sentence that ends with the profile it explains (or names the override).
  assert.match(s.Why ?? '', /(pixel art|flat art|photo|line art)$|^chosen by tracelab\.profile$/, `stats Why ${s.Why}`);
  assert.match(s.Time ?? '', /^[\d,]+ ms$/);
  assert.match(s.Nodes ?? '', /^\d+$/, `stats Nodes ${s.Nodes}`);
  return svg;
}

// ---------------------------------------------------------------------------------------------
// The checks

let screenshotPath = '/tmp/tracelab-e2e.png';
/** Trace workers the page started and that ended (terminate() ends one). */
const workers = { started: 0, closed: 0 };
let lastSrc: string | null = null;
let firstSvg = '';

const CHECKS: Check[] = [
  {
    name: 'page loads from a sub-path with labelled, keyboard-reachable controls',
    async run(page) {
      await assert.doesNotReject(page.waitForSelector('text=Tracelab', { timeout: TIMEOUT }));
      assert.equal(await page.title(), 'Tracelab — bitmap to vector');
      assert.equal(await statusText(page), 'Choose an image to trace.');
      assert.equal(await status(page).getAttribute('aria-live'), 'polite');
      assert.equal(await page.getByLabel('processing.max_colors', { exact: true }).inputValue(), '0');
      assert.equal(await page.getByLabel('output.shape_stacking', { exact: true }).inputValue(), 'cutouts');
      assert.equal(await page.getByLabel('output.gap_filler.enabled', { exact: true }).isChecked(), true);
      assert.equal(await page.getByLabel('processing.shapes.min_area_px', { exact: true }).inputValue(), '0.125');
      assert.equal(await page.getByRole('button', { name: 'Download SVG' }).isDisabled(), true);
      // The first two Tabs are the skip links (issue 17); the third lands on the file input (inside the drop zone).
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to the result');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const el = document.activeElement as HTMLInputElement | null;
        return el ? `${el.tagName}:${el.type}` : '';
      });
      assert.equal(focused, 'INPUT:file');
    },
  },
  {
    name: 'upload a PNG → result <img> with a non-empty SVG blob starting with <?xml',
    async run(page) {
      await upload(page, 'fixture.png', fixturePng);
      lastSrc = await waitForNewResult(page);
      firstSvg = await checkResult(page, lastSrc);
      assert.match(firstSvg, /viewBox="0 0 96 80"/);
      const s = await stats(page);
      assert.ok(Number(s.Colours) >= 4, `expected ≥ 4 colours, stats say ${s.Colours}`);
      assert.equal(await page.getByRole('img', { name: 'Input image fixture.png' }).count(), 1);
    },
  },
  {
    name: 'changing max colours traces again (debounced) with the new value',
    async run(page) {
      await page.getByLabel('processing.max_colors', { exact: true }).fill('2');
      const src = await waitForNewResult(page);
      const svg = await checkResult(page, src);
      assert.notEqual(svg, firstSvg, 'the SVG did not change');
      const s = await stats(page);
      assert.ok(Number(s.Colours) <= 2, `max colours 2, stats say ${s.Colours}`);
      // Fast retrace: resize and profile came from the last trace of this image.
      assert.equal(s['Re-ran'], 'from palette');
      lastSrc = src;
      // Keyboard: ArrowUp on the number field is another change → another trace.
      await page.getByLabel('processing.max_colors', { exact: true }).press('ArrowUp');
      assert.equal(await page.getByLabel('processing.max_colors', { exact: true }).inputValue(), '3');
      lastSrc = await waitForNewResult(page);
      assert.ok(Number((await stats(page)).Colours) <= 3);
      // An emptied number field is the default, not an error (issue 29 item 7): no message, the
      // trace is the default one again, the field stays empty while focused and shows 0 after.
      const field = page.getByLabel('processing.max_colors', { exact: true });
      await field.fill('');
      lastSrc = await waitForNewResult(page);
      assert.equal(await fetchText(page, lastSrc), firstSvg);
      assert.equal(await field.getAttribute('aria-invalid'), 'false');
      assert.equal(await page.locator('[data-option="processing.max_colors"] .field-error').count(), 0);
      assert.equal(await field.inputValue(), '');
      await field.blur();
      assert.equal(await field.inputValue(), '0');
    },
  },
  {
    name: 'other controls re-trace: stacking, gap filler, min area',
    async run(page) {
      await page.getByLabel('output.shape_stacking', { exact: true }).selectOption('stacked');
      lastSrc = await waitForNewResult(page);
      assert.equal((await stats(page))['Re-ran'], 'from shapes');
      await page.getByLabel('output.gap_filler.enabled', { exact: true }).uncheck();
      lastSrc = await waitForNewResult(page);
      assert.equal((await stats(page))['Re-ran'], 'the file only');
      const svg = await checkResult(page, lastSrc);
      assert.doesNotMatch(svg, /stroke=/, 'gap filler off: no strokes');
      await page.getByLabel('processing.shapes.min_area_px', { exact: true }).fill('500');
      assert.equal(await page.getByLabel('processing.shapes.min_area_px', { exact: true }).getAttribute('aria-invalid'), 'true');
      assert.match((await page.locator('.field-error').textContent()) ?? '', /processing\.shapes\.min_area_px must be a number in 0…100/);
      await page.getByLabel('processing.shapes.min_area_px', { exact: true }).fill('4');
      lastSrc = await waitForNewResult(page);
      assert.equal((await stats(page))['Re-ran'], 'from regions');
      await page.getByRole('button', { name: 'Reset to defaults' }).click();
      lastSrc = await waitForNewResult(page);
      assert.equal(await page.getByLabel('processing.max_colors', { exact: true }).inputValue(), '0');
      assert.equal(await fetchText(page, lastSrc), firstSvg, 'defaults again → the first result again');
    },
  },
  {
    name: 'a corrupt file shows Error 1006 in the status, and the page still works',
    async run(page) {
      await upload(page, 'broken.png', corruptPng);
      await page.waitForFunction(
        () => document.querySelector('[role="status"]')?.textContent?.startsWith('Error'),
        null,
        { timeout: TIMEOUT },
      );
      const text = await statusText(page);
      assert.match(text, /^Error 1006: Failed to read the supplied image: /);
      assert.equal(await resultImg(page).count(), 0, 'no stale result after an error');
      // One rule for all download buttons: no result, nothing to download (issue 29 item 2).
      const downloadAs = page.getByRole('group', { name: 'Download as' }).getByRole('button');
      assert.equal(await downloadAs.count(), 5);
      const disabled = async (): Promise<boolean[]> => [await page.getByRole('button', { name: 'Download SVG' }).isDisabled(), ...(await Promise.all((await downloadAs.all()).map((b) => b.isDisabled())))];
      assert.deepEqual(await disabled(), [true, true, true, true, true, true]);
      await upload(page, 'fixture-again.png', fixturePng);
      lastSrc = await waitForNewResult(page);
      assert.equal(await fetchText(page, lastSrc), firstSvg);
      assert.deepEqual(await disabled(), [false, false, false, false, false, false]);
    },
  },
  {
    name: 'a newer image cancels the trace still running for an older one; the same worker traces it',
    async run(page) {
      const slowPng = Buffer.from(scenePng(slowScene()));
      await upload(page, 'slow.png', slowPng);
      await page.waitForFunction(() => document.querySelector('[role="status"]')?.textContent === 'Tracing…', null, {
        timeout: TIMEOUT,
      });
      const before = { ...workers };
      await upload(page, 'fixture-3.png', fixturePng);
      lastSrc = await waitForNewResult(page);
      // The busy worker stopped the old trace at its next checkpoint and traced the new image: no
      // worker was terminated or started (the old way cost a cold worker per cancelled trace).
      assert.equal(await fetchText(page, lastSrc), firstSvg);
      await page.waitForTimeout(300); // CDP reports a worker's close a little late
      assert.deepEqual({ closed: workers.closed - before.closed, started: workers.started - before.started }, { closed: 0, started: 0 });
      assert.match((await page.locator('figcaption').first().textContent()) ?? '', /fixture-3\.png/);
      // Let the aborted trace's time pass: a late answer from it must not replace this result.
      await page.waitForTimeout(1500);
      assert.equal(await resultSrc(page), lastSrc);
      assert.equal(await statusText(page), 'Done');
    },
  },
  {
    name: 'WebP (decoder wasm fetched relative to the sub-path) and JPEG made by the browser trace too',
    async run(page) {
      for (const type of ['image/webp', 'image/jpeg']) {
        // The browser re-encodes the fixture: canvas.toBlob gives real WebP / JPEG files.
        const bytes = await browserEncode(page, fixturePng, type);
        const name = type === 'image/webp' ? 'fixture.webp' : 'fixture.jpg';
        const magic = bytes.subarray(0, 4).toString('latin1');
        assert.ok(type === 'image/webp' ? magic === 'RIFF' : magic.startsWith('\xff\xd8'), `${name} starts with ${JSON.stringify(magic)}`);
        await upload(page, name, bytes, type);
        lastSrc = await waitForNewResult(page);
        const svg = await checkResult(page, lastSrc);
        assert.match(svg, /viewBox="0 0 96 80"/, name);
        assert.ok(Number((await stats(page)).Colours) >= 4, `${name}: ${(await stats(page)).Colours} colours`);
      }
    },
  },
  {
    name: 'drag and drop a file onto the drop zone',
    async run(page) {
      const bytes = [...fixturePng];
      const dataTransfer = await page.evaluateHandle((b) => {
        const dt = new DataTransfer();
        dt.items.add(new File([new Uint8Array(b)], 'dropped.png', { type: 'image/png' }));
        return dt;
      }, bytes);
      const zone = page.locator('.dropzone');
      await zone.dispatchEvent('dragenter', { dataTransfer });
      await zone.dispatchEvent('dragover', { dataTransfer });
      await zone.dispatchEvent('drop', { dataTransfer });
      lastSrc = await waitForNewResult(page);
      assert.match((await page.locator('figcaption').first().textContent()) ?? '', /dropped\.png/);
    },
  },
  {
    name: 'a file dropped anywhere on the page (outside the drop zone) loads it too (issue 29 item 6)',
    async run(page) {
      const bytes = [...fixturePng];
      const dataTransfer = await page.evaluateHandle((b) => {
        const dt = new DataTransfer();
        dt.items.add(new File([new Uint8Array(b)], 'dropped-on-page.png', { type: 'image/png' }));
        return dt;
      }, bytes);
      const heading = page.locator('h1').first();
      await heading.dispatchEvent('dragover', { dataTransfer });
      await heading.dispatchEvent('drop', { dataTransfer });
      lastSrc = await waitForNewResult(page);
      assert.match((await page.locator('figcaption').first().textContent()) ?? '', /dropped-on-page\.png/);
    },
  },
  {
    name: '"Try a sample" loads the bundled sample (relative URL) and traces it; screenshot',
    async run(page) {
      await page.getByRole('button', { name: 'Try a sample' }).click();
      lastSrc = await waitForNewResult(page);
      const svg = await checkResult(page, lastSrc);
      assert.match(svg, /viewBox="0 0 128 128"/);
      assert.ok(Number((await stats(page)).Shapes) >= 5);
      await page.waitForFunction(
        () => (document.querySelector<HTMLImageElement>('img[alt^="Input image"]')?.naturalWidth ?? 0) === 128,
        null,
        { timeout: TIMEOUT },
      );
      await page.screenshot({ path: screenshotPath, fullPage: true });
    },
  },
  {
    name: 'Download SVG saves <name>.svg with the traced document',
    async run(page) {
      const [download] = await Promise.all([
        page.waitForEvent('download', { timeout: TIMEOUT }),
        page.getByRole('button', { name: 'Download SVG' }).click(),
      ]);
      assert.equal(download.suggestedFilename(), 'shapes.svg');
      const path = await download.path();
      const { readFile } = await import('node:fs/promises');
      const text = await readFile(path, 'utf8');
      assert.equal(text, await fetchText(page, lastSrc!));
    },
  },
];


/** Runs every check on one page; the last check is "no console errors" over the whole session. */
/**
 * Page start-up (main.tsx loads React DOM and the page in separate chunks, App mounts in steps,
 * the preview worker starts once the page is mounted): each check opens a fresh page of its own.
 */
function startupChecks(ctx: E2eContext): Check[] {
  return [
    {
      name: 'an image chosen the moment the drop zone appears (before the page has finished mounting) is traced',
      async run() {
        const { context, page, problems } = await openPage(ctx, { goto: false });
        try {
          await page.goto(ctx.baseUrl, { waitUntil: 'commit' });
          await upload(page, 'fixture.png', fixturePng);
          const src = await resultWaiter()(page);
          assert.match(await checkResult(page, src), /viewBox="0 0 96 80"/);
          await page.waitForLoadState('networkidle', { timeout: TIMEOUT });
          assert.deepEqual(problems, []);
        } finally {
          await context.close();
        }
      },
    },
    {
      name: 'a 2-MP picture chosen while the page still loads shows its draft first, then the full result (issue 28)',
      async run() {
        const { context, page, problems } = await openPage(ctx, { goto: false });
        try {
          // Every picture the result pane shows, in order, once loaded: drafts have negative trace ids.
          await page.addInitScript(() => {
            const shown: number[] = [];
            (window as unknown as { __shown: number[] }).__shown = shown;
            let last = '';
            new MutationObserver(() => {
              const img = document.querySelector<HTMLImageElement>('img[alt="Traced vector result"]');
              if (!img?.src || `${img.dataset.traceId} ${img.src}` === last) return;
              last = `${img.dataset.traceId} ${img.src}`;
              const id = Number(img.dataset.traceId);
              img.decode().then(() => shown.push(id), () => undefined);
            }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['src', 'data-trace-id'] });
          });
          await page.goto(ctx.baseUrl, { waitUntil: 'commit' });
          await upload(page, 'dense-early.png', Buffer.from(denseShapesPng()));
          await resultWaiter()(page);
          // The finished result is in the pane; wait until its picture is decoded too.
          await page.waitForFunction(() => (window as unknown as { __shown: number[] }).__shown.some((id) => id > 0), null, { timeout: TIMEOUT });
          const shown = await page.evaluate(() => (window as unknown as { __shown: number[] }).__shown);
          assert.ok(shown.length >= 2 && shown[0]! < 0, `a draft first: ${JSON.stringify(shown)}`);
          assert.ok(shown[shown.length - 1]! > 0, `the full result last: ${JSON.stringify(shown)}`);
          assert.match((await stats(page)).Shapes ?? '', /^\d+/);
          await page.waitForLoadState('networkidle', { timeout: TIMEOUT });
          assert.deepEqual(problems, []);
        } finally {
          await context.close();
        }
      },
    },
    {
      name: 'a page chunk that fails to load leaves a readable message, not a blank page',
      async run() {
        const { context, page, problems } = await openPage(ctx, {
          setup: async (c) => {
            await c.route(/\/assets\/App-[\w-]+\.js$/, (route) => route.abort('failed'));
          },
        });
        try {
          await page.waitForFunction(() => (document.getElementById('root')?.textContent ?? '').length > 0, null, { timeout: TIMEOUT });
          assert.match((await page.textContent('#root')) ?? '', /^Tracelab could not load its page code \(.+\)\. Reload the page to try again\.$/);
          // The only problems are the provoked ones: the aborted chunk and its logged error.
          assert.ok(problems.length > 0 && problems.every((p) => /App-[\w-]+\.js|Failed to fetch|dynamically imported module/.test(p)), problems.join('\n'));
        } finally {
          await context.close();
        }
      },
    },
  ];
}

export async function runChecks(ctx: E2eContext, report: (r: CheckResult) => void = () => {}): Promise<CheckResult[]> {
  screenshotPath = ctx.screenshotPath;
  const { context, page, problems } = await openPage(ctx, {
    context: { acceptDownloads: true },
    onWorker: (worker) => {
      workers.started++;
      worker.on('close', () => workers.closed++);
    },
  });
  const results = await runCheckList([...CHECKS, ...startupChecks(ctx), noProblemsCheck(problems)], report, page);
  await context.close();
  return results;
}
