/**
 * End-to-end checks of the download panel and the local service panel in a real browser (run by
 * scripts/e2e.mjs: `node scripts/e2e.mjs --spec service`). In: the served site. Out: one result
 * per check, a screenshot of the service panel at ctx.screenshotPath. The checks share one page
 * (fresh browser context, so the in-browser account starts at 100 credits) and run in order:
 * downloads in every format → preview with retention → upgrade (receipt) → PDF at the receipt
 * rate → delete → out of credits (1011) → reset.
 */

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';

import type { Locator, Page } from 'playwright-core';

import { fetchBytes, fixturePng, noProblemsCheck, openPage, runCheckList, TIMEOUT, upload, waitForDone } from './harness.js';
import type { Check, CheckResult, E2eContext } from './harness.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

// ---------------------------------------------------------------------------------------------
// Page helpers (everything is scoped to its panel: other panels have their own Vectorize/Credits)

const downloads = (page: Page): Locator => page.getByRole('group', { name: 'Download as' });
const service = (page: Page): Locator => page.getByRole('region', { name: 'Local service' });
const account = (page: Page): Locator => service(page).getByRole('region', { name: 'Local account' });
const retained = (page: Page): Locator => service(page).getByRole('region', { name: 'Retained images' });
const serviceStatus = (page: Page): Locator => service(page).locator('.service-status');

async function text(locator: Locator): Promise<string> {
  return ((await locator.textContent()) ?? '').trim();
}

/** Waits until the service panel's live status matches `pattern` (and is not busy). */
async function waitForServiceStatus(page: Page, pattern: RegExp): Promise<string> {
  const handle = await page.waitForFunction(
    (source) => {
      const el = document.querySelector('.service-status');
      const t = el?.textContent?.trim() ?? '';
      return el?.getAttribute('data-state') !== 'busy' && new RegExp(source).test(t) ? t : false;
    },
    pattern.source,
    { timeout: TIMEOUT },
  );
  return (await handle.jsonValue()) as string;
}

async function credits(page: Page): Promise<number> {
  return Number((await text(account(page).getByTestId('account-credits'))).replace(/,/g, ''));
}

async function waitForCredits(page: Page, expected: number): Promise<void> {
  await page.waitForFunction(
    (want) => Number(document.querySelector('[data-testid="account-credits"]')?.textContent?.replace(/,/g, '')) === want,
    expected,
    { timeout: TIMEOUT },
  );
}

async function costLine(page: Page): Promise<string> {
  return text(service(page).getByTestId('cost-line'));
}

/** The last service file, through its save link. */
async function serviceFile(page: Page): Promise<Buffer> {
  const href = await service(page).getByRole('link', { name: /^Save / }).getAttribute('href');
  assert.ok(href !== null && href.startsWith('blob:'), `save link is ${href}`);
  return fetchBytes(page, href);
}

const MAGIC: Record<string, (b: Buffer) => boolean> = {
  svg: (b) => b.subarray(0, 5).toString('latin1') === '<?xml',
  pdf: (b) => b.subarray(0, 8).toString('latin1') === '%PDF-1.4',
  eps: (b) => b.subarray(0, 23).toString('latin1') === '%!PS-Adobe-3.0 EPSF-3.0',
  dxf: (b) => /^\s*0\r?\nSECTION\r?\n/.test(b.subarray(0, 32).toString('latin1')),
  png: (b) => b.subarray(0, 8).equals(PNG_SIGNATURE),
};

// ---------------------------------------------------------------------------------------------
// The checks

let screenshotPath = '/tmp/tracelab-e2e-service.png';
let token = '';
let receipt = '';

const CHECKS: Check[] = [
  {
    name: 'upload the fixture; the preview trace finishes',
    async run(page) {
      await upload(page, 'fixture.png', fixturePng);
      await waitForDone(page);
      // The service panel loads after the page's first paint and reads its account first.
      const vectorize = service(page).getByRole('button', { name: 'Vectorize', exact: true });
      await vectorize.waitFor({ timeout: TIMEOUT });
      await page.waitForFunction(() => [...document.querySelectorAll('section.service button')].some((b) => b.textContent === 'Vectorize' && !(b as HTMLButtonElement).disabled), null, { timeout: TIMEOUT });
      assert.equal(await vectorize.isDisabled(), false);
    },
  },
  {
    name: 'Download panel: every format saves fixture.<ext> with the right magic bytes',
    async run(page) {
      for (const format of ['svg', 'pdf', 'eps', 'dxf', 'png']) {
        const [download] = await Promise.all([
          page.waitForEvent('download', { timeout: TIMEOUT }),
          downloads(page).getByRole('button', { name: format.toUpperCase(), exact: true }).click(),
        ]);
        assert.equal(download.suggestedFilename(), `fixture.${format}`);
        const bytes = await readFile(await download.path());
        assert.ok(bytes.length > 0, `${format}: empty file`);
        assert.ok(MAGIC[format]!(bytes), `${format}: starts with ${JSON.stringify(bytes.subarray(0, 24).toString('latin1'))}`);
        await page.waitForFunction(
          (name) => document.querySelector('.download-message')?.textContent?.startsWith(`Saved ${name}`) ?? false,
          `fixture.${format}`,
          { timeout: TIMEOUT },
        );
      }
    },
  },
  {
    name: 'Download panel: a PNG too large shows error 1023 inline; options are honoured',
    async run(page) {
      // The output size group starts collapsed.
      const group = page.locator('details.option-group', { has: page.locator('summary', { hasText: /^Output size$/ }) });
      if ((await group.getAttribute('open')) === null) await group.locator('summary').click();
      const scale = page.getByLabel('output.size.scale', { exact: true });
      await scale.fill('1000');
      await downloads(page).getByRole('button', { name: 'PNG', exact: true }).click();
      await page.waitForFunction(() => document.querySelector('.download-message.download-error') !== null, null, { timeout: TIMEOUT });
      assert.match(await text(downloads(page).locator('.download-message')), /^PNG failed — error 1023: /);
      await scale.fill('');
      await waitForDone(page);
    },
  },
  {
    name: 'service panel: labelled controls, four modes with prices, 100 credits to start',
    async run(page) {
      const mode = service(page).getByLabel('Mode', { exact: true });
      const options = (await mode.locator('option').allTextContents()).map((t) => t.trim());
      assert.deepEqual(options, [
        'test — free (calculated 1 credit)',
        'test_preview — free (calculated 0.2 credits)',
        'preview — 0.2 credits',
        'production — 1 credit',
      ]);
      await waitForCredits(page, 100);
      assert.equal(await text(account(page).locator('dd').first()), 'tracelab_local');
      assert.match(await text(retained(page)), /None\./);
    },
  },
  {
    name: 'preview with retention 1 (keyboard) → PNG shown, charged 0.2, credits drop, token retained',
    async run(page) {
      await service(page).getByLabel('Mode', { exact: true }).selectOption('preview');
      const days = service(page).getByLabel('Retention days', { exact: true });
      await days.fill('1');
      assert.match(await text(service(page).getByTestId('cost-next')), /^Next call \(preview, retained 1 day\): 0\.200000 credits\. Would cost in production: 1\.000000 · in preview: 0\.200000\.$/);
      await days.press('Enter'); // submits the form: the panel works from the keyboard
      await waitForServiceStatus(page, /^Vectorized \(preview\)/);
      assert.match(await costLine(page), /^This call: charged 0\.200000 credits · calculated 0\.200000$/);
      const img = service(page).getByRole('img', { name: 'Local service result' });
      const src = await img.getAttribute('src');
      assert.ok(src !== null && src.startsWith('blob:'), `result src ${src}`);
      await page.waitForFunction(() => (document.querySelector<HTMLImageElement>('img[alt="Local service result"]')?.naturalWidth ?? 0) > 0, null, { timeout: TIMEOUT });
      assert.ok((await fetchBytes(page, src)).subarray(0, 8).equals(PNG_SIGNATURE), 'the preview is a PNG');
      assert.match(await text(service(page).getByTestId('service-file-info')), /^image\/png, [\d,]+ bytes$/);
      await waitForCredits(page, 99.8);
      const item = retained(page).getByRole('listitem');
      assert.equal(await item.count(), 1);
      token = (await item.getAttribute('data-token')) ?? '';
      assert.ok(token.length > 0);
      const itemText = await text(item);
      assert.match(itemText, /preview/);
      // Retention 1 day: whole units counting down ("in 23 hours 59 minutes", never "in 24 hours" then "in 1 day").
      assert.match(itemText, /expires in (1 day|23 hours( \d+ minutes?)?) \(/);
      assert.match(itemText, /No receipt/);
      assert.match(itemText, /Next download: 0\.900000 credits \(upgrade to production; issues a receipt\)/);
    },
  },
  {
    name: 'upgrade to production → receipt shown, credits drop by 0.9',
    async run(page) {
      const item = retained(page).getByRole('listitem');
      await item.getByRole('button', { name: 'Upgrade to production' }).click();
      await waitForServiceStatus(page, /^Downloaded from the token .*a receipt was issued\.$/);
      assert.match(await costLine(page), /^This call: charged 0\.900000 credits/);
      receipt = await text(item.getByTestId('receipt'));
      assert.ok(receipt.length > 0, 'receipt shown');
      await waitForCredits(page, 98.9);
      assert.equal(await item.getByRole('button', { name: 'Upgrade to production' }).count(), 0);
      assert.match(await text(item), /Next download: 0\.100000 credits \(receipt rate\)/);
      // The upgrade returned the production SVG (the default format), shown through <img>.
      assert.match(await text(service(page).getByTestId('service-file-info')), /^image\/svg\+xml/);
      assert.equal(await page.locator('svg').count(), 0, 'no SVG inlined into the DOM');
    },
  },
  {
    name: 'download PDF with the receipt → charged at the receipt rate (0.1)',
    async run(page) {
      const item = retained(page).getByRole('listitem');
      await item.getByLabel('Format').selectOption('pdf');
      await item.getByRole('button', { name: 'Download', exact: true }).click();
      await waitForServiceStatus(page, /^Downloaded from the token in [\d,]+ ms\.$/);
      assert.match(await costLine(page), /^This call: charged 0\.100000 credits/);
      await waitForCredits(page, 98.8);
      assert.match(await text(service(page).getByTestId('service-file-info')), /^application\/pdf, /);
      assert.equal(await service(page).getByRole('img', { name: 'Local service result' }).count(), 0, 'a PDF is not shown as an image');
      assert.ok(MAGIC.pdf!(await serviceFile(page)), 'saved file is a PDF');
      assert.equal(await text(item.getByTestId('receipt')), receipt, 'the receipt is kept');
    },
  },
  {
    name: 'delete → the token is gone',
    async run(page) {
      await retained(page).getByRole('listitem').getByRole('button', { name: 'Delete' }).click();
      await waitForServiceStatus(page, /^Deleted the retained image\.$/);
      assert.equal(await retained(page).getByRole('listitem').count(), 0);
      assert.doesNotMatch(await text(retained(page)), new RegExp(token));
      assert.equal(await credits(page), 98.8, 'delete is free');
    },
  },
  {
    name: 'account credits 0.1 → production vectorize reports error 1011; reset → 100',
    async run(page) {
      await account(page).getByLabel('Credits', { exact: true }).fill('0.1');
      await account(page).getByRole('button', { name: 'Set account', exact: true }).click();
      await waitForServiceStatus(page, /^Account updated\.$/);
      await waitForCredits(page, 0.1);
      await service(page).getByLabel('Mode', { exact: true }).selectOption('production');
      await service(page).getByLabel('Retention days', { exact: true }).fill('0');
      // The PDF of the earlier download is still offered here…
      assert.equal(await service(page).getByRole('link', { name: /^Save / }).count(), 1, 'the earlier PDF is offered before the failing call');
      await service(page).getByRole('button', { name: 'Vectorize', exact: true }).click();
      const status = await waitForServiceStatus(page, /^Error /);
      assert.match(status, /^Error 1011 \(HTTP 402\): Out of credits/);
      // …but not beside the 1011: a failed call made no file (issue 17 item 6).
      assert.equal(await service(page).getByRole('link', { name: /^Save / }).count(), 0, 'no save link beside the error');
      assert.equal(await serviceStatus(page).getAttribute('aria-live'), 'polite');
      assert.equal(await credits(page), 0.1, 'failed calls are free');
      await account(page).getByRole('button', { name: 'Reset account' }).click();
      await waitForServiceStatus(page, /^Account updated\.$/);
      await waitForCredits(page, 100);
    },
  },
  {
    name: 'test mode is free and reports the calculated price; screenshot of the service panel',
    async run(page) {
      await service(page).getByLabel('Mode', { exact: true }).selectOption('test');
      await service(page).getByLabel('Retention days', { exact: true }).fill('3');
      await service(page).getByRole('button', { name: 'Vectorize', exact: true }).click();
      await waitForServiceStatus(page, /^Vectorized \(test\).*retained\.$/);
      assert.match(await costLine(page), /^This call: charged 0\.000000 credits · calculated 1\.020000$/);
      assert.equal(await credits(page), 100);
      assert.match(await text(retained(page).getByRole('listitem')), /Next download: charged 0\.000000 · calculated 0\.100000/);
      await service(page).screenshot({ path: screenshotPath });
    },
  },
];

/** Runs every check on one page; the last check is "no console errors" over the whole session. */
export async function runChecks(ctx: E2eContext, report: (r: CheckResult) => void = () => {}): Promise<CheckResult[]> {
  screenshotPath = ctx.screenshotPath;
  let current = 'page load';
  const { context, page, problems } = await openPage(ctx, { context: { acceptDownloads: true }, during: () => current });
  const results = await runCheckList([...CHECKS, noProblemsCheck(problems)], report, page, (check) => (current = check.name));
  await context.close();
  return results;
}
