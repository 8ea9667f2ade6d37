/**
 * Browser checks of how the option fields read (issue 29 item 8, run by scripts/e2e.mjs `--spec
 * options`), at a desktop and a phone width, with every group open:
 *   - every option of the panel shows its plain words and unit from the schema ("Minimum area ·
 *     px²") and its API name beneath in monospace, and is found by either;
 *   - no option list cuts off a value: each <select> of the panel is at least as wide as the
 *     browser makes it to show its longest value ("lines_and_arcs" read "lines_and_ar…"), and no
 *     other list on the page cuts off the value it shows.
 */

import assert from 'node:assert/strict';

import type { Page } from 'playwright-core';

import { labelWithUnit } from '../src/api/options.js';
import { PANEL_OPTIONS } from '../src/ui/store.js';
import { fixturePng, noProblemsCheck, openPage, runCheckList, upload, waitForDone } from './harness.js';
import type { Check, CheckResult, E2eContext, Report } from './harness.js';

const WIDTHS = [1200, 390] as const;

/** Waits for the options panel (mounted after the first paint) and opens every <details>. */
async function openAll(page: Page): Promise<void> {
  await page.locator('form.options [data-option]').first().waitFor({ state: 'attached' });
  await page.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)));
}

interface FieldText {
  readonly name: string;
  readonly label: string;
  readonly code: string;
  readonly codeFont: string;
  readonly labelShown: boolean;
  readonly codeShown: boolean;
}

/** What each option field of the panel shows as its label and its API name. */
function fieldTexts(page: Page): Promise<FieldText[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('form.options [data-option]')].map((field) => {
      const label = field.querySelector('label');
      const code = field.querySelector('code.option-name');
      const shown = (el: Element | null) => {
        const box = el?.getBoundingClientRect();
        return !!box && box.width > 0 && box.height > 0;
      };
      return {
        name: field.dataset.option ?? '',
        label: label?.textContent ?? '',
        code: code?.textContent ?? '',
        codeFont: code ? getComputedStyle(code).fontFamily : '',
        labelShown: shown(label),
        codeShown: shown(code),
      };
    }),
  );
}

interface Clipped {
  readonly select: string;
  readonly width: number;
  readonly needed: number;
}

/**
 * Visible <select>s under `scope` narrower than they need to be to show a value — every value
 * (`every`) or the chosen one: a copy holding only those values, with an automatic width (the
 * browser sizes a list to its widest option), is laid out beside each and measured.
 */
function clippedSelects(page: Page, scope: string, values: 'every' | 'chosen'): Promise<Clipped[]> {
  return page.evaluate(
    ([scope, values]) => {
      const out: { select: string; width: number; needed: number }[] = [];
      for (const select of document.querySelectorAll<HTMLSelectElement>(`${scope} select`)) {
        const width = select.getBoundingClientRect().width;
        if (width === 0) continue;
        const copy = select.cloneNode(true) as HTMLSelectElement;
        copy.removeAttribute('id');
        if (values === 'chosen') for (const option of [...copy.options]) if (option.value !== select.value) option.remove();
        Object.assign(copy.style, { width: 'auto', minWidth: '0', maxWidth: 'none', position: 'absolute', visibility: 'hidden' });
        select.parentElement!.append(copy);
        const needed = copy.getBoundingClientRect().width;
        copy.remove();
        if (width + 0.5 < needed) {
          const where = select.closest('[data-option]')?.getAttribute('data-option') ?? select.labels?.[0]?.textContent ?? select.id;
          out.push({ select: `${where} (${select.value})`, width: Math.round(width), needed: Math.round(needed) });
        }
      }
      return out;
    },
    [scope, values] as const,
  );
}

export async function runChecks(ctx: E2eContext, report: Report): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const width of WIDTHS) {
    const { context, page, problems } = await openPage(ctx, { context: { viewport: { width, height: 844 } } });
    const checks: Check[] = [
      {
        name: `${width} px: every option field shows its plain label and unit from the schema and its API name in monospace, and is found by either`,
        async run() {
          // After a trace, so every panel below the viewer is mounted too.
          await upload(page, 'fixture.png', fixturePng);
          await waitForDone(page);
          await openAll(page);
          const fields = await fieldTexts(page);
          assert.deepEqual(
            fields.map((f) => f.name),
            PANEL_OPTIONS.map((o) => o.name),
            'one field per option of the panel',
          );
          const wrong: string[] = [];
          for (const spec of PANEL_OPTIONS) {
            const f = fields.find((x) => x.name === spec.name)!;
            const words = labelWithUnit(spec);
            if (f.label !== words) wrong.push(`${spec.name}: label "${f.label}", expected "${words}"`);
            if (f.label.includes(spec.name)) wrong.push(`${spec.name}: the label is the API name`);
            if (f.code !== spec.name) wrong.push(`${spec.name}: API name shown as "${f.code}"`);
            if (!/mono/i.test(f.codeFont)) wrong.push(`${spec.name}: API name in ${f.codeFont}`);
            if (!f.labelShown || !f.codeShown) wrong.push(`${spec.name}: label shown ${f.labelShown}, API name shown ${f.codeShown}`);
          }
          assert.deepEqual(wrong, []);
          // A control is named by both: by its words (what a screen reader says first) and by its API name.
          const minArea = page.locator('[data-option="processing.shapes.min_area_px"] input');
          assert.equal(await page.getByLabel('Minimum area · px²', { exact: true }).evaluate((el) => el === document.querySelector('[data-option="processing.shapes.min_area_px"] input')), true);
          assert.equal(await page.getByLabel('processing.shapes.min_area_px', { exact: true }).count(), 1);
          assert.equal(await minArea.evaluate((el) => (el as HTMLInputElement).labels?.[0]?.textContent), 'Minimum area · px²');
          assert.equal(await page.getByRole('combobox', { name: 'DXF curve types output.dxf.compatibility_level', exact: true }).count(), 1);
        },
      },
      {
        name: `${width} px: no option list cuts off any of its values, no list on the page its chosen one`,
        async run() {
          await openAll(page);
          // The options' lists: whichever value is chosen, it shows whole.
          const options = await clippedSelects(page, 'form.options', 'every');
          assert.deepEqual(options, [], JSON.stringify(options));
          // Every other list on the page shows the value it has.
          const page_ = await clippedSelects(page, 'main', 'chosen');
          assert.deepEqual(page_, [], JSON.stringify(page_));
          // The value the issue saw cut ("lines_and_ar…"), and the longest, chosen: shown whole.
          const dxf = page.locator('[data-option="output.dxf.compatibility_level"] select');
          await dxf.selectOption('lines_arcs_and_splines');
          assert.deepEqual(await clippedSelects(page, 'form.options', 'chosen'), []);
          await dxf.selectOption('lines_and_arcs');
        },
      },
      noProblemsCheck(problems, `${width} px: no console errors, page errors or failed requests`),
    ];
    results.push(...(await runCheckList(checks, report, page)));
    await context.close();
  }
  return results;
}
