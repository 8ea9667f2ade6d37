/**
 * Browser checks of "Copy SVG" (issue 29 item 9, run by scripts/e2e.mjs `--spec clipboard`), in a
 * context that was granted the clipboard: with no result the button is off; after a trace the
 * clipboard holds exactly the SVG that "Download SVG" saves, and the page says it was copied.
 */

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';

import { fixturePng, noProblemsCheck, openPage, runCheckList, TIMEOUT, upload, waitForDone } from './harness.js';
import type { Check, CheckResult, E2eContext, Report } from './harness.js';

export async function runChecks(ctx: E2eContext, report: Report): Promise<CheckResult[]> {
  const origin = new URL(ctx.baseUrl).origin;
  const { context, page, problems } = await openPage(ctx, {
    context: { acceptDownloads: true },
    setup: (c) => c.grantPermissions(['clipboard-read', 'clipboard-write'], { origin }),
  });
  const copyButton = page.getByRole('button', { name: 'Copy SVG', exact: true });
  const checks: Check[] = [
    {
      name: 'Copy SVG is next to the downloads and off while there is no result',
      async run() {
        await copyButton.waitFor({ timeout: TIMEOUT });
        assert.equal(await copyButton.isDisabled(), true);
        // In the result bar, beside the primary download.
        assert.equal(await page.getByRole('region', { name: 'Result' }).getByRole('button', { name: 'Copy SVG', exact: true }).count(), 1);
      },
    },
    {
      name: 'after a trace, Copy SVG puts exactly the SVG that Download SVG saves on the clipboard',
      async run() {
        await upload(page, 'fixture.png', fixturePng);
        await waitForDone(page);
        await page.evaluate(() => navigator.clipboard.writeText('not the svg'));
        await copyButton.click();
        await page.getByText(/^SVG copied \([\d,]+ characters\)\.$/).waitFor({ timeout: TIMEOUT });
        const copied = await page.evaluate(() => navigator.clipboard.readText());
        const [download] = await Promise.all([page.waitForEvent('download', { timeout: TIMEOUT }), page.getByRole('button', { name: 'Download SVG', exact: true }).click()]);
        assert.equal(download.suggestedFilename(), 'fixture.svg');
        const saved = await readFile(await download.path(), 'utf8');
        assert.match(saved, /^<\?xml[\s\S]*<svg[\s\S]*<\/svg>\s*$/);
        assert.equal(copied, saved);
      },
    },
    noProblemsCheck(problems),
  ];
  const results = await runCheckList(checks, report, page);
  await context.close();
  return results;
}
