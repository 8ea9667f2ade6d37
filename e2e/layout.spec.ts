/**
 * Layout checks of the playground at phone and desktop widths (issue 17, run by scripts/e2e.mjs
 * `--spec layout`). Measured with element boxes, not screenshots: at 320, 390 and 1280 px, with a
 * trace done, every option group open and the service panels shown,
 *   - the page does not scroll sideways (documentElement scrollWidth ≤ clientWidth);
 *   - no card (section, option group, form) is wider inside than its box (scrollWidth ≤ clientWidth);
 *   - every option's checkbox and label lie inside the sidebar's visible box (item 1: the long
 *     parameter names of "Parameterized shape detection" pushed them out);
 *   - the docs link of the real-service panel answers 200 (item 7);
 *   - after loading a sample the whole result pane is on the first screen without the visitor scrolling, and the
 *     local service, real service, snippet and batch panels come after it, folded on a phone
 *     (issue 29 item 1: the result pane was 1.6 screens down at 390 × 844);
 *   - on small phones (375 × 667, 360 × 640, 320 × 658, 320 × 568, 390 × 844, touch, 2× pixels),
 *     after choosing a file the whole result pane and the status line are on screen (issue 41
 *     item 1: 0–4 % of the pane was visible at 375 × 667, 360 × 640 and 320 × 658).
 */

import assert from 'node:assert/strict';

import type { Page } from 'playwright-core';

import { fixturePng, noProblemsCheck, openPage, resultWaiter, runCheckList, upload, waitForDone } from './harness.js';
import type { Check, CheckResult, E2eContext, Report } from './harness.js';

const WIDTHS = [320, 390, 1280] as const;
/** Phone screens (CSS px) the result must be in view on after choosing a file (issue 41 item 1). */
const PHONES = [
  { width: 375, height: 667 },
  { width: 360, height: 640 },
  { width: 320, height: 658 },
  { width: 320, height: 568 },
  { width: 390, height: 844 },
] as const;
/** What the view-order check measures: the input bar, the status, the viewer, the presets, the options form. */
const MEASURED = ['.input-bar', '[role="status"]', '.viewer', '.presets', 'form.options'];
/** The panels under the viewer that a visitor who only traces does not need. */
const PANEL_TITLES = ['Local service', 'Real service (Vectorizer.AI)', 'Reproduce this result', 'Many images'];

/** Open every <details> and every folded panel (FoldingSection) so every option and card is laid out. */
async function openAll(page: Page): Promise<void> {
  await page.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)));
  const folded = page.locator('.fold-toggle[aria-expanded="false"]');
  while ((await folded.count()) > 0) await folded.first().click();
}

interface Overflow {
  readonly what: string;
  readonly scrollWidth: number;
  readonly clientWidth: number;
}

/** Cards whose content is wider than their box, and the page itself when it scrolls sideways. */
async function overflows(page: Page): Promise<Overflow[]> {
  return page.evaluate(() => {
    const out: { what: string; scrollWidth: number; clientWidth: number }[] = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > doc.clientWidth) out.push({ what: 'page', scrollWidth: doc.scrollWidth, clientWidth: doc.clientWidth });
    const name = (el: Element) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}[${el.getAttribute('aria-label') ?? el.querySelector('summary, h2, h3')?.textContent?.trim().slice(0, 40) ?? ''}]`;
    for (const el of document.querySelectorAll('main section, main details, main form, main fieldset, .sidebar, .field, .option-grid')) {
      const box = el.getBoundingClientRect();
      if (box.width === 0) continue;
      if (el.scrollWidth > el.clientWidth + 1) out.push({ what: name(el), scrollWidth: el.scrollWidth, clientWidth: el.clientWidth });
    }
    return out;
  });
}

/** Option checkboxes and labels whose box reaches past the sidebar's visible box. */
async function optionsOutside(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const options = document.querySelector('form.options');
    if (!options) return ['no options form'];
    const bounds = options.getBoundingClientRect();
    const out: string[] = [];
    for (const el of options.querySelectorAll('.field input, .field label, .field select')) {
      const box = el.getBoundingClientRect();
      if (box.width === 0) continue;
      if (box.left < bounds.left - 1 || box.right > bounds.right + 1) {
        out.push(`${el.closest('[data-option]')?.getAttribute('data-option')} ${el.tagName.toLowerCase()} ${Math.round(box.left)}…${Math.round(box.right)} outside ${Math.round(bounds.left)}…${Math.round(bounds.right)}`);
      }
    }
    return out;
  });
}

/** Where the status line and the result pane lie on the screen (window coordinates), and the screen's height. */
async function resultOnScreen(page: Page) {
  return page.evaluate(() => {
    const pane = document.querySelector('[aria-label="Result view"]')!.closest('figure')!.getBoundingClientRect();
    const status = document.querySelector('[role="status"]')!.getBoundingClientRect();
    return { statusTop: status.top, paneTop: pane.top, paneBottom: pane.bottom, screen: window.innerHeight, scrollY: window.scrollY };
  });
}

/** Whether the status line and the whole result pane are on screen. */
function inView(found: Awaited<ReturnType<typeof resultOnScreen>>): boolean {
  return found.statusTop >= 0 && found.paneTop >= 0 && found.paneBottom <= found.screen + 0.5;
}

/** Issue 41 item 1: at each phone size, a chosen file's result pane is on screen, whole, with the status line. */
async function phoneChecks(ctx: E2eContext, report: Report): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const screen of PHONES) {
    const { context, page, problems } = await openPage(ctx, { context: { viewport: screen, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } });
    const nextResult = resultWaiter();
    const checks: Check[] = [
      {
        name: `${screen.width} × ${screen.height} phone: after choosing a file the status line and the whole result pane are on screen, without the visitor scrolling (issue 41 item 1)`,
        async run() {
          await upload(page, 'fixture.png', fixturePng);
          await nextResult(page);
          const found = await resultOnScreen(page);
          assert.ok(inView(found), `the status line and the result pane are on screen: ${JSON.stringify(found)}`);
          assert.ok(
            (await page.getByRole('img', { name: 'Traced vector result' }).boundingBox())!.y >= found.paneTop - 0.5,
            'the traced result is drawn inside the pane',
          );
        },
      },
      {
        name: `${screen.width} × ${screen.height} phone: scrolled back to the top, a second file brings the result into view again`,
        async run() {
          await page.evaluate(() => window.scrollTo(0, 0));
          await upload(page, 'second.png', fixturePng);
          await nextResult(page);
          const found = await resultOnScreen(page);
          assert.ok(inView(found), JSON.stringify(found));
        },
      },
      noProblemsCheck(problems, `${screen.width} × ${screen.height} phone: no console errors, page errors or failed requests`),
    ];
    results.push(...(await runCheckList(checks, report, page)));
    await context.close();
  }
  return results;
}

export async function runChecks(ctx: E2eContext, report: Report): Promise<CheckResult[]> {
  const results: CheckResult[] = await phoneChecks(ctx, report);
  for (const width of WIDTHS) {
    const { context, page, problems } = await openPage(ctx, { context: { viewport: { width, height: width < 800 ? 844 : 800 } } });
    const checks: Check[] = [
      {
        name: `${width} px: after choosing an image the status and the result are in view order right under the input, before presets and options${width < 900 ? ' (folded)' : ''}`,
        async run() {
          await upload(page, 'fixture.png', fixturePng);
          await waitForDone(page);
          // Every element measured must be on the page first: the presets and the options form
          // can still be rendering when the trace is done on a loaded machine (they then measured
          // as missing: {"presets":null,"options":null}).
          await page.waitForFunction((selectors) => selectors.every((selector) => document.querySelector(selector) !== null), MEASURED);
          const boxes = await page.evaluate(() => {
            const top = (selector: string) => {
              const el = document.querySelector(selector);
              return el ? el.getBoundingClientRect().top + window.scrollY : NaN;
            };
            const openGroups = document.querySelectorAll('details.option-group[open]').length;
            return { input: top('.input-bar'), status: top('[role="status"]'), viewer: top('.viewer'), presets: top('.presets'), options: top('form.options'), openGroups, pageHeight: document.documentElement.scrollHeight };
          });
          const detail = JSON.stringify(boxes);
          if (width < 900) {
            // One column: input, then the status and the viewer, then the presets and options.
            assert.ok(boxes.input < boxes.status && boxes.status < boxes.viewer, detail);
            assert.ok(boxes.viewer < boxes.presets && boxes.presets < boxes.options, detail);
            assert.equal(boxes.openGroups, 0, 'option groups start folded on a phone');
          }
          // The status line is on the first screen (phones: 844 px high, desktop 800 px).
          assert.ok(boxes.status < (width < 800 ? 844 : 800), detail);
        },
      },
      {
        name: `${width} px: after loading a sample the whole result pane is on the first screen without the visitor scrolling; the local service, real service, snippet and batch panels come after it${width < 900 ? ', folded' : ', open'} (issue 29)`,
        async run() {
          await page.waitForSelector('section.batch-panel');
          await page.getByRole('button', { name: 'Try a sample' }).click();
          await page.getByRole('img', { name: 'Input image shapes.png' }).waitFor();
          await waitForDone(page);
          const height = width < 800 ? 844 : 800;
          const found = await page.evaluate((titles) => {
            const pane = document.querySelector('[aria-label="Result view"]')!.closest('figure')!.getBoundingClientRect();
            const panels = titles.map((title) => {
              const toggle = [...document.querySelectorAll<HTMLButtonElement>('section button[aria-expanded]')].find((b) => b.textContent?.trim() === title);
              const section = toggle?.closest('section');
              const body = toggle ? document.getElementById(toggle.getAttribute('aria-controls') ?? '') : null;
              return { title, top: section ? section.getBoundingClientRect().top : NaN, expanded: toggle?.getAttribute('aria-expanded') ?? null, bodyHidden: body?.hidden ?? null };
            });
            return { scrollY: window.scrollY, paneTop: pane.top, paneBottom: pane.bottom, panels };
          }, PANEL_TITLES);
          const detail = JSON.stringify(found);
          // On a phone the page itself scrolls the result pane into view (issue 41 item 1): whole.
          assert.ok(found.paneTop >= 0 && found.paneBottom <= height, `the whole result pane is on the first screen: ${detail}`);
          for (const panel of found.panels) {
            assert.ok(panel.top > found.paneBottom, `${panel.title} comes after the result pane: ${detail}`);
            assert.equal(panel.expanded, String(width >= 900), `${panel.title} aria-expanded: ${detail}`);
            assert.equal(panel.bodyHidden, width < 900, `${panel.title} content hidden: ${detail}`);
          }
        },
      },
      {
        name: `${width} px: after a trace, with every group open, no card overflows and the page does not scroll sideways`,
        async run() {
          await openAll(page);
          const found = await overflows(page);
          assert.deepEqual(found, [], JSON.stringify(found));
        },
      },
      {
        name: `${width} px: every option's checkbox and name lie inside the options form (long names wrap)`,
        async run() {
          const outside = await optionsOutside(page);
          assert.deepEqual(outside, [], JSON.stringify(outside));
          // The long parameter names of "Parameterized shape detection" are there and wrap.
          const label = page.locator('[data-option="processing.parameterizedShapes.ellipse.general.enabled"] label');
          if ((await label.count()) > 0) {
            const box = await label.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
            assert.ok(box.scroll <= box.client + 1, `label scrollWidth ${box.scroll} > clientWidth ${box.client}`);
          }
        },
      },
      {
        name: `${width} px: the real-service docs link answers 200`,
        async run() {
          const link = page.getByRole('link', { name: 'Docs: Remote mode and CORS' });
          if ((await link.count()) === 0) return;
          const href = (await link.first().getAttribute('href')) ?? '';
          const res = await page.request.get(new URL(href, page.url()).href);
          assert.equal(res.status(), 200, href);
        },
      },
      noProblemsCheck(problems, `${width} px: no console errors, page errors or failed requests`),
    ];
    results.push(...(await runCheckList(checks, report, page)));
    await context.close();
  }
  return results;
}
