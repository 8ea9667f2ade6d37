/**
 * Accessibility checks of the whole playground (run by scripts/e2e.mjs): every control has an
 * accessible name, the page can be walked with Tab and every stop shows a focus indicator, status
 * and errors are live regions, and a running trace shows its progress.
 */

import assert from 'node:assert/strict';

import type { Page } from 'playwright-core';

import { scenePng, type Scene } from './draw.js';
import { fixturePng, noProblemsCheck, openPage, runCheckList, upload, waitForDone } from './harness.js';
import type { Check, CheckResult, E2eContext, Report } from './harness.js';

/** Controls without an accessible name (label, aria-label(ledby), text or title), visible ones only. */
async function unnamedControls(page: Page): Promise<string[]> {
  return page.locator('input, select, textarea, button, [role="slider"], [role="radio"], [role="tab"], summary, a[href]').evaluateAll((els) =>
    els
      .filter((el) => {
        const input = el as HTMLInputElement;
        if (input.type === 'hidden') return false;
        // The file input is visually hidden on purpose; its <label> is the visible control.
        if (input.type === 'file') return input.labels === null || input.labels.length === 0;
        const box = el.getBoundingClientRect();
        return box.width > 0 && box.height > 0;
      })
      .filter((el) => {
        const labelled = (el as HTMLInputElement).labels;
        const byIds = (el.getAttribute('aria-labelledby') ?? '')
          .split(/\s+/)
          .filter(Boolean)
          .map((id) => document.getElementById(id)?.textContent?.trim() ?? '')
          .join('');
        const name =
          el.getAttribute('aria-label')?.trim() ||
          byIds ||
          (labelled && labelled.length > 0 ? [...labelled].map((l) => l.textContent?.trim() ?? '').join('') : '') ||
          (el.tagName === 'INPUT' ? '' : el.textContent?.trim()) ||
          el.getAttribute('title')?.trim() ||
          '';
        return name === '';
      })
      .map((el) => el.outerHTML.slice(0, 120)),
  );
}

/** A slow picture: many small shapes, so the trace runs long enough to see its progress. */
function slowScene(): Scene {
  const inside = (x: number, y: number) => Math.sin(x * 0.37) * Math.cos(y * 0.29) + Math.sin((x + y) * 0.11) > 0.3;
  return { width: 700, height: 700, samples: 2, background: [240, 240, 240], shapes: [{ color: [200, 30, 60], inside }, { color: [30, 90, 200], inside: (x, y) => inside(y, x) }] };
}

export async function runChecks(ctx: E2eContext, report: Report): Promise<CheckResult[]> {
  const { context, page, problems } = await openPage(ctx);
  const checks: Check[] = [
    {
      name: 'every visible control has an accessible name (after a trace, all panels shown)',
      async run() {
        await upload(page, 'fixture.png', fixturePng);
        await waitForDone(page);
        for (const details of await page.locator('details.option-group').all()) await details.evaluate((d) => ((d as HTMLDetailsElement).open = true));
        assert.deepEqual(await unnamedControls(page), []);
      },
    },
    {
      name: 'Tab walks the page; every stop is visible-focused and none traps focus',
      async run() {
        await page.locator('body').click({ position: { x: 5, y: 5 } });
        const seen = new Set<string>();
        for (let i = 0; i < 60; i++) {
          await page.keyboard.press('Tab');
          const stop = await page.evaluate(() => {
            const el = document.activeElement as HTMLElement | null;
            if (!el || el === document.body) return null;
            const style = getComputedStyle(el);
            const ring = (style.outlineStyle !== 'none' && style.outlineWidth !== '0px') || style.boxShadow !== 'none';
            return { key: `${el.tagName}#${el.id}.${el.className}:${el.getAttribute('aria-label') ?? el.textContent?.slice(0, 20)}`, ring };
          });
          if (stop === null) continue;
          assert.ok(stop.ring, `no focus indicator on ${stop.key}`);
          seen.add(stop.key);
        }
        assert.ok(seen.size >= 30, `only ${seen.size} distinct tab stops`);
      },
    },
    {
      name: 'status is a polite live region; a corrupt file is announced with its API code',
      async run() {
        assert.equal(await page.getByRole('status').getAttribute('aria-live'), 'polite');
        await upload(page, 'broken.png', Buffer.concat([fixturePng.subarray(0, 60), Buffer.from('garbage')]));
        await page.waitForFunction(() => /^Error 1006:/.test(document.querySelector('[role="status"]')?.textContent ?? ''));
      },
    },
    {
      name: 'a running trace shows a progress bar with its current step',
      async run() {
        await upload(page, 'slow.png', Buffer.from(scenePng(slowScene())));
        const bar = page.getByRole('progressbar', { name: 'Trace progress' });
        await bar.waitFor({ state: 'visible' });
        const value = Number(await bar.getAttribute('value'));
        assert.ok(value >= 0 && value <= 1, `progress value ${value}`);
        await waitForDone(page);
        assert.equal(await bar.count(), 0);
      },
    },
    noProblemsCheck(problems, 'no console errors, page errors or failed requests', (p) => !p.includes('broken.png')),
  ];
  try {
    return await runCheckList(checks, report, page);
  } finally {
    await context.close();
  }
}
