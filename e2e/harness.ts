/**
 * What every e2e spec shares: the types scripts/e2e.mjs hands over and gets back, opening a page
 * that collects problems (console errors, page errors, failed requests, HTTP ≥ 400, worker console
 * errors), running the checks in order with their times, and small page helpers.
 */

import assert from 'node:assert/strict';

import type { Browser, BrowserContext, BrowserContextOptions, ConsoleMessage, Page, Request, Response, Worker } from 'playwright-core';

import { fixtureScene, scenePng } from './draw.js';

export interface E2eContext {
  readonly browser: Browser;
  /** URL of the served site, ending in '/' (a sub-path, not the server root). */
  readonly baseUrl: string;
  readonly screenshotPath: string;
}

export interface CheckResult {
  readonly name: string;
  readonly ok: boolean;
  readonly ms: number;
  readonly error?: unknown;
}

export interface Check {
  readonly name: string;
  run(page: Page): Promise<void>;
}

export type Report = (r: CheckResult) => void;

export const TIMEOUT = 30_000;

/** The small test picture (96 × 80, four flat colours) most checks upload. */
export const fixturePng = Buffer.from(scenePng(fixtureScene()));

// ---------------------------------------------------------------------------------------------
// Problems

export interface WatchOptions {
  /** Put before every problem: 'page' → 'page console.error: …'. */
  readonly label?: string;
  /** When a console error happened, e.g. the running check: → 'console.error during "…": …'. */
  readonly during?: () => string;
  /** Provoked on purpose: console errors ('text (url)'), failed and HTTP-error request URLs it matches are not problems. */
  readonly isExpected?: (text: string) => boolean;
  /** Collect console errors of the page's workers too (default true). */
  readonly workers?: boolean;
  /** Sees every console message of the page (not only errors). */
  readonly onConsole?: (msg: ConsoleMessage) => void;
  /** Sees every worker the page starts. */
  readonly onWorker?: (worker: Worker) => void;
}

function requestWatchers(problems: string[], options: WatchOptions) {
  const prefix = options.label ? `${options.label} ` : '';
  const expected = options.isExpected ?? (() => false);
  return {
    requestfailed(req: Request): void {
      // Chromium fetches the favicon on its own and cancels that fetch when the page reloads or
      // navigates meanwhile: an abort of the browser's, not a request of the app that failed.
      if (/\/favicon\.[a-z]+$/.test(new URL(req.url()).pathname) && req.failure()?.errorText === 'net::ERR_ABORTED') return;
      if (!req.url().startsWith('blob:') && !expected(req.url())) problems.push(`${prefix}request failed: ${req.url()} (${req.failure()?.errorText})`);
    },
    response(res: Response): void {
      if (res.status() >= 400 && !expected(res.url())) problems.push(`${prefix}HTTP ${res.status()}: ${res.url()}`);
    },
  };
}

/** Console errors, page errors and worker console errors of one page. */
function watchConsole(page: Page, problems: string[], options: WatchOptions): void {
  const prefix = options.label ? `${options.label} ` : '';
  page.on('console', (msg: ConsoleMessage) => {
    options.onConsole?.(msg);
    const text = `${msg.text()} (${msg.location().url})`;
    if (msg.type() !== 'error' || options.isExpected?.(text)) return;
    const during = options.during ? ` during "${options.during()}"` : '';
    problems.push(`${prefix}console.error${during}: ${text}`);
  });
  page.on('pageerror', (err) => problems.push(`${prefix}page error: ${err.message}`));
  // CSP violations inside the trace workers reach no document listener, but Chromium logs them.
  page.on('worker', (worker) => {
    options.onWorker?.(worker);
    if (options.workers === false) return;
    worker.on('console', (msg: ConsoleMessage) => {
      if (msg.type() === 'error') problems.push(`${prefix}worker console.error: ${msg.text()}`);
    });
  });
}

/** Collects the problems of one page into `problems`. */
export function watchPage(page: Page, problems: string[], options: WatchOptions = {}): void {
  watchConsole(page, problems, options);
  const requests = requestWatchers(problems, options);
  page.on('requestfailed', requests.requestfailed);
  page.on('response', requests.response);
}

/** Collects the problems of every page of a context (and of its service worker's requests). */
export function watchContext(context: BrowserContext, problems: string[], options: WatchOptions = {}): void {
  const requests = requestWatchers(problems, options);
  context.on('requestfailed', requests.requestfailed);
  context.on('response', requests.response);
  context.on('page', (page) => watchConsole(page, problems, options));
}

export interface OpenPageOptions extends WatchOptions {
  /** Browser context options, over a 1200 × 900 viewport. */
  readonly context?: BrowserContextOptions;
  /** Runs on the new context before the page opens (routes, permissions, init scripts). */
  readonly setup?: (context: BrowserContext) => Promise<void> | void;
  /** Collect into this list (default: a new one). */
  readonly problems?: string[];
  /** Watch the whole context (its service worker's requests too) instead of the page alone. */
  readonly watchContext?: boolean;
  /** The page's default timeout (default TIMEOUT). */
  readonly timeout?: number;
  /** Load ctx.baseUrl before returning (default true). */
  readonly goto?: boolean;
}

/** A new context and page, watched for problems, with ctx.baseUrl loaded. */
export async function openPage(
  ctx: E2eContext,
  options: OpenPageOptions = {},
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const problems = options.problems ?? [];
  const context = await ctx.browser.newContext({ viewport: { width: 1200, height: 900 }, ...options.context });
  if (options.watchContext) watchContext(context, problems, options);
  await options.setup?.(context);
  const page = await context.newPage();
  page.setDefaultTimeout(options.timeout ?? TIMEOUT);
  if (!options.watchContext) watchPage(page, problems, options);
  if (options.goto !== false) await page.goto(ctx.baseUrl, { waitUntil: 'load' });
  return { context, page, problems };
}

/** The closing check: nothing went wrong over the whole session (`keep` drops provoked problems). */
export function noProblemsCheck(
  problems: readonly string[],
  name = 'no console errors, page errors or failed requests',
  keep: (problem: string) => boolean = () => true,
): Check {
  return {
    name,
    async run() {
      assert.deepEqual(problems.filter(keep), []);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Running

/**
 * Runs the checks in order on `page` (the ones that need none get it all the same), timing each:
 * a failing check is reported and the next one runs. `onStart` sees each check as it begins.
 */
export async function runCheckList(
  checks: readonly Check[],
  report: Report,
  page: Page,
  onStart: (check: Check) => void = () => {},
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const check of checks) {
    const start = Date.now();
    onStart(check);
    let result: CheckResult;
    try {
      await check.run(page);
      result = { name: check.name, ok: true, ms: Date.now() - start };
    } catch (error) {
      result = { name: check.name, ok: false, ms: Date.now() - start, error };
    }
    results.push(result);
    report(result);
  }
  return results;
}

// ---------------------------------------------------------------------------------------------
// Page helpers

export async function upload(page: Page, name: string, buffer: Buffer, mimeType = 'image/png'): Promise<void> {
  await page.getByLabel('Choose an image').setInputFiles({ name, mimeType, buffer });
}

export const status = (page: Page) => page.getByRole('status');

export async function statusText(page: Page): Promise<string> {
  return ((await status(page).textContent()) ?? '').trim();
}

/** The local trace is done: the status says Done. */
export async function waitForDone(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelector('[role="status"]')?.textContent?.trim() === 'Done', null, { timeout: TIMEOUT });
}

/**
 * Waits until the status says Done and the result image shows a trace newer than `after` (its
 * data-trace-id: an identical SVG keeps its blob URL, so the id is what tells a re-trace apart).
 * `rendered`: also until the image has loaded, failing at once when the status says Error.
 */
export async function waitForTrace(
  page: Page,
  after: number,
  options: { readonly rendered?: boolean; readonly timeout?: number } = {},
): Promise<{ id: number; src: string }> {
  const rendered = options.rendered ?? false;
  const handle = await page.waitForFunction(
    ([prev, whole]) => {
      const statusText = document.querySelector('[role="status"]')?.textContent?.trim();
      const img = document.querySelector<HTMLImageElement>('img[alt="Traced vector result"]');
      const id = Number(img?.dataset.traceId ?? 0);
      if (whole && statusText?.startsWith('Error')) throw new Error(statusText);
      const ready = whole ? img !== null && img.complete && img.naturalWidth > 0 : img !== null && img.src.startsWith('blob:');
      return statusText === 'Done' && ready && id > prev ? { id, src: img!.src } : false;
    },
    [after, rendered] as const,
    rendered ? { timeout: options.timeout ?? TIMEOUT, polling: 50 } : { timeout: options.timeout ?? TIMEOUT },
  );
  return (await handle.jsonValue()) as { id: number; src: string };
}

/** A `waitForTrace` that remembers the last trace it saw: each call waits for a newer one and returns its blob URL. */
export function resultWaiter(): (page: Page) => Promise<string> {
  let lastTraceId = 0;
  return async (page) => {
    const { id, src } = await waitForTrace(page, lastTraceId);
    lastTraceId = id;
    return src;
  };
}

/** The text behind a URL of the page (a blob: URL, say). */
export async function fetchText(page: Page, url: string): Promise<string> {
  return page.evaluate(async (u) => (await fetch(u)).text(), url);
}

/** The bytes behind a URL of the page. */
export async function fetchBytes(page: Page, url: string): Promise<Buffer> {
  const bytes = await page.evaluate(async (u) => Array.from(new Uint8Array(await (await fetch(u)).arrayBuffer())), url);
  return Buffer.from(bytes);
}

/**
 * The keys of the stats line (src/ui/Stats.tsx); Why (the engine's reason for the profile) when
 * the worker gave one, Gradients only when the result has gradient fills, Strokes to Pen up only
 * when it has pen strokes (tracelab.strokes).
 */
const STATS_KEYS = ['Profile', 'Why', 'Colours', 'Shapes', 'Gradients', 'Strokes', 'Widths', 'Pen down', 'Pen up', 'Nodes', 'Size', 'Time', 'Re-ran'];
const STATS_ITEM = new RegExp(`(${STATS_KEYS.join('|')}): ((?:(?!${STATS_KEYS.map((k) => `${k}:`).join('|')}).)*)`, 'g');

/** The stats line as a record: { Profile: 'flat art', Colours: '4', … }. */
export async function stats(page: Page): Promise<Record<string, string>> {
  const text = (await page.getByTestId('stats').textContent()) ?? '';
  const out: Record<string, string> = {};
  for (const m of text.matchAll(STATS_ITEM)) out[m[1]!] = m[2]!.trim();
  return out;
}

/** A PNG re-encoded by the browser (canvas.convertToBlob): a real WebP or JPEG file. */
export async function browserEncode(page: Page, png: Buffer, type: string): Promise<Buffer> {
  const bytes = await page.evaluate(
    async ([pngBytes, mime]) => {
      const bitmap = await createImageBitmap(new Blob([new Uint8Array(pngBytes)], { type: 'image/png' }));
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      canvas.getContext('2d')!.drawImage(bitmap, 0, 0);
      const blob = await canvas.convertToBlob({ type: mime, quality: 0.95 });
      return [...new Uint8Array(await blob.arrayBuffer())];
    },
    [[...png], type] as const,
  );
  return Buffer.from(bytes);
}
