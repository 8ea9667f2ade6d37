/**
 * The Tracelab extensions (tracelab.*) in the playground, in Chromium (run by scripts/e2e.mjs
 * `--spec extensions`):
 *   - the options panel shows them as a group of their own whose title and note say they are not
 *     part of the Vectorizer.AI API, at 1280 × 800 (open) and 390 × 844 (folded, opens on tap);
 *   - turning tracelab.gradients on traces again with it: a new trace, the share link and the
 *     address bar carry it (a reload keeps it), the CLI snippet keeps it and the curl snippet for
 *     Vectorizer.AI leaves it out with a comment; the picture's ramp and disc come back as one
 *     gradient shape each, consistent with the stats line and the palette panel (gradient
 *     elements in the SVG ⇔ "Gradients: N" ⇔ the Gradients row), byte-identical to the shared
 *     pipeline run in Node (CLI, server, library); turning it off gives the first result back
 *     byte for byte (the defaults are the API's), also the same as Node's;
 *   - choosing a preset (Logo, then Defaults) keeps tracelab.gradients ticked and its gradient
 *     fills, and the picker names what it kept (issue 41 item 3);
 *   - tracelab.strokes=centerline on a drawing of three lines: pen strokes, the same SVG as Node,
 *     "Strokes: 3" and the pen lengths in the stats line, and the Outline mode is the plot preview.
 * The remote panel's "Not sent to Vectorizer.AI" note is checked in remote.spec.ts, next to its
 * fake service.
 */

import assert from 'node:assert/strict';

import { encode } from 'fast-png';
import type { Page } from 'playwright-core';

import { planVectorize, runVectorize } from '../src/api/pipeline.js';
import { fetchText, noProblemsCheck, openPage, runCheckList, stats, upload, waitForTrace } from './harness.js';
import type { Check, CheckResult, E2eContext, Report } from './harness.js';

/**
 * A smoothly shaded picture: a rectangle with a horizontal blue-to-orange ramp and a disc with a
 * radial light-to-dark-red ramp on white, anti-aliased (4 × 4 samples) — what tracelab.gradients
 * is for: the engine finds a gradient in each.
 */
function shadedPng(): Buffer {
  const width = 160;
  const height = 100;
  const data = new Uint8Array(width * height * 4);
  const paint = (x: number, y: number): [number, number, number] => {
    if (x >= 10 && x <= 80 && y >= 15 && y <= 85) {
      const t = (x - 10) / 70;
      return [40 + 210 * t, 90 + 80 * t, 200 - 140 * t];
    }
    const d = Math.hypot(x - 120, y - 50);
    if (d <= 32) {
      const t = d / 32;
      return [255 - 100 * t, 235 - 195 * t, 190 - 160 * t];
    }
    return [255, 255, 255];
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const sum = [0, 0, 0];
      for (let sy = 0; sy < 4; sy++) for (let sx = 0; sx < 4; sx++) paint(x + (sx + 0.5) / 4, y + (sy + 0.5) / 4).forEach((v, c) => (sum[c]! += v));
      const i = (y * width + x) * 4;
      for (let c = 0; c < 3; c++) data[i + c] = Math.round(sum[c]! / 16);
      data[i + 3] = 255;
    }
  }
  return Buffer.from(encode({ width, height, data, channels: 4 }));
}

/** Three 3-px black lines on white, anti-aliased (4 × 4 samples): what tracelab.strokes=centerline is for. */
function linesPng(): Buffer {
  const width = 120;
  const height = 80;
  const data = new Uint8Array(width * height * 4);
  const ink = (x: number, y: number): boolean =>
    (Math.abs(y - 15) <= 1.5 && x >= 10 && x <= 110) || (Math.abs(x - 20) <= 1.5 && y >= 30 && y <= 70) || (Math.abs(x - y - 30) <= 2.1 && x >= 60 && x <= 100);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let covered = 0;
      for (let sy = 0; sy < 4; sy++) for (let sx = 0; sx < 4; sx++) if (ink(x + (sx + 0.5) / 4, y + (sy + 0.5) / 4)) covered++;
      const v = Math.round(255 * (1 - covered / 16));
      data.set([v, v, v, 255], (y * width + x) * 4);
    }
  }
  return Buffer.from(encode({ width, height, data, channels: 4 }));
}

const GROUP_TITLE = 'Tracelab extensions (not part of the Vectorizer.AI API)';
const NOTE = /^Tracelab only: the real service does not have these; remote calls and code snippets for it leave them out\.$/;

const group = (page: Page) => page.locator('details.option-group[data-group="tracelab"]');
const gradientsBox = (page: Page) => page.getByLabel('tracelab.gradients', { exact: true });

/** Gradient fills in an SVG: the <path> (or shape) elements painted with url(#…). */
function gradientFills(svg: string): number {
  return [...svg.matchAll(/<(?:path|circle|ellipse|rect)\b[^>]*\sfill="url\(#[^"]+\)"/g)].length;
}

async function snippet(page: Page, tab: 'CLI' | 'curl', server?: 'local' | 'remote'): Promise<string> {
  await page.getByRole('tab', { name: tab, exact: true }).click();
  if (server) await page.getByLabel('API server', { exact: true }).selectOption(server);
  return (await page.getByTestId('snippet').textContent()) ?? '';
}

/**
 * The result, the stats line and the palette panel tell the same story about gradients: with
 * none in the SVG there is no "Gradients" stat and no Gradients row; with some, both count them.
 */
async function assertGradientsConsistent(page: Page, svg: string): Promise<number> {
  const fills = gradientFills(svg);
  const line = await stats(page);
  const row = page.getByRole('list', { name: 'Gradients', exact: true });
  if (fills === 0) {
    assert.equal(line.Gradients, undefined, 'no gradient in the SVG, yet the stats line names some');
    assert.equal(await row.count(), 0, 'no gradient in the SVG, yet the palette panel shows a Gradients row');
    assert.doesNotMatch(svg, /<(linear|radial)Gradient\b/);
  } else {
    assert.equal(Number(line.Gradients), fills, `stats Gradients ${line.Gradients}, SVG fills ${fills}`);
    assert.ok((await row.getByRole('img').count()) > 0, 'the palette panel shows the gradient swatches');
  }
  return fills;
}

export async function runChecks(ctx: E2eContext, report: Report): Promise<CheckResult[]> {
  const results: CheckResult[] = [];

  // ---- 1280 × 800 ----
  {
    const { context, page, problems } = await openPage(ctx, { context: { viewport: { width: 1280, height: 800 } } });
    let lastId = 0;
    let firstSvg = '';
    const checks: Check[] = [
      {
        name: '1280 px: the extension group is its own, open, titled and noted as not part of the API; tracelab.gradients is off, tracelab.profile on auto',
        async run() {
          await group(page).waitFor();
          assert.equal(await group(page).getAttribute('open'), '');
          assert.equal(((await group(page).locator('summary').textContent()) ?? '').trim(), GROUP_TITLE);
          const note = group(page).locator('.group-note');
          assert.ok(await note.isVisible());
          assert.match(((await note.textContent()) ?? '').trim(), NOTE);
          assert.equal(await group(page).getAttribute('aria-describedby'), await note.getAttribute('id'));
          assert.equal(await gradientsBox(page).isChecked(), false);
          // It is the last group, after every API group, and holds only extensions.
          const groups = await page.locator('details.option-group').evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.group));
          assert.equal(groups.at(-1), 'tracelab');
          const names = await group(page).locator('[data-option]').evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.option));
          assert.ok(names.length > 0 && names.every((n) => n!.startsWith('tracelab.')), names.join(', '));
          // tracelab.profile: a list of auto and the four profiles, on auto.
          const profile = page.getByLabel('tracelab.profile', { exact: true });
          assert.equal(await profile.inputValue(), 'auto');
          assert.deepEqual(await profile.locator('option').evaluateAll((els) => els.map((el) => (el as HTMLOptionElement).value)), ['auto', 'pixel', 'flat', 'photo', 'lineart']);
        },
      },
      {
        name: '1280 px: turning tracelab.gradients on traces again with it (share link, snippets; SVG, stats and palette agree); off gives the API result back',
        async run() {
          await upload(page, 'shaded.png', shadedPng());
          const first = await waitForTrace(page, lastId, { rendered: true });
          lastId = first.id;
          firstSvg = await fetchText(page, first.src);
          assert.equal(await assertGradientsConsistent(page, firstSvg), 0, 'extension off: no gradient fills (the API has none)');
          const nodeOff = await runVectorize(planVectorize([]), new Uint8Array(shadedPng()));
          assert.equal(firstSvg, new TextDecoder().decode(nodeOff.body), 'the page and Node write the same SVG (bands)');

          await gradientsBox(page).check();
          const on = await waitForTrace(page, lastId, { rendered: true });
          assert.ok(on.id > lastId, 'a new trace ran');
          lastId = on.id;
          const svg = await fetchText(page, on.src);
          const fills = await assertGradientsConsistent(page, svg);
          assert.equal(fills, 2, 'the ramp and the disc are one gradient shape each');
          // The same bytes as the shared pipeline in Node (the CLI's, the server's, the library's).
          const node = await runVectorize(planVectorize([['tracelab.gradients', 'true']]), new Uint8Array(shadedPng()));
          assert.equal(svg, new TextDecoder().decode(node.body), 'the page and Node write the same SVG');

          // The request carries it: the address bar and the share link hold it, and the snippets.
          const hash = decodeURIComponent(decodeURIComponent(new URL(page.url()).hash));
          assert.match(hash, /^#o=tracelab\.gradients=true$/);
          assert.equal(await page.getByLabel('Share link', { exact: true }).inputValue(), page.url());
          const cli = await snippet(page, 'CLI');
          assert.match(cli, /--param tracelab\.gradients=true/);
          assert.match(cli, /^# With --remote to Vectorizer\.AI, tracelab\.gradients is left out \(Tracelab only\)\.$/m);
          const local = await snippet(page, 'curl', 'local');
          assert.match(local, /-F tracelab\.gradients=true/);
          const remote = await snippet(page, 'curl', 'remote');
          assert.doesNotMatch(remote, /-F tracelab\./);
          assert.match(remote, /^# Not sent to Vectorizer\.AI: tracelab\.gradients \(a Tracelab extension\)\.$/m);

          await gradientsBox(page).uncheck();
          const off = await waitForTrace(page, lastId, { rendered: true });
          lastId = off.id;
          assert.equal(await fetchText(page, off.src), firstSvg, 'extension off again: the first result, byte for byte');
          assert.equal(new URL(page.url()).hash, '');
        },
      },
      {
        name: '1280 px: tracelab.strokes=centerline traces a drawing to pen strokes (the same SVG as Node), the stats give the pen lengths, Outline is the plot preview',
        async run() {
          await upload(page, 'lines.png', linesPng());
          const before = await waitForTrace(page, lastId, { rendered: true });
          lastId = before.id;
          await page.getByLabel('tracelab.strokes', { exact: true }).selectOption('centerline');
          const traced = await waitForTrace(page, lastId, { rendered: true });
          lastId = traced.id;
          const svg = await fetchText(page, traced.src);
          assert.match(svg, /<g id="pen-000000" fill="none" stroke="#000"/);
          const node = await runVectorize(planVectorize([['tracelab.strokes', 'centerline']]), new Uint8Array(linesPng()));
          assert.equal(svg, new TextDecoder().decode(node.body), 'the page and Node write the same SVG');
          const line = await stats(page);
          assert.equal(line['Strokes'], '3');
          assert.equal(line['Shapes'], '0');
          assert.match(line['Pen up'] ?? '', /^\d[\d,]* px$/);
          await page.getByRole('radio', { name: 'Outline' }).check();
          await page.waitForFunction(() => (document.querySelector<HTMLImageElement>('img[alt="Traced outlines"]')?.naturalWidth ?? 0) > 0);
          const preview = await fetchText(page, (await page.getByRole('img', { name: 'Traced outlines' }).getAttribute('src')) ?? '');
          assert.match(preview, /<path id="pen-up" [^>]*stroke-dasharray="3 3"/);
          await page.getByRole('radio', { name: 'Side by side' }).check();
          await page.getByLabel('tracelab.strokes', { exact: true }).selectOption('none');
          lastId = (await waitForTrace(page, lastId, { rendered: true })).id;
        },
      },
      {
        name: '1280 px: a reload keeps tracelab.gradients from the address bar (checked, group open)',
        async run() {
          await gradientsBox(page).check();
          await page.waitForFunction(() => window.location.hash.includes('tracelab.gradients'));
          await page.reload({ waitUntil: 'load' });
          await group(page).waitFor();
          assert.equal(await gradientsBox(page).isChecked(), true);
          assert.equal(await group(page).getAttribute('open'), '');
        },
      },
      {
        name: '1280 px: with tracelab.gradients ticked, choosing the Logo preset keeps the box ticked and the gradient fills, and the picker says it kept it (issue 41 item 3)',
        async run() {
          // After the reload above: the box is ticked, no picture yet, trace ids start again.
          assert.equal(await gradientsBox(page).isChecked(), true);
          lastId = 0;
          await upload(page, 'shaded.png', shadedPng());
          lastId = (await waitForTrace(page, lastId, { rendered: true })).id;
          const preset = page.getByLabel('Preset', { exact: true });
          await preset.selectOption('logo');
          const logo = await waitForTrace(page, lastId, { rendered: true });
          lastId = logo.id;
          assert.equal(await gradientsBox(page).isChecked(), true, 'the Logo preset left tracelab.gradients ticked');
          assert.equal(await preset.inputValue(), 'logo');
          assert.equal(await page.locator('[data-option="processing.max_colors"] input').inputValue(), '8', 'the preset set its own fields');
          const svg = await fetchText(page, logo.src);
          assert.equal(await assertGradientsConsistent(page, svg), 2, 'the ramp and the disc stay gradient fills');
          const node = await runVectorize(planVectorize([['processing.max_colors', '8'], ['processing.shapes.min_area_px', '4'], ['tracelab.gradients', 'true']]), new Uint8Array(shadedPng()));
          assert.equal(svg, new TextDecoder().decode(node.body), 'the page traced with the Logo values and the extension');
          assert.equal(((await page.getByTestId('preset-kept').textContent()) ?? '').trim(), 'Presets keep your tracelab.gradients=true.');
          // Defaults (no preset) keeps it too.
          await preset.selectOption('defaults');
          lastId = (await waitForTrace(page, lastId, { rendered: true })).id;
          assert.equal(await gradientsBox(page).isChecked(), true, 'Defaults left tracelab.gradients ticked');
          assert.match(decodeURIComponent(decodeURIComponent(new URL(page.url()).hash)), /^#o=tracelab\.gradients=true$/);
        },
      },
      noProblemsCheck(problems),
    ];
    results.push(...(await runCheckList(checks, report, page)));
    await context.close();
  }

  // ---- 390 × 844 ----
  {
    const { context, page, problems } = await openPage(ctx, { context: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } });
    const checks: Check[] = [
      {
        name: '390 px: the extension group starts folded with its title visible; tapped open it shows the note and the option inside the screen width',
        async run() {
          await group(page).waitFor();
          assert.equal(await group(page).getAttribute('open'), null);
          const summary = group(page).locator('summary');
          await summary.scrollIntoViewIfNeeded();
          assert.equal(((await summary.textContent()) ?? '').trim(), GROUP_TITLE);
          await summary.tap();
          assert.equal(await group(page).getAttribute('open'), '');
          const note = group(page).locator('.group-note');
          assert.match(((await note.textContent()) ?? '').trim(), NOTE);
          for (const el of [summary, note, gradientsBox(page), page.locator('[data-option="tracelab.gradients"] label')]) {
            const box = await el.boundingBox();
            assert.ok(box !== null && box.x >= 0 && box.x + box.width <= 390, `inside the screen: ${JSON.stringify(box)}`);
          }
          const sideways = await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
          assert.equal(sideways, false, 'the page does not scroll sideways');
        },
      },
      noProblemsCheck(problems),
    ];
    results.push(...(await runCheckList(checks, report, page)));
    await context.close();
  }
  return results;
}
