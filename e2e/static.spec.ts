/**
 * Browser checks of the static build: what a static host serves from a sub-path.
 * Run by scripts/e2e.mjs (`--spec static`), which builds the site, serves it from /tracelab/demo/
 * with `vite preview` and calls `runChecks`. In: the browser and the served URL. Out: one result
 * per check, plus screenshots next to ctx.screenshotPath (-main, -offline, -large).
 *
 * - CSP: the built page carries the meta policy; a full flow (upload, trace, WebP through the
 *   wasm decoder, sample, download) raises no `securitypolicyviolation`, and a control page shows
 *   the policy is really enforced.
 * - Offline: once the service worker is ready, the page reloads and traces with the network off.
 * - Sub-path: no request leaves the sub-path (e.g. an absolute /assets/… at the server root).
 * - Long tasks: tracing a 2-megapixel PNG keeps every main-thread task under 200 ms.
 */

import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { BrowserContext, Page } from 'playwright-core';

import { denseShapesPng } from './draw.js';
import { browserEncode, fixturePng, noProblemsCheck, openPage, runCheckList, upload, waitForTrace } from './harness.js';
import type { Check, CheckResult, E2eContext, OpenPageOptions } from './harness.js';

/** The 2-megapixel trace runs in a worker and may take a while on a slow CI machine. */
const LARGE_TIMEOUT = 120_000;
const LONG_TASK_LIMIT_MS = 200;
/** Fetched while offline to prove the network is off; its failure is expected, not a problem. */
const OFFLINE_PROBE = 'not-precached.txt';


// ---------------------------------------------------------------------------------------------
// Page helpers

const INIT_SCRIPT = () => {
  // Runs before any page script, in every document of the context.
  const w = window as unknown as { __csp: string[]; __longTasks: { start: number; duration: number }[] };
  w.__csp = [];
  w.__longTasks = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    w.__csp.push(`${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`);
  });
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // no long task API: the long-task check's busy-loop control then fails, so this is seen
  }
};

const violations = (page: Page) => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);

/**
 * Waits until the status says Done and the result image shows a trace newer than `after`
 * (its data-trace-id) and has rendered. Returns that id.
 */
async function waitForResult(page: Page, after: number, timeout?: number): Promise<number> {
  return (await waitForTrace(page, after, { rendered: true, timeout })).id;
}

/** The fixture re-encoded as WebP by the browser (canvas), so the wasm decoder has to run. */
async function webpFixture(page: Page): Promise<Buffer> {
  const bytes = await browserEncode(page, fixturePng, 'image/webp');
  assert.equal(bytes.subarray(8, 12).toString('latin1'), 'WEBP', 'the browser did not encode WebP');
  return bytes;
}

/** The stats line as 'Profile: flat art; Colours: 4; …'. */
async function statsText(page: Page): Promise<string> {
  return (await page.getByTestId('stats').locator('.stat').allTextContents()).map((t) => t.trim()).join('; ');
}

// ---------------------------------------------------------------------------------------------

export async function runChecks(ctx: E2eContext, report: (r: CheckResult) => void = () => {}): Promise<CheckResult[]> {
  const shot = (suffix: string) => ctx.screenshotPath.replace(/\.png$/, '') + `-${suffix}.png`;
  const base = new URL(ctx.baseUrl);
  const problems: string[] = [];
  const requests: string[] = [];
  const tmp = await mkdtemp(join(tmpdir(), 'tracelab-static-'));

  /** Every page of a context: problems and requests collected, the init script installed. */
  const watched: OpenPageOptions = {
    problems,
    watchContext: true,
    setup: async (c) => {
      c.on('request', (req) => requests.push(req.url()));
      await c.addInitScript(INIT_SCRIPT);
    },
  };
  const { context, page } = await openPage(ctx, { ...watched, context: { acceptDownloads: true }, goto: false });
  let longContext: BrowserContext | undefined;

  const checks: Check[] = [
    {
      name: 'the build carries the CSP meta tag and a service worker precaching every built file',
      async run() {
        await page.goto(ctx.baseUrl, { waitUntil: 'load' });
        const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
        assert.ok(csp, 'no CSP meta tag in the built index.html');
        for (const directive of [
          "default-src 'self'",
          "script-src 'self' 'wasm-unsafe-eval'",
          "worker-src 'self'",
          "style-src 'self'",
          "object-src 'none'",
          "base-uri 'self'",
          "form-action 'none'",
        ]) {
          assert.ok(csp.split(/;\s*/).includes(directive), `CSP lacks "${directive}": ${csp}`);
        }
        assert.doesNotMatch(csp, /'unsafe-inline'|'unsafe-eval'/, 'CSP allows inline code or eval');
        // The worker's scope is the sub-path, and it precached everything the page can ask for.
        const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
        assert.equal(scope, ctx.baseUrl);
        const sw = await (await page.request.get(new URL('sw.js', ctx.baseUrl).href)).text();
        const files = JSON.parse(/const FILES = (\[[^\]]*\]);/.exec(sw)?.[1] ?? 'null') as string[] | null;
        assert.ok(files, 'sw.js has no FILES list');
        const html = await (await page.request.get(ctx.baseUrl)).text();
        const referenced = [...html.matchAll(/(?:src|href)="(\.\/[^"]+)"/g)].map((m) => m[1]!);
        for (const f of ['./index.html', './samples/shapes.png', './favicon.svg', ...referenced]) {
          assert.ok(files.includes(f), `${f} is not precached`);
        }
        for (const pattern of [/^\.\/assets\/tracer\.worker-[\w-]+\.js$/, /^\.\/assets\/webp_dec-[\w-]+\.wasm$/, /^\.\/assets\/webp-[\w-]+\.js$/]) {
          assert.ok(files.some((f) => pattern.test(f)), `nothing matching ${pattern} is precached`);
        }
        assert.ok(!files.some((f) => f.endsWith('.map') || f === './sw.js'), 'source maps or sw.js itself are precached');
        assert.ok(files.every((f) => f.startsWith('./')), 'precache paths must be relative');
        const caches = await page.evaluate(async () => {
          const keys = await globalThis.caches.keys();
          return Promise.all(keys.map(async (k) => ({ name: k, entries: (await (await globalThis.caches.open(k)).keys()).length })));
        });
        const mine = caches.filter((c) => c.name.startsWith(`tracelab ${ctx.baseUrl} `));
        assert.equal(mine.length, 1, `caches: ${JSON.stringify(caches)}`);
        assert.equal(mine[0]!.entries, files.length, 'every listed file is in the cache');
      },
    },
    {
      name: 'full flow under the CSP (upload, trace, WebP via wasm, sample, download): no violations; screenshot',
      async run() {
        let id = 0;
        await upload(page, 'fixture.png', fixturePng);
        id = await waitForResult(page, id);
        await upload(page, 'fixture.webp', await webpFixture(page), 'image/webp');
        id = await waitForResult(page, id);
        assert.match(await statsText(page), /Colours: [4-9]/);
        await page.getByRole('button', { name: 'Try a sample' }).click();
        id = await waitForResult(page, id);
        await page.waitForFunction(() => (document.querySelector<HTMLImageElement>('img[alt^="Input image"]')?.naturalWidth ?? 0) === 128);
        const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download SVG' }).click()]);
        assert.equal(download.suggestedFilename(), 'shapes.svg');
        assert.match(await readFile(await download.path(), 'utf8'), /^<\?xml[\s\S]*<svg /);
        await page.screenshot({ path: shot('main'), fullPage: true });
        // The page sets React style props (viewer stage size/transform, palette swatches) under
        // style-src 'self': React applies them through the CSSOM, which CSP does not restrict.
        const styled = await page.locator('[style]').count();
        assert.deepEqual(await violations(page), [], `violations (${styled} elements with style props on the page)`);

        // Control: the same listener does see a violation when the policy is broken on purpose,
        // so "none" above means the policy held, not that nothing was listening.
        // (Its own context, unwatched: the control's console error is expected.)
        const controlContext = await ctx.browser.newContext({ serviceWorkers: 'block' });
        try {
          await controlContext.addInitScript(INIT_SCRIPT);
          const control = await controlContext.newPage();
          await control.goto(ctx.baseUrl, { waitUntil: 'load' });
          await control.evaluate(() => {
            const style = document.createElement('style');
            style.textContent = 'body { outline: 1px solid red }';
            document.head.append(style);
          });
          await control.waitForFunction(() => (window as unknown as { __csp: string[] }).__csp.length > 0, null, { timeout: 5000 });
          assert.match((await violations(control)).join('\n'), /^style-src-elem blocked inline/);
        } finally {
          await controlContext.close();
        }
      },
    },
    {
      name: 'offline after the first load: reload with the network off, trace a PNG and a WebP',
      async run() {
        await page.evaluate(() => navigator.serviceWorker.ready);
        const webp = await webpFixture(page);
        const notFromCache: string[] = [];
        const onResponse = (res: { url(): string; fromServiceWorker(): boolean }) => {
          if (/^https?:/.test(res.url()) && !res.fromServiceWorker()) notFromCache.push(res.url());
        };
        await context.setOffline(true);
        context.on('response', onResponse);
        try {
          await page.reload({ waitUntil: 'load' });
          // The network really is off for the page: a file that is not precached cannot load.
          const probe = await page.evaluate(async (path) => {
            try {
              return `HTTP ${(await fetch(path, { cache: 'no-store' })).status}`;
            } catch (err) {
              return `failed (${(err as Error).name})`;
            }
          }, `./${OFFLINE_PROBE}`);
          assert.equal(probe, 'failed (TypeError)', 'the network is still on');
          assert.ok(await page.evaluate(() => navigator.serviceWorker.controller !== null), 'the page is not controlled by the service worker');
          await page.waitForSelector('text=Choose an image to trace.');
          let id = 0;
          await upload(page, 'offline.png', fixturePng);
          id = await waitForResult(page, id);
          await upload(page, 'offline.webp', webp, 'image/webp');
          id = await waitForResult(page, id);
          assert.match(await statsText(page), /Colours: [4-9]/);
          await page.getByRole('button', { name: 'Try a sample' }).click();
          id = await waitForResult(page, id);
          await page.screenshot({ path: shot('offline'), fullPage: true });
          assert.deepEqual(notFromCache, [], 'responses that did not come from the service worker');
          assert.deepEqual(await violations(page), []);
        } finally {
          context.off('response', onResponse);
          await context.setOffline(false);
        }
      },
    },
    {
      name: `no main-thread task over ${LONG_TASK_LIMIT_MS} ms while a 2-megapixel PNG is traced (fresh page); screenshot`,
      async run() {
        const pngPath = join(tmp, 'large-2mp.png');
        await writeFile(pngPath, denseShapesPng());
        const opened = await openPage(ctx, { ...watched, timeout: LARGE_TIMEOUT, goto: false });
        longContext = opened.context;
        const fresh = opened.page;
        await fresh.goto(ctx.baseUrl, { waitUntil: 'load' });
        // Let the first load settle (the service worker precaches in its own thread meanwhile).
        await fresh.evaluate(() => navigator.serviceWorker.ready);
        await fresh.waitForTimeout(500);
        const start = await fresh.evaluate(() => performance.now());
        // A file path, not a buffer: Playwright then hands the file to the browser directly
        // instead of rebuilding it from base64 in the page (which would be a long task of its own).
        await fresh.getByLabel('Choose an image').setInputFiles(pngPath);
        await waitForResult(fresh, 0, LARGE_TIMEOUT);
        await fresh.waitForFunction(() => (document.querySelector<HTMLImageElement>('img[alt^="Input image"]')?.naturalWidth ?? 0) === 1600);
        // Two frames and a pause so the result's first paint is inside the window.
        await fresh.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 300)))));
        const tasks = await fresh.evaluate(
          (t0) => (window as unknown as { __longTasks: { start: number; duration: number }[] }).__longTasks.filter((t) => t.start + t.duration >= t0),
          start,
        );
        const max = tasks.reduce((m, t) => Math.max(m, t.duration), 0);
        const stats = await statsText(fresh);
        console.log(
          `      2-MP trace: ${stats}; main-thread long tasks (≥ 50 ms): ${tasks.length}, max ${Math.round(max)} ms` +
            (tasks.length ? ` [${tasks.map((t) => Math.round(t.duration)).join(', ')}]` : ''),
        );
        await fresh.screenshot({ path: shot('large'), fullPage: true });
        assert.match(stats, /Shapes: \d+/);
        assert.ok(max <= LONG_TASK_LIMIT_MS, `a main-thread task took ${Math.round(max)} ms`);
        // Control: a deliberate 120 ms busy task is seen, so "no long task" means none happened.
        await fresh.evaluate(() => setTimeout(() => {
          const end = performance.now() + 120;
          while (performance.now() < end) {
            // busy
          }
        }));
        await fresh.waitForFunction(
          (t0) => (window as unknown as { __longTasks: { start: number; duration: number }[] }).__longTasks.some((t) => t.start >= t0 && t.duration >= 100),
          start,
          { timeout: 5000 },
        );
        assert.deepEqual(await violations(fresh), []);
      },
    },
    {
      name: 'every request stays under the sub-path (no absolute /assets/… at the server root)',
      async run() {
        const http = requests.filter((u) => /^https?:/.test(u));
        assert.ok(http.length > 10, `only ${http.length} requests recorded`);
        const outside = [...new Set(http.filter((u) => !u.startsWith(ctx.baseUrl)))];
        assert.deepEqual(outside, [], `requests outside ${base.pathname}`);
      },
    },
    noProblemsCheck(problems, undefined, (p) => !p.includes(OFFLINE_PROBE)),
  ];

  try {
    return await runCheckList(checks, report, page);
  } finally {
    await context.close();
    await longContext?.close();
    await rm(tmp, { recursive: true, force: true });
  }
}
