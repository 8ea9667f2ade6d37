/**
 * Browser checks of the other inputs and of reproducing a result: base64 text, an image URL
 * (same-origin, a web page, and a cross-origin server without CORS), the sample gallery, presets,
 * the share link (copied, opened in a new page) and the code snippets. Run by scripts/e2e.mjs
 * (`--spec inputs`); the checks share one page and run in order.
 */

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';

import type { BrowserContext, Page } from 'playwright-core';

import { planVectorize, runVectorize } from '../src/api/pipeline.js';
import { shellQuote } from '../src/ui/snippets.js';
import { fetchText, fixturePng, noProblemsCheck, openPage, resultWaiter, runCheckList, statusText, TIMEOUT, watchPage } from './harness.js';
import type { Check, CheckResult, E2eContext } from './harness.js';

/** Sizes of the gallery pictures (public/samples/: real pictures and ones drawn by e2e/samples.ts). */
const GALLERY: readonly { readonly title: string; readonly file: string; readonly viewBox: string }[] = [
  { title: 'Debian logo', file: 'logo-debian.png', viewBox: '0 0 620 413' },
  { title: 'Shapes', file: 'shapes.png', viewBox: '0 0 128 128' },
  { title: 'Logo', file: 'logo.png', viewBox: '0 0 160 120' },
  { title: 'Home folder icon', file: 'icon-home.png', viewBox: '0 0 256 256' },
  { title: 'Owl engraving', file: 'lineart-owl.png', viewBox: '0 0 336 600' },
  { title: 'Line art', file: 'lineart.png', viewBox: '0 0 160 160' },
  { title: 'Scanned graph', file: 'scan-graph.png', viewBox: '0 0 441 319' },
  { title: 'Dungeon items', file: 'pixel-dungeon.png', viewBox: '0 0 576 192' },
  { title: 'Pixel art', file: 'pixel.png', viewBox: '0 0 48 48' },
  { title: 'Coffee cup', file: 'photo-coffee.jpg', viewBox: '0 0 600 400' },
  { title: 'Photo', file: 'photo.png', viewBox: '0 0 128 96' },
];

/** The gallery's kinds, in order, with their samples (issue 29 item 9: a real picture of each kind first). */
const GALLERY_KINDS: readonly (readonly [string, readonly string[]])[] = [
  ['Logos and flat art', ['Debian logo', 'Shapes', 'Logo']],
  ['Icons', ['Home folder icon']],
  ['Line art', ['Owl engraving', 'Line art']],
  ['Scans', ['Scanned graph']],
  ['Pixel art', ['Dungeon items', 'Pixel art']],
  ['Photos', ['Coffee cup', 'Photo']],
];

/** A palette with every character the snippets must quote: #, ;, ->, ~ and spaces. */
const PALETTE = '#E23D34 -> #000000 ~ 0.3; #FAF6EC ~ 0.2;';

// ---------------------------------------------------------------------------------------------
// Page helpers (more in harness.ts)

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const option = (page: Page, name: string) => page.getByLabel(name, { exact: true });

const nextResult = resultWaiter();

/** Waits for Done with a result newer than the last one seen; returns the SVG text. */
async function waitForNewResult(page: Page): Promise<string> {
  return fetchText(page, await nextResult(page));
}

/**
 * The panels under the viewer load after the first paint, and the preview worker's code once the
 * page is mounted; a reload or close before they arrive would abort their requests.
 */
async function panelsLoaded(page: Page): Promise<void> {
  await page.waitForSelector('section.batch-panel', { timeout: TIMEOUT });
  await page.waitForLoadState('networkidle', { timeout: TIMEOUT });
}

async function waitForError(page: Page): Promise<string> {
  await page.waitForFunction(() => document.querySelector('[role="status"]')?.textContent?.startsWith('Error'), null, { timeout: TIMEOUT });
  return statusText(page);
}

async function caption(page: Page): Promise<string> {
  return (await page.locator('figcaption').first().textContent()) ?? '';
}

/** Every option field of the panel: name → value (checkbox → 'true'/'false'). */
async function optionValues(page: Page): Promise<Record<string, string>> {
  return page.evaluate(() => {
    const out: Record<string, string> = {};
    for (const field of document.querySelectorAll<HTMLElement>('[data-option]')) {
      const control = field.querySelector<HTMLInputElement | HTMLSelectElement>('input, select');
      if (!control) continue;
      out[field.dataset.option!] = control instanceof HTMLInputElement && control.type === 'checkbox' ? String(control.checked) : control.value;
    }
    return out;
  });
}

async function snippetText(page: Page, tab: 'CLI' | 'curl' | 'JS client'): Promise<string> {
  await page.getByRole('tab', { name: tab, exact: true }).click();
  return (await page.getByTestId('snippet').textContent()) ?? '';
}

async function shareLink(page: Page): Promise<string> {
  return page.getByLabel('Share link', { exact: true }).inputValue();
}

/** A server on another port that answers a PNG without CORS headers: the page may not read it. */
function startForeignServer(): Promise<{ server: Server; url: string }> {
  return new Promise((resolve) => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'image/png' });
      res.end(fixturePng);
    });
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({ server, url: `http://127.0.0.1:${port}/foreign.png` });
    });
  });
}

// ---------------------------------------------------------------------------------------------
// The checks

let baseUrl = '';
let context: BrowserContext;
let foreign: { server: Server; url: string } | undefined;
/** Requests and console messages that checks provoke on purpose (not counted as problems). */
const expectedFailures: RegExp[] = [];

const CHECKS: Check[] = [
  {
    name: 'the gallery thumbnails load (every sample, each with an image)',
    async run(page) {
      await page.waitForSelector('text=Sample gallery', { timeout: TIMEOUT });
      for (const { title } of GALLERY) assert.equal(await page.getByRole('button', { name: `Sample: ${title}`, exact: true }).count(), 1, title);
      await page.waitForFunction(
        (n) => {
          const imgs = [...document.querySelectorAll<HTMLImageElement>('.gallery-item img')];
          return imgs.length === n && imgs.every((img) => img.complete && img.naturalWidth > 0);
        },
        GALLERY.length,
        { timeout: TIMEOUT },
      );
      // Labels and the old controls are still there (trace.spec relies on them).
      assert.equal(await page.getByLabel('Choose an image').count(), 1);
      assert.equal(await page.getByRole('button', { name: 'Try a sample' }).count(), 1);
    },
  },
  {
    name: 'issue 29 item 9: the gallery lists its samples by kind — logos, icons, line art, scans, pixel art, photos — a real picture first in each',
    async run(page) {
      const gallery = page.getByRole('region', { name: 'Sample gallery' });
      const kinds = await gallery.locator('.gallery-kind').evaluateAll((els) =>
        els.map((el) => {
          const list = el.querySelector('ul')!;
          const heading = document.getElementById(list.getAttribute('aria-labelledby') ?? '');
          return [heading?.textContent ?? '', [...list.querySelectorAll('button')].map((b) => (b.getAttribute('aria-label') ?? '').replace(/^Sample: /, ''))];
        }),
      );
      assert.deepEqual(kinds, GALLERY_KINDS);
      // Each kind's list is named by its heading.
      for (const [kind, titles] of GALLERY_KINDS) assert.equal(await gallery.getByRole('list', { name: kind, exact: true }).getByRole('button').count(), titles.length, kind);
    },
  },
  {
    name: 'base64 text (raw and data: URL) traces; bad base64 shows a 1006 message',
    async run(page) {
      const field = page.getByLabel('Base64 text or data: URL', { exact: true });
      await field.fill(fixturePng.toString('base64').replace(/(.{76})/g, '$1\n'));
      await page.getByRole('button', { name: 'Load base64', exact: true }).click();
      const svg = await waitForNewResult(page);
      assert.match(svg, /viewBox="0 0 96 80"/);
      assert.match(await caption(page), /base64 image\.png/);

      await field.fill('data:image/png;base64,iVBOR*w0KGgo');
      await page.getByRole('button', { name: 'Load base64', exact: true }).click();
      const text = await waitForError(page);
      assert.equal(text, 'Error 1006: Failed to read the supplied image: the text is not valid base64 (unexpected "*" at character 6).');
      assert.equal(await field.getAttribute('aria-invalid'), 'true');
      assert.match((await page.locator('.source-form .field-error').textContent()) ?? '', /^Error 1006/);

      await field.fill(`data:image/png;base64,${fixturePng.toString('base64')}`);
      await page.getByRole('button', { name: 'Load base64', exact: true }).click();
      assert.match(await waitForNewResult(page), /viewBox="0 0 96 80"/);
      assert.equal(await field.getAttribute('aria-invalid'), 'false');
    },
  },
  {
    name: 'an image URL of a same-origin sample traces',
    async run(page) {
      const field = page.getByLabel('Image URL', { exact: true });
      await field.fill(`${baseUrl}samples/logo.png`);
      await page.getByRole('button', { name: 'Load URL', exact: true }).click();
      const svg = await waitForNewResult(page);
      assert.match(svg, /viewBox="0 0 160 120"/);
      assert.match(await caption(page), /logo\.png/);
      // A relative address works too (resolved against the page).
      await field.fill('samples/lineart.png');
      await page.getByRole('button', { name: 'Load URL', exact: true }).click();
      assert.match(await waitForNewResult(page), /viewBox="0 0 160 160"/);
    },
  },
  {
    name: 'URL errors: a cross-origin image without CORS and a web page are explained',
    async run(page) {
      foreign = await startForeignServer();
      expectedFailures.push(new RegExp(escapeRegExp(foreign.url)), /blocked by CORS policy/);
      const field = page.getByLabel('Image URL', { exact: true });
      await field.fill(foreign.url);
      await page.getByRole('button', { name: 'Load URL', exact: true }).click();
      const cors = await waitForError(page);
      assert.match(cors, /^Error 1022: Could not fetch http:\/\/127\.0\.0\.1:\d+\/foreign\.png: .*\(CORS\).*choose the file instead\.$/);
      assert.equal(await field.getAttribute('aria-invalid'), 'true');
      // The page itself is not an image (a web page answers with text/html; its download is cancelled).
      expectedFailures.push(new RegExp(`^${escapeRegExp(baseUrl)}$`));
      await field.fill(baseUrl);
      await page.getByRole('button', { name: 'Load URL', exact: true }).click();
      await page.waitForFunction(() => document.querySelector('[role="status"]')?.textContent?.startsWith('Error 1021'), null, { timeout: TIMEOUT });
      assert.match(await statusText(page), /is a web page, not an image/);
    },
  },
  {
    name: 'every gallery sample loads and traces at its size',
    async run(page) {
      for (const { title, file, viewBox } of GALLERY) {
        await page.getByRole('button', { name: `Sample: ${title}`, exact: true }).click();
        const shown = await waitForNewResult(page);
        if (shown.startsWith('<')) {
          assert.ok(shown.includes(`viewBox="${viewBox}"`), `${file}: ${shown.slice(0, 300)}`);
        } else {
          // A large result (the photo's SVG is over LARGE_SVG_BYTES) is shown as its 1× PNG.
          const [, , width, height] = viewBox.split(' ').map(Number);
          const size = await page.evaluate(() => {
            const img = document.querySelector<HTMLImageElement>('img[alt="Traced vector result"]');
            return [img?.naturalWidth, img?.naturalHeight];
          });
          assert.deepEqual(size, [width, height], `${file}: the 1× preview has the input's size`);
          assert.match((await page.locator('figure.pane figcaption').nth(1).textContent()) ?? '', /shown as a 1× PNG preview/);
        }
        assert.match(await caption(page), new RegExp(file.replace('.', '\\.')));
      }
    },
  },
  {
    name: 'a preset sets the option fields and traces again; editing shows Custom; Defaults resets',
    async run(page) {
      const preset = page.getByLabel('Preset', { exact: true });
      assert.equal(await preset.inputValue(), 'defaults');
      await page.getByRole('button', { name: 'Sample: Line art', exact: true }).click();
      await waitForNewResult(page);
      await preset.selectOption('line-art');
      const svg = await waitForNewResult(page);
      assert.equal(await option(page, 'processing.max_colors').inputValue(), '2');
      assert.equal(await option(page, 'processing.palette').inputValue(), '#000000; #FFFFFF;');
      assert.equal(await option(page, 'processing.shapes.min_area_px').inputValue(), '6');
      const fills = new Set([...svg.matchAll(/fill="(#[0-9A-Fa-f]{3,8})"/g)].map((m) => m[1]!.toUpperCase()));
      assert.ok([...fills].every((f) => ['#000', '#000000', '#FFF', '#FFFFFF'].includes(f)), `fills ${[...fills].join(' ')}`);
      assert.match(await page.locator('.presets .hint').textContent() ?? '', /black and white/);

      await preset.selectOption('pixel-art');
      await waitForNewResult(page);
      assert.equal(await option(page, 'processing.max_colors').inputValue(), '0', 'presets apply on top of the defaults');
      assert.equal(await option(page, 'output.curves.allowed.cubic_bezier').isChecked(), false);

      await option(page, 'processing.shapes.min_area_px').fill('1');
      await waitForNewResult(page);
      assert.equal(await preset.inputValue(), 'custom');
      await preset.selectOption('defaults');
      await waitForNewResult(page);
      assert.equal(await option(page, 'output.curves.allowed.cubic_bezier').isChecked(), true);
      assert.equal(await page.evaluate(() => window.location.hash), '', 'defaults: no hash');
    },
  },
  {
    name: 'the share link round-trips: copied URL in a new page → same option values; reload keeps them',
    async run(page) {
      await page.getByLabel('Preset', { exact: true }).selectOption('photo');
      await waitForNewResult(page);
      await option(page, 'processing.palette').fill(PALETTE);
      const sizeGroup = page.locator('details.option-group', { has: page.locator('summary', { hasText: 'Output size' }) });
      if ((await sizeGroup.getAttribute('open')) === null) await sizeGroup.locator('summary').click();
      await option(page, 'output.size.width').fill('300');
      await waitForNewResult(page);
      const expected = await optionValues(page);
      assert.equal(expected['processing.palette'], PALETTE);

      await page.getByRole('button', { name: 'Copy share link', exact: true }).click();
      await page.waitForFunction(() => document.querySelector('.copy-note')?.textContent === 'Share link copied.', null, { timeout: TIMEOUT });
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      assert.equal(copied, await shareLink(page));
      assert.ok(copied.startsWith(`${baseUrl}#o=`), copied);
      assert.equal(await page.evaluate(() => window.location.href), copied, 'the address bar follows the options');

      const other = await context.newPage();
      watch(other, 'shared page');
      await other.goto(copied, { waitUntil: 'load' });
      await other.waitForSelector('[data-option="processing.palette"]', { timeout: TIMEOUT });
      await panelsLoaded(other);
      assert.deepEqual(await optionValues(other), expected);
      assert.equal(await other.getByLabel('Preset', { exact: true }).inputValue(), 'custom');
      assert.equal(await statusText(other), 'Choose an image to trace.');
      await other.reload({ waitUntil: 'load' });
      await other.waitForSelector('[data-option="processing.palette"]', { timeout: TIMEOUT });
      await panelsLoaded(other);
      assert.deepEqual(await optionValues(other), expected);
      await other.close();
    },
  },
  {
    name: 'a share link with bad entries opens with the valid ones and says what was dropped',
    async run() {
      const form = new URLSearchParams([
        ['processing.max_colors', '5'],
        ['processing.max_colors_typo', '1'],
        ['output.shape_stacking', 'sideways'],
      ]).toString();
      const other = await context.newPage();
      watch(other, 'bad link page');
      await other.goto(`${baseUrl}#o=${encodeURIComponent(form)}`, { waitUntil: 'load' });
      await other.waitForSelector('[data-option="processing.max_colors"]', { timeout: TIMEOUT });
      await panelsLoaded(other);
      assert.equal(await option(other, 'processing.max_colors').inputValue(), '5');
      assert.equal(await option(other, 'output.shape_stacking').inputValue(), 'cutouts');
      assert.match(await statusText(other), /^Error 1019: Share link: Unknown option "processing\.max_colors_typo".*output\.shape_stacking must be one of cutouts, stacked/);
      assert.equal(await other.evaluate(() => window.location.hash), `#o=${encodeURIComponent('processing.max_colors=5')}`);
      await other.close();
    },
  },
  {
    name: 'snippets: the CLI command holds the current fields, shell-quoted; no credentials anywhere',
    async run(page) {
      const values = await optionValues(page);
      const fields = new URLSearchParams(decodeURIComponent(new URL(await shareLink(page)).hash.slice(3)));
      assert.ok([...fields].length >= 5, [...fields].join(' '));
      // Credentials typed into the remote panel (when it is on the page) must never leak.
      const secrets = ['real-id-4711', 'real-secret-0815'];
      if ((await page.getByLabel('API Id', { exact: true }).count()) > 0) {
        await page.getByLabel('API Id', { exact: true }).fill(secrets[0]!);
        await page.getByLabel('API Secret', { exact: true }).fill(secrets[1]!);
      }
      const cli = await snippetText(page, 'CLI');
      assert.match(cli, /^(# .*\n)+npx tracelab vectorize lineart\.png -o lineart\.svg \\\n/);
      for (const [name, value] of fields) {
        assert.equal(values[name], value, name);
        assert.ok(cli.includes(`--param ${shellQuote(`${name}=${value}`)}`), `${name}=${value} missing from:\n${cli}`);
      }
      assert.ok(cli.includes(`--param 'processing.palette=${PALETTE}'`));
      const curl = await snippetText(page, 'curl');
      assert.ok(curl.includes('curl -u "$VECTORIZER_API_ID:$VECTORIZER_API_SECRET"'), curl);
      assert.ok(curl.includes(`--form-string 'processing.palette=${PALETTE}'`), curl);
      assert.ok(curl.includes("'http://127.0.0.1:8787/api/v1/vectorize'") || curl.includes(' http://127.0.0.1:8787/api/v1/vectorize'), curl);
      await page.getByLabel('API server', { exact: true }).selectOption('remote');
      const remote = await page.getByTestId('snippet').textContent();
      assert.ok(remote?.includes('https://api.vectorizer.ai/api/v1/vectorize'), remote ?? '');
      const js = await snippetText(page, 'JS client');
      assert.ok(js.includes("apiId: process.env.VECTORIZER_API_ID ?? 'YOUR_API_ID'"), js);
      assert.ok(js.includes(`"processing.palette": ${JSON.stringify(PALETTE)}`), js);
      for (const text of [cli, curl, remote ?? '', js, await shareLink(page), await page.evaluate(() => window.location.href)]) {
        for (const secret of secrets) assert.ok(!text.includes(secret), `credential in ${text.slice(0, 80)}`);
        assert.ok(!/Authorization|Basic [A-Za-z0-9+/=]{8}/.test(text));
      }
      // Keyboard: arrow keys move between the snippet tabs.
      await page.getByRole('tab', { name: 'JS client', exact: true }).focus();
      await page.keyboard.press('ArrowRight');
      assert.equal(await page.getByRole('tab', { name: 'CLI', exact: true }).getAttribute('aria-selected'), 'true');
      await page.getByRole('button', { name: 'Copy snippet', exact: true }).click();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), await page.getByTestId('snippet').textContent());
      await page.screenshot({ path: screenshotPath, fullPage: true });
    },
  },
  {
    name: 'the page shows the same SVG the snippets produce (the shared pipeline, run here in Node)',
    async run(page) {
      const fields = [...new URLSearchParams(decodeURIComponent(new URL(await shareLink(page)).hash.slice(3)))];
      const svg = await page.evaluate(async () => (await fetch(document.querySelector<HTMLImageElement>('img[alt="Traced vector result"]')!.src)).text());
      // scripts/e2e.mjs runs from the repository root (it chdirs there); the spec is bundled elsewhere.
      const png = await readFile(join(process.cwd(), 'public', 'samples', 'lineart.png'));
      const out = await runVectorize(planVectorize(fields), new Uint8Array(png));
      assert.equal(svg, new TextDecoder().decode(out.body));
    },
  },
];

let screenshotPath = '/tmp/tracelab-e2e-inputs.png';
const problems: string[] = [];

const isExpected = (text: string) => expectedFailures.some((re) => re.test(text));

function watch(page: Page, label: string): void {
  watchPage(page, problems, { label, isExpected });
}

export async function runChecks(ctx: E2eContext, report: (r: CheckResult) => void = () => {}): Promise<CheckResult[]> {
  screenshotPath = ctx.screenshotPath;
  baseUrl = ctx.baseUrl;
  const opened = await openPage(ctx, {
    problems,
    setup: (c) => c.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(ctx.baseUrl).origin }),
    label: 'page',
    isExpected,
  });
  context = opened.context;
  const checks = [...CHECKS, noProblemsCheck(problems, 'no console errors, page errors or failed requests (besides the provoked ones)')];
  try {
    return await runCheckList(checks, report, opened.page);
  } finally {
    await context.close();
    await new Promise<void>((resolve) => (foreign ? foreign.server.close(() => resolve()) : resolve()));
  }
}
