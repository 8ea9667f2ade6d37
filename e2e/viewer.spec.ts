/**
 * Browser checks of the viewer and the palette panel (run by scripts/e2e.mjs, like trace.spec.ts):
 * overlay with a divider moved by keys and by a mouse drag, outline mode, zoom down to single
 * pixels with synchronised panes, pan, and deleting / remapping a colour from the palette panel;
 * tuning a 2-MP picture keeps its result on screen instead of the re-trace's draft (issue 41).
 * Saves screenshots of the overlay and outline views next to ctx.screenshotPath.
 */

import assert from 'node:assert/strict';

import type { Locator, Page } from 'playwright-core';

import { DRAFT_PIXELS } from '../src/worker/protocol.js';
import { denseShapesPng } from './draw.js';
import { fetchText, fixturePng, noProblemsCheck, openPage, resultWaiter, runCheckList, stats, upload } from './harness.js';
import type { Check, CheckResult, E2eContext } from './harness.js';

// ---------------------------------------------------------------------------------------------
// Page helpers

const resultImg = (page: Page) => page.getByRole('img', { name: 'Traced vector result' });
const inputImg = (page: Page) => page.getByRole('img', { name: 'Input image fixture.png' });
const divider = (page: Page) => page.getByRole('slider', { name: 'Overlay divider' });
const paletteField = (page: Page) => page.getByLabel('processing.palette', { exact: true });

/** Waits for Done and a result image newer than the last one seen; returns its blob URL. */
let waitForNewResult = resultWaiter();

async function setMode(page: Page, name: 'Side by side' | 'Overlay' | 'Outline'): Promise<void> {
  await page.getByRole('radio', { name }).check();
  assert.equal(await page.getByRole('radio', { name }).isChecked(), true);
}

async function valueNow(page: Page): Promise<number> {
  return Number(await divider(page).getAttribute('aria-valuenow'));
}

/** Screen px per image px of a pane (data-scale on the viewport). */
async function scaleOf(view: Locator): Promise<number> {
  return Number(await view.getAttribute('data-scale'));
}

/**
 * The fit scale of a pane that was just shown: 0 until the pane has measured its box (a
 * ResizeObserver callback, which can come after the mode switch's commit), so it is awaited.
 */
async function measuredScaleOf(view: Locator): Promise<number> {
  for (let waited = 0; waited < 5000; waited += 20) {
    const scale = await scaleOf(view);
    if (scale > 0) return scale;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return scaleOf(view);
}

/** The transform of a pane's first stage (where the image sits). */
async function stageTransform(view: Locator): Promise<string> {
  return view.locator('.stage').first().evaluate((el) => (el as HTMLElement).style.transform);
}

async function box(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const b = await locator.boundingBox();
  assert.ok(b, 'element has no box');
  return b;
}

function assertSameBox(a: { x: number; y: number; width: number; height: number }, b: typeof a, what: string): void {
  for (const k of ['x', 'y', 'width', 'height'] as const) assert.ok(Math.abs(a[k] - b[k]) <= 1, `${what}: ${k} ${a[k]} vs ${b[k]}`);
}

function countFilledPaths(svg: string): number {
  return [...svg.matchAll(/<(?:path|circle|ellipse|rect|polygon)\b[^>]*>/g)].filter((m) => /\sfill="(?!none")/.test(m[0])).length;
}

/** Hex colours the palette panel lists. */
async function paletteHexes(page: Page): Promise<string[]> {
  return page.getByRole('list', { name: 'Result colours' }).locator('.palette-hex').allTextContents();
}

// ---------------------------------------------------------------------------------------------
// The checks

let screenshotPath = '/tmp/tracelab-e2e-viewer.png';
const shot = (suffix: string) => screenshotPath.replace(/\.png$/, `-${suffix}.png`);

const CHECKS: Check[] = [
  {
    name: 'upload the fixture: side by side shows input and result with Nodes in the stats',
    async run(page) {
      await upload(page, 'fixture.png', fixturePng);
      await waitForNewResult(page);
      assert.equal(await page.getByRole('radio', { name: 'Side by side' }).isChecked(), true);
      assert.equal(await inputImg(page).count(), 1);
      assert.equal(await resultImg(page).count(), 1);
      assert.match((await page.locator('figcaption').first().textContent()) ?? '', /^Input — fixture\.png \([\d,]+ bytes\)$/);
      assert.equal((await page.locator('figcaption').nth(1).textContent()) ?? '', 'Result (SVG) — 96 × 80 px');
      const s = await stats(page);
      assert.ok(Number(s.Nodes) > 0, `Nodes ${s.Nodes}`);
      assert.equal(await page.getByRole('group', { name: 'Result view' }).getAttribute('aria-busy'), 'false');
    },
  },
  {
    name: 'overlay: both images stacked exactly; the divider moves with arrow keys, Home/End and a mouse drag',
    async run(page) {
      await setMode(page, 'Overlay');
      await page.waitForFunction(() => (document.querySelector<HTMLImageElement>('img[alt="Input image fixture.png"]')?.naturalWidth ?? 0) > 0);
      assert.equal(await inputImg(page).count(), 1);
      assert.equal(await resultImg(page).count(), 1);
      assertSameBox(await box(inputImg(page)), await box(resultImg(page)), 'input and result overlap');

      const slider = divider(page);
      assert.equal(await slider.getAttribute('aria-valuemin'), '0');
      assert.equal(await slider.getAttribute('aria-valuemax'), '100');
      const start = await valueNow(page);
      await slider.focus();
      await page.keyboard.press('ArrowRight');
      assert.ok((await valueNow(page)) > start, 'ArrowRight moves the divider right');
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowLeft');
      assert.ok((await valueNow(page)) < start, 'ArrowLeft moves the divider left');
      await page.keyboard.press('Home');
      assert.equal(await valueNow(page), 0);
      await page.keyboard.press('End');
      assert.equal(await valueNow(page), 100);
      // Arrow keys on the slider do not pan the pane.
      const pane = page.getByRole('group', { name: 'Overlay of input and result' });
      const before = await stageTransform(pane);
      await page.keyboard.press('ArrowLeft');
      assert.equal(await stageTransform(pane), before);

      // Mouse drag: grab the handle and drop it at a quarter of the pane's width.
      const paneBox = await box(pane);
      const handle = await box(slider);
      await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
      await page.mouse.down();
      await page.mouse.move(paneBox.x + paneBox.width * 0.3, handle.y + handle.height / 2, { steps: 5 });
      await page.mouse.move(paneBox.x + paneBox.width * 0.25, handle.y + handle.height / 2, { steps: 5 });
      await page.mouse.up();
      const dragged = await valueNow(page);
      assert.ok(Math.abs(dragged - 25) <= 2, `dragged to ${dragged}%`);
      // The input layer is clipped at the divider: its right inset is 100 − 25 %.
      const clip = await pane.locator('.layer').nth(1).evaluate((el) => (el as HTMLElement).style.clipPath);
      assert.match(clip, /inset\(0(px)? 7[45](\.\d+)?% 0(px)? 0(px)?\)/);
      // The drag moved the divider, not the image.
      assert.equal(await stageTransform(pane), before);
      await slider.focus();
      for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowRight');
      await page.screenshot({ path: shot('overlay'), fullPage: true });
    },
  },
  {
    name: 'outline: an <img> of a blob SVG with stroke paths and no fill, over a faded input',
    async run(page) {
      await setMode(page, 'Outline');
      const outline = page.getByRole('img', { name: 'Traced outlines' });
      await page.waitForFunction(() => (document.querySelector<HTMLImageElement>('img[alt="Traced outlines"]')?.naturalWidth ?? 0) > 0);
      const src = (await outline.getAttribute('src')) ?? '';
      assert.match(src, /^blob:/);
      const svg = await fetchText(page, src);
      assert.match(svg, /^<\?xml/);
      const strokes = [...svg.matchAll(/<path\b[^>]*>/g)].filter((m) => /\sstroke="#[0-9a-fA-F]{3,8}"/.test(m[0]) && /\sfill="none"/.test(m[0]));
      assert.ok(strokes.length >= 4, `outline SVG has ${strokes.length} stroke paths`);
      assert.equal(countFilledPaths(svg), 0, 'outline SVG has no filled paths');
      assert.equal(await inputImg(page).count(), 1, 'the input is shown under the outlines');
      const opacity = await inputImg(page).evaluate((el) => getComputedStyle(el.parentElement!).opacity);
      assert.ok(Number(opacity) < 1, `input faded (opacity ${opacity})`);
      assert.equal(await resultImg(page).count(), 0, 'outline mode shows the outlines instead of the filled result');
      assert.equal(await page.locator('svg').count(), 0, 'no inline SVG');
      await page.screenshot({ path: shot('outline'), fullPage: true });
    },
  },
  {
    name: 'zoom to ≥ 32 px per pixel (buttons and keys), synchronised panes, pixelated input, pan with keys, wheel and drag',
    async run(page) {
      await setMode(page, 'Side by side');
      const inputView = page.getByRole('group', { name: 'Input image view' });
      const resultView = page.getByRole('group', { name: 'Result view' });
      const fit = await measuredScaleOf(resultView);
      assert.ok(fit > 0 && fit < 32, `fit scale ${fit}`);

      // Buttons.
      for (let i = 0; i < 8 && (await scaleOf(resultView)) < 32; i++) await page.getByRole('button', { name: 'Zoom in' }).click();
      assert.ok((await scaleOf(resultView)) >= 32, `zoom in reached ${await scaleOf(resultView)}`);
      assert.equal(await scaleOf(inputView), await scaleOf(resultView), 'both panes share the zoom');
      assert.equal(await stageTransform(inputView), await stageTransform(resultView), 'both panes share the centre');
      // One image pixel is ≥ 32 screen px, drawn as hard squares.
      const { width } = await box(inputImg(page));
      assert.ok(width / 96 >= 32, `${width / 96} px per pixel`);
      assert.equal(await inputImg(page).evaluate((el) => getComputedStyle(el).imageRendering), 'pixelated');
      await page.screenshot({ path: shot('zoom') });
      await page.getByRole('button', { name: 'Fit to view' }).click();
      assert.equal(await scaleOf(resultView), fit);

      // Keyboard: + zooms, arrows pan, 0 fits.
      await resultView.focus();
      for (let i = 0; i < 8 && (await scaleOf(resultView)) < 32; i++) await page.keyboard.press('+');
      assert.ok((await scaleOf(resultView)) >= 32, 'keyboard zoom reaches 32 px per pixel');
      const t0 = await stageTransform(resultView);
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowDown');
      const t1 = await stageTransform(resultView);
      assert.notEqual(t1, t0, 'arrow keys pan');
      assert.equal(await stageTransform(inputView), t1, 'the input pane pans along');
      await page.keyboard.press('-');
      assert.ok((await scaleOf(resultView)) < 32, 'keyboard zoom out');
      await page.keyboard.press('0');
      assert.equal(await scaleOf(resultView), fit);
      await page.keyboard.press('1');
      assert.equal(await scaleOf(resultView), 1);

      // Wheel zooms around the cursor; a drag pans.
      const r = await box(resultView);
      await page.mouse.move(r.x + r.width / 2, r.y + r.height / 2);
      await page.mouse.wheel(0, -300);
      await page.waitForFunction(() => Number(document.querySelector('[aria-label="Result view"]')?.getAttribute('data-scale')) > 1);
      const t2 = await stageTransform(resultView);
      await page.mouse.down();
      await page.mouse.move(r.x + r.width / 2 - 60, r.y + r.height / 2 - 40, { steps: 4 });
      await page.mouse.up();
      assert.notEqual(await stageTransform(resultView), t2, 'drag pans');
      assert.equal(await stageTransform(inputView), await stageTransform(resultView));
      await page.getByRole('button', { name: 'Fit to view' }).click();
    },
  },
  {
    name: 'palette: Delete one colour re-traces with one colour fewer and the rule in processing.palette; remap; clear',
    async run(page) {
      const before = Number((await stats(page)).Colours);
      const hexes = await paletteHexes(page);
      assert.ok(hexes.length >= 4, `palette lists ${hexes.join(', ')}`);
      // Not the background (largest area, first): one of the shapes.
      const target = hexes[1]!;
      await page.getByRole('button', { name: `Delete ${target}` }).click();
      const src = await waitForNewResult(page);
      assert.equal(Number((await stats(page)).Colours), before - 1, 'one colour fewer');
      assert.equal(await paletteField(page).inputValue(), `${target}00 ~ 0.02;`);
      assert.ok(!(await paletteHexes(page)).includes(target), `${target} is gone from the palette`);
      assert.ok(!(await fetchText(page, src)).toUpperCase().includes(`FILL="${target}"`), `${target} is gone from the SVG`);
      assert.equal(await page.getByRole('list', { name: 'Palette rules' }).locator('li').count(), 1);

      // Remap another colour through its colour input.
      const other = (await paletteHexes(page))[1]!;
      await page.getByLabel(`Remap ${other} to`).fill('#00ff00');
      await waitForNewResult(page);
      assert.equal(await paletteField(page).inputValue(), `${target}00 ~ 0.02; ${other} -> #00FF00 ~ 0.02;`);
      const remapped = await paletteHexes(page);
      assert.ok(remapped.includes('#00FF00') && !remapped.includes(other), `palette after remap: ${remapped.join(', ')}`);

      // Clear: every colour is back.
      await page.getByRole('button', { name: 'Clear palette rules' }).click();
      await waitForNewResult(page);
      assert.equal(await paletteField(page).inputValue(), '');
      assert.equal(Number((await stats(page)).Colours), before);
      assert.deepEqual(await paletteHexes(page), hexes);
    },
  },
  {
    name: 'a 2-MP image shows a draft while its full trace runs (issue 14); the large result (SVG > LARGE_SVG_BYTES, shown through a 1× PNG) zoomed to 16× is re-rendered sharply for the visible part (issue 17 item 5)',
    async run(page) {
      await upload(page, 'dense.png', Buffer.from(denseShapesPng()));
      // Issue 14: a 2-MP image shows a draft (a small PNG of a shrunk trace) while its full trace runs.
      const draft = await page.waitForFunction(
        () => {
          const img = document.querySelector<HTMLImageElement>('img[alt="Traced vector result"]');
          const caption = document.querySelectorAll('figure.pane figcaption')[1]?.textContent ?? '';
          const status = document.querySelector('[role="status"]')?.textContent?.trim() ?? '';
          return img && img.complete && img.naturalWidth > 0 && /draft traced at/.test(caption)
            ? { caption, status, traceId: Number(img.dataset.traceId), className: img.className, width: img.naturalWidth, height: img.naturalHeight, shown: img.getBoundingClientRect().width, input: document.querySelector('img[alt="Input image dense.png"]')?.getBoundingClientRect().width ?? -1 }
            : false;
        },
        null,
        { timeout: 30_000, polling: 20 },
      );
      const d = (await draft.jsonValue()) as { caption: string; status: string; traceId: number; className: string; width: number; height: number; shown: number; input: number };
      assert.match(d.caption, /^Result \(draft traced at \d+ × \d+ px; the full trace is running\)$/);
      assert.match(d.status, /^Tracing/);
      assert.ok(d.traceId < 0, `a draft is never taken for a finished trace: data-trace-id ${d.traceId}`);
      assert.match(d.className, /\bdraft\b/);
      assert.ok(d.width * d.height <= DRAFT_PIXELS && d.width * d.height > DRAFT_PIXELS / 2, `draft ${d.width}×${d.height}`);
      assert.ok(Math.abs(d.width / d.height - 1600 / 1250) < 0.02, `draft keeps the aspect ratio: ${d.width}×${d.height}`);
      assert.ok(Math.abs(d.shown - d.input) <= 1, `the draft is drawn as large as the input beside it (${d.shown} vs ${d.input} px)`);
      await waitForNewResult(page);
      const caption = page.locator('figure.pane figcaption').nth(1);
      assert.match((await caption.textContent()) ?? '', /shown as a 1× PNG preview/, 'says plainly that a preview bitmap is shown');
      assert.equal(await page.locator('canvas.sharp-view').count(), 0, 'fitted (below 1:1): the 1× preview is sharp enough');
      // The 1× preview (painted by the worker's canvas) is a picture of the trace: at the input's
      // size, and at a grid of points its colour is the input's there (shapes in the right place).
      const match = await page.evaluate(async () => {
        const load = async (alt: string) => {
          const img = document.querySelector<HTMLImageElement>(`img[alt="${alt}"]`)!;
          const bitmap = await createImageBitmap(await (await fetch(img.src)).blob());
          const c = new OffscreenCanvas(bitmap.width, bitmap.height);
          const ctx = c.getContext('2d')!;
          ctx.drawImage(bitmap, 0, 0);
          return { width: bitmap.width, height: bitmap.height, data: ctx.getImageData(0, 0, bitmap.width, bitmap.height).data };
        };
        const input = await load('Input image dense.png');
        const preview = await load('Traced vector result');
        let close = 0;
        let total = 0;
        // Points inside a shape or the background (a flat 5 × 5 neighbourhood in the input): on an
        // edge the trace may sit a fraction of a pixel away, which says nothing about the painter.
        const flat = (x: number, y: number) => {
          const o = (y * input.width + x) * 4;
          for (let dy = -2; dy <= 2; dy++) {
            for (let dx = -2; dx <= 2; dx++) {
              const p = ((y + dy) * input.width + x + dx) * 4;
              if (input.data[p] !== input.data[o] || input.data[p + 1] !== input.data[o + 1] || input.data[p + 2] !== input.data[o + 2]) return false;
            }
          }
          return true;
        };
        for (let y = 5; y < input.height - 5; y += 7) {
          for (let x = 5; x < input.width - 5; x += 5) {
            if (!flat(x, y)) continue;
            const o = (y * input.width + x) * 4;
            const d = Math.abs(input.data[o]! - preview.data[o]!) + Math.abs(input.data[o + 1]! - preview.data[o + 1]!) + Math.abs(input.data[o + 2]! - preview.data[o + 2]!);
            total++;
            if (d <= 30) close++;
          }
        }
        return { size: [preview.width, preview.height, input.width, input.height], close: close / total, total };
      });
      assert.deepEqual(match.size.slice(0, 2), match.size.slice(2), 'the preview has the input size');
      assert.ok(match.total > 10_000 && match.close >= 0.99, `the preview matches the input at ${(match.close * 100).toFixed(2)} % of ${match.total} flat grid points`);
      const resultView = page.getByRole('group', { name: 'Result view' });
      for (let i = 0; i < 10 && (await scaleOf(resultView)) < 16; i++) await page.getByRole('button', { name: 'Zoom in' }).click();
      const scale = await scaleOf(resultView);
      assert.ok(scale >= 16, `zoomed to ${scale}`);
      const canvas = page.locator('canvas.sharp-view');
      await canvas.waitFor({ timeout: 15_000 });
      await page.waitForFunction(() => /rendered sharp/.test(document.querySelectorAll('figure.pane figcaption')[1]?.textContent ?? ''));
      const box = await canvas.evaluate((el) => {
        const c = el as HTMLCanvasElement;
        const r = c.getBoundingClientRect();
        const pane = c.closest('.viewport')!.getBoundingClientRect();
        return { backing: c.width, cssWidth: r.width, dpr: window.devicePixelRatio, zoom: Number(c.dataset.zoom), covers: r.left <= pane.left + 1 && r.right >= pane.right - 1 && r.top <= pane.top + 1 && r.bottom >= pane.bottom - 1 };
      });
      // At least one canvas pixel per device pixel: curves, not a 1× bitmap blown up 16 times.
      assert.ok(box.backing >= box.cssWidth * box.dpr - 1, JSON.stringify(box));
      assert.ok(box.zoom >= 16, JSON.stringify(box));
      assert.ok(box.covers, `the sharp view covers the pane: ${JSON.stringify(box)}`);
      // Its pixels are the trace's edges: along a row there are hard steps, at most a couple of
      // partly covered pixels per edge (a 16× enlarged bitmap ramps over ~16).
      const ramp = await canvas.evaluate((el) => {
        const c = el as HTMLCanvasElement;
        const row = c.getContext('2d')!.getImageData(0, Math.floor(c.height / 2), c.width, 1).data;
        let longest = 0;
        let run = 0;
        for (let x = 1; x < c.width; x++) {
          const d = Math.abs(row[x * 4]! - row[(x - 1) * 4]!) + Math.abs(row[x * 4 + 1]! - row[(x - 1) * 4 + 1]!) + Math.abs(row[x * 4 + 2]! - row[(x - 1) * 4 + 2]!);
          run = d > 6 ? run + 1 : 0;
          longest = Math.max(longest, run);
        }
        return longest;
      });
      assert.ok(ramp <= 4, `an edge ramps over ${ramp} px`);
      await page.screenshot({ path: shot('sharp-zoom') });
      await page.getByRole('button', { name: 'Fit to view' }).click();
      await page.waitForFunction(() => document.querySelector('canvas.sharp-view') === null);
    },
  },
  {
    name: 'issue 29 item 8: zoomed again, the caption says "rendered sharp" only once the sharp view of the new zoom is drawn, not over the older one',
    async run(page) {
      // The large result of the check before is on screen, fitted. Every change of the page is
      // logged with the caption, the zoom of the sharp view drawn and the pane's scale (dpr 1:
      // a sharp view of the current zoom has data-zoom = scale).
      await page.evaluate(() => {
        const log: { caption: string; drawn: number | null; scale: number }[] = [];
        (window as unknown as { sharpLog: typeof log }).sharpLog = log;
        const note = () => {
          const canvas = document.querySelector<HTMLCanvasElement>('canvas.sharp-view');
          log.push({
            caption: document.querySelectorAll('figure.pane figcaption')[1]?.textContent ?? '',
            drawn: canvas ? Number(canvas.dataset.zoom) : null,
            scale: Number(document.querySelector('[aria-label="Result view"]')?.getAttribute('data-scale')),
          });
        };
        new MutationObserver(note).observe(document.querySelector('.viewer')!, { subtree: true, childList: true, attributes: true, characterData: true });
      });
      const resultView = page.getByRole('group', { name: 'Result view' });
      const sharpAt = (scale: number) =>
        page.waitForFunction(
          (s) => {
            const canvas = document.querySelector<HTMLCanvasElement>('canvas.sharp-view');
            return canvas !== null && Math.abs(Number(canvas.dataset.zoom) - s) < 1e-9 && /rendered sharp/.test(document.querySelectorAll('figure.pane figcaption')[1]?.textContent ?? '');
          },
          scale,
          { timeout: 15_000 },
        );
      for (let i = 0; i < 10 && (await scaleOf(resultView)) < 4; i++) await page.getByRole('button', { name: 'Zoom in' }).click();
      const first = await scaleOf(resultView);
      await sharpAt(first);
      await page.getByRole('button', { name: 'Zoom in' }).click();
      const second = await scaleOf(resultView);
      assert.ok(second > first, `${second} > ${first}`);
      await sharpAt(second);
      const log = await page.evaluate(() => (window as unknown as { sharpLog: { caption: string; drawn: number | null; scale: number }[] }).sharpLog);
      const early = log.filter((e) => /rendered sharp/.test(e.caption) && (e.drawn === null || Math.abs(e.drawn - e.scale) > 1e-9));
      assert.deepEqual(early, [], 'said "rendered sharp" while the sharp view drawn was of another zoom (or none)');
      // Meanwhile the caption said the zoomed view was being sharpened.
      assert.ok(log.some((e) => e.scale === second && /sharpening…/.test(e.caption)), JSON.stringify(log.slice(0, 12)));
      await page.getByRole('button', { name: 'Fit to view' }).click();
      await page.waitForFunction(() => document.querySelector('canvas.sharp-view') === null);
    },
  },
];

/** What the result pane showed in one animation frame (paneLog). */
interface PaneFrame {
  /** data-trace-id of the result image (negative: a draft; 0: no image). */
  readonly id: number;
  readonly className: string;
  readonly status: string;
  /** The "Updating… N %" badge over a kept result, or null. */
  readonly badge: string | null;
  /** The result bar's progress bar is there. */
  readonly progress: boolean;
}

/** Starts recording what the result pane shows at every animation frame (window.__paneLog). */
async function startPaneLog(page: Page): Promise<void> {
  await page.evaluate(() => {
    const log: unknown[] = [];
    const w = window as unknown as { __paneLog?: unknown[] };
    w.__paneLog = log;
    const tick = () => {
      if (w.__paneLog !== log) return;
      const img = document.querySelector<HTMLImageElement>('img[alt="Traced vector result"]');
      log.push({
        id: Number(img?.dataset.traceId ?? 0),
        className: img?.className ?? '',
        status: document.querySelector('[role="status"]')?.textContent?.trim() ?? '',
        badge: document.querySelector('.badge.updating')?.textContent ?? null,
        progress: document.querySelector('progress[aria-label="Trace progress"]') !== null,
      });
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

/** Stops the recording and returns it. */
async function stopPaneLog(page: Page): Promise<PaneFrame[]> {
  return page.evaluate(() => {
    const w = window as unknown as { __paneLog?: PaneFrame[] };
    const log = w.__paneLog ?? [];
    delete w.__paneLog;
    return log;
  });
}

/**
 * Issue 41 item 5, on a page of its own (a fresh worker: nothing of the picture is cached, so each
 * trace below makes a draft): a 2-MP picture's first trace shows its draft; changing an option
 * keeps the finished result on screen, dimmed, with "Updating… N %" over it and the progress bar,
 * until the new result replaces it — the draft of the re-trace is never swapped in.
 */
function tuningChecks(): Check[] {
  const nextResult = resultWaiter();
  return [
    {
      name: "tuning a 2-MP picture keeps its result on screen, dimmed with progress, until the new one is ready; no draft is swapped in (issue 41 item 5); a new picture's first trace still shows its draft",
      async run(page) {
        await startPaneLog(page);
        await upload(page, 'dense.png', Buffer.from(denseShapesPng()));
        await nextResult(page);
        const first = await stopPaneLog(page);
        assert.ok(first.some((f) => f.id < 0 && /\bdraft\b/.test(f.className)), `the first trace of a new picture shows its draft: ${JSON.stringify(first.filter((f) => f.id !== 0).slice(0, 3))}`);
        const shown = Number(await resultImg(page).getAttribute('data-trace-id'));
        assert.ok(shown > 0);

        await startPaneLog(page);
        await page.locator('[data-option="processing.max_colors"] input').fill('5');
        const src = await nextResult(page);
        const frames = await stopPaneLog(page);
        const tracing = frames.filter((f) => f.status.startsWith('Tracing'));
        assert.ok(tracing.length > 0, 'the re-trace ran while recorded');
        const other = tracing.filter((f) => f.id !== shown);
        assert.deepEqual(other.slice(0, 3), [], `while re-tracing, the pane kept result ${shown} (a negative id is the draft)`);
        assert.ok(tracing.every((f) => /\bstale\b/.test(f.className)), 'the kept result is dimmed');
        assert.ok(tracing.some((f) => f.progress && /^Updating… \d+ %$/.test(f.badge ?? '')), `progress is shown: ${JSON.stringify(tracing.slice(-2))}`);
        // The new result replaced it, undimmed, without the badge.
        assert.ok(src.startsWith('blob:'));
        assert.doesNotMatch((await resultImg(page).getAttribute('class')) ?? '', /stale|draft/);
        assert.equal(await page.locator('.badge.updating').count(), 0);
      },
    },
  ];
}

/** Runs every check on one page; the last check is "no console errors" over the whole session. */
export async function runChecks(ctx: E2eContext, report: (r: CheckResult) => void = () => {}): Promise<CheckResult[]> {
  screenshotPath = ctx.screenshotPath;
  waitForNewResult = resultWaiter();
  const results: CheckResult[] = [];
  {
    const { context, page, problems } = await openPage(ctx, { workers: false });
    results.push(...(await runCheckList([...CHECKS, noProblemsCheck(problems)], report, page)));
    await context.close();
  }
  {
    const { context, page, problems } = await openPage(ctx, { workers: false });
    results.push(...(await runCheckList([...tuningChecks(), noProblemsCheck(problems, 'tuning: no console errors, page errors or failed requests')], report, page)));
    await context.close();
  }
  return results;
}
