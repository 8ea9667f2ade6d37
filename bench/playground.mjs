/**
 * Playground timings (issue 14's playground targets), measured in the built app as a user meets
 * it: `vite build`, `vite preview`, Debian's Chromium through playwright-core.
 *
 * - first result: a 2-MP image is dropped on a freshly loaded page (its worker's code as cold as a
 *   visitor's); time from the drop event to the first traced result on screen (the result <img>
 *   loaded: a draft for a picture over 1 MP) and to the finished result;
 * - output option: on a 1-MP image, `output.gap_filler.enabled` is toggled; time from the
 *   checkbox's change event to the new result on screen (a checkbox is traced at once: no pause);
 * - colour change: on the same page, `processing.max_colors` is typed (8, then 0, …); time from
 *   the input event to the new result, including the 150 ms pause a typed field waits for the
 *   next key (the worker re-runs from the palette on: src/engine/memo.ts);
 * - main thread: the longest task a PerformanceObserver ('longtask', ≥ 50 ms) saw from the drop
 *   (or the toggle) to the result, and before the drop (page load).
 *
 * Pictures (made here, not in the corpus files): two original SVGs of the corpus rendered by
 * resvg at 2 MP (clip art and line art, sharp edges as a designer's export has) and at 1 MP, and a
 * corpus photo scaled up bilinearly to 2 MP.
 *
 * - dropped while loading: the 2-MP photo dropped as soon as the drop zone exists (the page still
 *   mounting, its worker not loaded yet), timed as the first result;
 * - memory: the renderer process's peak RSS (VmHWM) after each 2-MP drop;
 * - the output option is also toggled on a 1-MP photo, whose SVG is megabytes;
 * - flows: every flow of the page on one page with the 2-MP photo (load, drops, view modes, zoom,
 *   options, palette, presets, each download, Copy SVG, share link), each with its longest task's
 *   wall time (PerformanceObserver) and the CPU time of its costliest main-thread task (a Chromium
 *   trace's thread time: on a busy machine a task's wall time is mostly waiting for a core).
 *
 * In: TRACELAB_CORPUS (default ../shared/corpus beside the repository, as bench/corpus.mjs), BENCH_PLAYGROUND_RUNS (default 3 pages per picture), BENCH_PLAYGROUND_ONLY (picture names or
 * kinds — first, loading, option, output, flows — comma-separated), BENCH_PLAYGROUND_TRACE=DIR (a Chromium
 * trace per page, for finding long tasks; the app is then built unminified, so names in the trace
 * are the source's: its timings are not the table's). Out: rows and a Markdown table;
 * `node bench/playground.mjs` alone writes bench/results/playground.md.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './median.mjs';

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH, '..');
const CORPUS = resolve(process.env.TRACELAB_CORPUS ?? join(ROOT, '..', 'shared', 'corpus'));
const RUNS = Math.max(1, parseInt(process.env.BENCH_PLAYGROUND_RUNS ?? '3', 10) || 3);
const requireBench = createRequire(join(BENCH, 'package.json'));
const requireRoot = createRequire(join(ROOT, 'package.json'));
const SUB_PATH = '/tracelab/';
const TIMEOUT_MS = 120_000;


/** An original SVG rendered by resvg to about `megapixels` (width × height), as PNG bytes. */
function renderSvg(file, megapixels) {
  const { Resvg } = requireBench('@resvg/resvg-js');
  const svg = readFileSync(join(CORPUS, file));
  const natural = new Resvg(svg);
  const scale = Math.sqrt((megapixels * 1e6) / (natural.width * natural.height));
  const png = new Resvg(svg, { fitTo: { mode: 'width', value: Math.round(natural.width * scale) }, background: 'white' }).render();
  return { bytes: png.asPng(), width: png.width, height: png.height };
}

/** A corpus PNG scaled bilinearly to about `megapixels`, as PNG bytes (straight RGBA). */
function upscalePng(file, megapixels) {
  const { decode, encode } = requireRoot('fast-png');
  const src = decode(readFileSync(join(CORPUS, file)));
  const scale = Math.sqrt((megapixels * 1e6) / (src.width * src.height));
  const width = Math.round(src.width * scale);
  const height = Math.round(src.height * scale);
  const ch = src.channels;
  const out = new Uint8Array(width * height * 4);
  const sample = (x, y, c) => (c === 3 && ch !== 4 ? 255 : src.data[(y * src.width + x) * ch + c]);
  for (let y = 0; y < height; y++) {
    const fy = Math.max(0, ((y + 0.5) * src.height) / height - 0.5);
    const y0 = Math.min(src.height - 1, Math.floor(fy));
    const y1 = Math.min(src.height - 1, y0 + 1);
    const ay = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = Math.max(0, ((x + 0.5) * src.width) / width - 0.5);
      const x0 = Math.min(src.width - 1, Math.floor(fx));
      const x1 = Math.min(src.width - 1, x0 + 1);
      const ax = fx - x0;
      for (let c = 0; c < 4; c++) {
        const top = sample(x0, y0, c) * (1 - ax) + sample(x1, y0, c) * ax;
        const bottom = sample(x0, y1, c) * (1 - ax) + sample(x1, y1, c) * ax;
        out[(y * width + x) * 4 + c] = Math.round(top * (1 - ay) + bottom * ay);
      }
    }
  }
  return { bytes: Buffer.from(encode({ width, height, data: out, channels: 4, depth: 8 })), width, height };
}

/** The pictures: 2-MP drops (on a loaded page, and one while the page loads) and 1-MP pictures for the option changes. */
export function playgroundPictures() {
  const photo2 = upscalePng('photo-astronaut.png', 2);
  return [
    { name: 'clipart-baseball-glove@2MP', kind: 'first', ...renderSvg('clipart-baseball-glove.ref.svg', 2) },
    { name: 'lineart_bw-owl@2MP', kind: 'first', ...renderSvg('lineart_bw-owl.ref.svg', 2) },
    { name: 'photo-astronaut@2MP', kind: 'first', ...photo2 },
    // The issue's case: the same photo dropped as soon as the drop zone exists, while the page
    // still mounts its other panels and before its preview worker has loaded.
    { name: 'photo-astronaut@2MP', kind: 'loading', ...photo2 },
    // Every flow of the page (views, options, palette, presets, downloads, share link) on the 2-MP photo.
    { name: 'photo-astronaut@2MP', kind: 'flows', ...photo2 },
    { name: 'clipart-baseball-glove@1MP', kind: 'option', ...renderSvg('clipart-baseball-glove.ref.svg', 1) },
    // An output-only change where the result is big (a photo's SVG of megabytes): only the toggle.
    { name: 'photo-astronaut@1MP', kind: 'output', ...upscalePng('photo-astronaut.png', 1) },
  ];
}

/**
 * Installed in every page before its scripts: long tasks, the last change event's time on a file
 * input or an option, and each result shown (a new data-trace-id or src on the result <img>, once
 * the image has loaded).
 */
function probe(early) {
  const w = window;
  w.__bench = { longTasks: [], changes: [], shown: [] };
  if (early) {
    // Drop while the page loads: the file is fetched at once (from this machine: a few ms) and
    // dropped in a task of its own as soon as the drop zone is in the document.
    const file = fetch(early.url).then((r) => r.blob());
    const zoneThere = new Promise((resolveZone) => {
      const look = () => {
        const zone = document.querySelector('.dropzone');
        if (!zone) return false;
        resolveZone(zone);
        return true;
      };
      const watch = new MutationObserver(() => look() && watch.disconnect());
      watch.observe(document, { subtree: true, childList: true });
    });
    Promise.all([zoneThere, file]).then(([zone, blob]) =>
      setTimeout(() => {
        const data = new DataTransfer();
        data.items.add(new File([blob], early.name, { type: 'image/png' }));
        w.__bench.loadLongTasks = w.__bench.longTasks.splice(0);
        zone.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
      }, 0),
    );
  }
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__bench.longTasks.push({ start: e.startTime, ms: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  // Long animation frames (≥ 50 ms from a task's start to the frame's paint): their scripts say
  // what ran in a long task (invoker, function, source position), their style-and-layout time what
  // the rendering cost. Kept for the flows' table (what each flow's longest task was).
  w.__bench.frames = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        const scripts = [...e.scripts]
          .sort((a, b) => b.duration - a.duration)
          .slice(0, 3)
          .map((sc) => `${sc.invoker || sc.invokerType} ${sc.sourceFunctionName || ''}@${(sc.sourceURL || '').split('/').pop()}:${sc.sourceCharPosition} ${sc.duration.toFixed(0)} ms`);
        const renderMs = e.renderStart ? e.startTime + e.duration - e.renderStart : 0;
        w.__bench.frames.push({ start: e.startTime, ms: e.duration, blockingMs: e.blockingDuration, renderMs, layoutMs: e.styleAndLayoutStart ? e.startTime + e.duration - e.styleAndLayoutStart : 0, scripts });
      }
    }).observe({ type: 'long-animation-frame', buffered: true });
  } catch {
    // a browser without long-animation-frame entries: the long tasks alone
  }
  const changed = (e) => w.__bench.changes.push({ t: e.timeStamp, type: e.type, target: e.target?.id || e.target?.type || '' });
  document.addEventListener('change', changed, true);
  document.addEventListener('input', changed, true);
  document.addEventListener('drop', (e) => { w.__bench.drop = e.timeStamp; }, true);
  let seen = '';
  const check = () => {
    const img = document.querySelector('img[alt="Traced vector result"]');
    if (!img) return;
    const key = `${img.dataset.traceId ?? ''} ${img.src}`;
    if (key === seen || !img.src) return;
    seen = key;
    const note = () => {
      const status = document.querySelector('[role="status"]')?.textContent?.trim() ?? '';
      w.__bench.shown.push({ t: performance.now(), key, status, id: Number(img.dataset.traceId ?? 0) });
    };
    if (img.complete && img.naturalWidth > 0) note();
    else img.addEventListener('load', note, { once: true });
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['src', 'data-trace-id'] });
}

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

/** Waits until the status says Done and a finished trace newer than `afterId` is shown (drafts have negative ids). */
async function waitForResult(page, afterId) {
  await page.waitForFunction(
    (prev) => {
      const status = document.querySelector('[role="status"]')?.textContent?.trim();
      if (status?.startsWith('Error')) throw new Error(status);
      return status === 'Done' && window.__bench.shown.some((s) => s.id > prev);
    },
    afterId,
    { timeout: TIMEOUT_MS, polling: 20 },
  );
  const b = await page.evaluate(() => window.__bench);
  return { bench: b, final: b.shown.find((s) => s.id > afterId) };
}

/**
 * A fresh page; with `early` ({ url, name }) the picture is dropped as soon as the drop zone exists
 * (probe), else the page is left to settle for a second first, as a user's page has before a drop.
 * With BENCH_PLAYGROUND_TRACE=DIR, a Chromium trace of the page (timeline and JS samples) is written
 * to DIR/<tag>.json until the page is closed (see closePage).
 */
async function openPage(browser, baseUrl, { early, tag } = {}) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.addInitScript(probe, early ?? null);
  // BENCH_CONSOLE=1: the page's and its workers' console lines on stderr (for timing probes added while investigating).
  if (process.env.BENCH_CONSOLE) page.on('console', (m) => process.stderr.write(`console: ${m.text()}\n`));
  if (TRACE_DIR && tag) {
    mkdirSync(TRACE_DIR, { recursive: true });
    await browser.startTracing(page, { path: join(TRACE_DIR, `${tag}.json`), categories: TRACE_CATEGORIES });
    page.__traced = true;
  }
  await page.goto(baseUrl);
  if (early) return page;
  // A DOM query, not a locator: a locator's visibility check reads the layout and would force one
  // into the page's own tasks.
  await page.waitForFunction(() => document.querySelector('.dropzone') !== null, null, { timeout: TIMEOUT_MS, polling: 50 });
  // Let the page settle (its workers load) as it has before a user drops anything.
  await page.waitForTimeout(1000);
  return page;
}

async function closePage(browser, page) {
  if (page.__traced) await browser.stopTracing();
  await page.close();
}

const TRACE_DIR = process.env.BENCH_PLAYGROUND_TRACE;
const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing', 'loading', 'disabled-by-default-v8.cpu_profiler', 'v8', 'blink', 'toplevel'];

/**
 * Peak resident memory of the page's renderer process (VmHWM, in MB): the page, its trace worker
 * and the worker's engine threads all live in it. The renderers are found through CDP
 * (SystemInfo.getProcessInfo); with one page open at a time the page's is the largest (a spare
 * renderer Chromium keeps warm holds tens of MB). Undefined where /proc or the CDP call is missing.
 */
async function rendererPeakMb(browser) {
  try {
    const cdp = await browser.newBrowserCDPSession();
    const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
    await cdp.detach();
    let peak;
    for (const p of processInfo.filter((q) => q.type === 'renderer')) {
      const status = readFileSync(`/proc/${p.id}/status`, 'utf8');
      const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]);
      if (Number.isFinite(kb)) peak = Math.max(peak ?? 0, kb / 1024);
    }
    return peak;
  } catch {
    return undefined;
  }
}

/** Fetches the picture in the page (untimed), then drops it on the drop zone; resolves at the drop. */
async function dropPicture(page, baseUrl, picture) {
  await page.evaluate(async ([url, name]) => {
    const blob = await (await fetch(url)).blob();
    const data = new DataTransfer();
    data.items.add(new File([blob], name, { type: 'image/png' }));
    window.__bench.loadLongTasks = window.__bench.longTasks.splice(0); // the rest is what the drop causes
    document.querySelector('.dropzone').dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, [`${baseUrl}bench/${picture.name}.png`, `${picture.name}.png`]);
}

const longest = (tasks) => tasks.reduce((m, t) => Math.max(m, t.ms), 0);

/**
 * One drop of a 2-MP picture in a fresh page: first shown, final (Done) shown, longest task, the
 * renderer's peak memory. `early`: dropped while the page loads (probe) instead of after it settled.
 */
async function timeFirstResult(browser, baseUrl, picture, { early = false, tag } = {}) {
  // A fresh page per drop: the worker's code is as cold as a visitor's.
  const file = { url: `${baseUrl}bench/${picture.name}.png`, name: `${picture.name}.png` };
  const page = await openPage(browser, baseUrl, { early: early ? file : undefined, tag });
  try {
    if (!early) await dropPicture(page, baseUrl, picture);
    const { bench: b, final } = await waitForResult(page, 0);
    const drop = b.drop;
    const worst = b.longTasks.reduce((w, t) => (t.ms > (w?.ms ?? 0) ? t : w), undefined);
    return {
      dropAtMs: drop,
      firstMs: b.shown[0].t - drop,
      finalMs: final.t - drop,
      drafts: b.shown.filter((s) => s.id < 0).length,
      longTaskMs: longest(b.longTasks),
      longTaskAtMs: worst ? worst.start - drop : undefined,
      loadLongTaskMs: longest(b.loadLongTasks ?? []),
      loadTasks: (b.loadLongTasks ?? []).map((t) => `${t.ms.toFixed(0)}@${t.start.toFixed(0)}`).join(' '),
      peakMb: await rendererPeakMb(browser),
    };
  } finally {
    await closePage(browser, page);
  }
}

/**
 * On a traced 1-MP picture: the output option toggled `RUNS` times, then the colour count typed
 * `RUNS` times; each timed from the first event of the change to the new result shown.
 */
async function timeOptionChanges(browser, baseUrl, picture, { outputOnly = false } = {}) {
  const page = await openPage(browser, baseUrl, { tag: `${picture.name}-${picture.kind}` });
  try {
    await dropPicture(page, baseUrl, picture);
    let { final } = await waitForResult(page, 0);
    const timeChanges = async (change) => {
      await page.evaluate(() => (window.__bench.longTasks.length = 0));
      const times = [];
      const workerTimes = [];
      for (let i = 0; i < RUNS; i++) {
        const changesBefore = await page.evaluate(() => window.__bench.changes.length);
        await change(i);
        const next = await waitForResult(page, final.id);
        final = next.final;
        times.push(final.t - next.bench.changes[changesBefore].t);
        // The worker's own time (the stats line's): the rest is the page's.
        const stats = await page.evaluate(() => document.querySelector('[data-testid="stats"]')?.textContent ?? '');
        workerTimes.push(Number(/Time: ([\d,]+) ms/.exec(stats)?.[1]?.replace(/,/g, '')));
      }
      const b = await page.evaluate(() => window.__bench);
      return { ms: median(times), runs: times, workerMs: median(workerTimes), workerRuns: workerTimes, longTaskMs: longest(b.longTasks) };
    };
    const box = page.getByLabel('output.gap_filler.enabled', { exact: true });
    const option = await timeChanges((i) => box.setChecked(i % 2 === 0 ? false : true));
    if (outputOnly) return { option };
    const colours = page.getByLabel('processing.max_colors', { exact: true });
    const colour = await timeChanges((i) => colours.fill(i % 2 === 0 ? '8' : '0'));
    // A change made while the trace of the one before still runs: timed from the second change.
    const stacking = page.getByLabel('output.shape_stacking', { exact: true });
    await page.evaluate(() => (window.__bench.longTasks.length = 0));
    const staleTimes = [];
    for (let i = 0; i < RUNS; i++) {
      await colours.fill(i % 2 === 0 ? '6' : '0');
      await page.waitForFunction(() => document.querySelector('[role="status"]')?.textContent === 'Tracing…', null, { timeout: TIMEOUT_MS, polling: 10 });
      await page.waitForTimeout(100);
      const changesBefore = await page.evaluate(() => window.__bench.changes.length);
      await stacking.selectOption(i % 2 === 0 ? 'stacked' : 'cutouts');
      const next = await waitForResult(page, final.id);
      final = next.final;
      staleTimes.push(final.t - next.bench.changes[changesBefore].t);
    }
    const staleTasks = await page.evaluate(() => window.__bench.longTasks);
    const stale = { ms: median(staleTimes), runs: staleTimes, longTaskMs: longest(staleTasks) };
    return { option, colour, stale };
  } finally {
    await closePage(browser, page);
  }
}

/** Drops the file at `url` (fetched in the page, untimed) on the drop zone. */
async function dropUrl(page, url, name) {
  await page.evaluate(async ([fileUrl, fileName]) => {
    const blob = await (await fetch(fileUrl)).blob();
    const data = new DataTransfer();
    data.items.add(new File([blob], fileName, { type: blob.type || 'image/png' }));
    document.querySelector('.dropzone').dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, [url, name]);
}

/** Resolves after two painted frames and the task after them: the flow's long tasks and frames are reported by then. */
async function settled(page) {
  await page.evaluate(
    () =>
      new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 0)))),
  );
  // Observers deliver their entries in a task of their own after the frame: one more round.
  await page.evaluate(() => new Promise((done) => setTimeout(done, 50)));
}

/** The id of the finished result on screen (0: none). */
const shownId = (page) => page.evaluate(() => Math.max(0, ...window.__bench.shown.map((s) => s.id)));

/** Waits until the status says Done and a finished result newer than `afterId` is on screen. */
const traced = async (page, afterId) => (await waitForResult(page, afterId)).final.id;

/**
 * The playground's flows on one page, one after the other, each with the longest main-thread task
 * it caused (the task from the flow's first event to the state it waits for) and, from the long
 * animation frames, what that task ran. The page is a user's: loaded, a small picture dropped, then
 * the 2-MP picture, its views, an option, the palette, presets, every download, copying and the
 * share link.
 */
async function timeFlows(browser, baseUrl, picture) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  await page.addInitScript(probe, null);
  // Always traced (the main thread's tasks with their CPU time: see flowCpuTimes); with
  // BENCH_PLAYGROUND_TRACE the full categories, also written to DIR/flows.json.
  if (TRACE_DIR) mkdirSync(TRACE_DIR, { recursive: true });
  await browser.startTracing(page, { ...(TRACE_DIR ? { path: join(TRACE_DIR, 'flows.json') } : {}), categories: TRACE_DIR ? TRACE_CATEGORIES : FLOW_TRACE_CATEGORIES });
  const rows = [];
  const take = async (name) => {
    await settled(page);
    await page.evaluate((n) => performance.mark(`flow-end:${n}`), name);
    const b = await page.evaluate(() => {
      const out = { longTasks: window.__bench.longTasks.splice(0), frames: window.__bench.frames.splice(0) };
      return out;
    });
    const worst = b.frames.reduce((w, f) => (f.blockingMs > (w?.blockingMs ?? -1) ? f : w), undefined);
    const row = {
      flow: name,
      longTaskMs: longest(b.longTasks),
      over50: b.longTasks.length,
      what: worst ? `${worst.scripts.join('; ') || 'no script'}${worst.layoutMs > 20 ? `; style+layout ${worst.layoutMs.toFixed(0)} ms` : ''}` : '',
    };
    rows.push(row);
    process.stderr.write(`playground flows: ${name.padEnd(36)} longest task ${row.longTaskMs.toFixed(0).padStart(4)} ms (${row.over50} over 50 ms) ${row.what}\n`);
  };
  const flow = async (name, run) => {
    await page.evaluate((n) => {
      window.__bench.longTasks.length = 0;
      window.__bench.frames.length = 0;
      performance.mark(`flow-start:${n}`);
    }, name);
    await run();
    await take(name);
  };
  try {
    // First load: navigation to every panel mounted (the lazy ones under the viewer included).
    await page.goto(baseUrl);
    await page.waitForFunction(() => document.querySelector('.palette-panel') !== null && document.querySelector('.snippets') !== null, null, { timeout: TIMEOUT_MS, polling: 50 });
    await page.waitForTimeout(1000);
    await take('first load (page mounted, workers loaded)');

    let id = 0;
    await flow('drop a small picture (samples/shapes.png)', async () => {
      await dropUrl(page, `${baseUrl}samples/shapes.png`, 'shapes.png');
      id = await traced(page, id);
    });
    await flow(`drop ${picture.name}`, async () => {
      await dropPicture(page, baseUrl, picture);
      id = await traced(page, id);
    });
    const resultLoaded = (alt) =>
      page.waitForFunction((a) => {
        const img = document.querySelector(`img[alt="${a}"]`);
        return img !== null && img.complete && img.naturalWidth > 0;
      }, alt, { timeout: TIMEOUT_MS, polling: 20 });
    await flow('view: overlay', async () => {
      await page.getByRole('radio', { name: 'Overlay' }).check();
      await resultLoaded('Traced vector result');
    });
    await flow('view: outline', async () => {
      await page.getByRole('radio', { name: 'Outline' }).check();
      await resultLoaded('Traced outlines');
    });
    await flow('view: side by side', async () => {
      await page.getByRole('radio', { name: 'Side by side' }).check();
      await resultLoaded('Traced vector result');
    });
    await flow('view: zoom in ×3 (sharp view)', async () => {
      for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Zoom in' }).click();
      await page.waitForFunction(() => /rendered sharp|sharp/.test(document.querySelector('[data-result-pane] figcaption')?.textContent ?? ''), null, { timeout: TIMEOUT_MS, polling: 50 }).catch(() => {});
      await page.getByRole('button', { name: 'Fit to view' }).click();
    });
    await flow('option: gap filler off (output only)', async () => {
      await page.getByLabel('output.gap_filler.enabled', { exact: true }).setChecked(false);
      id = await traced(page, id);
    });
    await flow('option: colour count 12 (re-trace)', async () => {
      await page.getByLabel('processing.max_colors', { exact: true }).fill('12');
      id = await traced(page, id);
    });
    // The palette list is rendered after the result (deferred): wait for it before using it.
    await page.waitForFunction(() => document.querySelectorAll('.palette-list .palette-item').length > 0, null, { timeout: TIMEOUT_MS, polling: 50 });
    await flow('palette: remap a colour', async () => {
      await page.evaluate(() => {
        const input = document.querySelector('.palette-list .palette-remap');
        input.value = '#00aa55';
        input.dispatchEvent(new Event('change', { bubbles: true }));
      });
      id = await traced(page, id);
    });
    await page.waitForFunction(() => document.querySelectorAll('.palette-list .palette-item').length > 1, null, { timeout: TIMEOUT_MS, polling: 50 });
    await flow('palette: delete a colour', async () => {
      await page.locator('.palette-list .palette-item').nth(1).getByRole('button', { name: /^Delete/ }).click();
      id = await traced(page, id);
    });
    await flow('palette: clear the rules', async () => {
      await page.getByRole('button', { name: 'Clear palette rules' }).click();
      id = await traced(page, id);
    });
    await flow('preset: Photo', async () => {
      await page.getByLabel('Preset', { exact: true }).selectOption('photo');
      id = await traced(page, id);
    });
    await flow('preset: Defaults', async () => {
      await page.getByLabel('Preset', { exact: true }).selectOption('defaults');
      id = await traced(page, id);
    });
    const downloads = page.getByRole('group', { name: 'Download as' });
    for (const format of ['SVG', 'PDF', 'EPS', 'DXF', 'PNG']) {
      await flow(`download ${format} (Download as)`, async () => {
        const saved = page.waitForEvent('download', { timeout: TIMEOUT_MS });
        await downloads.getByRole('button', { name: format, exact: true }).click();
        await (await saved).path();
      });
    }
    await flow('download SVG (primary button)', async () => {
      const saved = page.waitForEvent('download', { timeout: TIMEOUT_MS });
      await page.locator('#primary-download').click();
      await (await saved).path();
    });
    await flow('copy SVG', async () => {
      await page.getByRole('button', { name: 'Copy SVG' }).click();
      await page.waitForFunction(() => (document.querySelector('.copy-message')?.textContent ?? '') !== '', null, { timeout: TIMEOUT_MS, polling: 20 });
    });
    await flow('copy share link', async () => {
      await page.getByRole('button', { name: 'Copy share link' }).click();
      await page.waitForFunction(() => /Share link copied|Could not copy/.test(document.querySelector('.snippets')?.textContent ?? ''), null, { timeout: TIMEOUT_MS, polling: 20 });
    });
    const shareUrl = await page.getByLabel('Share link', { exact: true }).inputValue();
    const cpu = flowCpuTimes(JSON.parse((await browser.stopTracing()).toString('utf8')));
    for (const row of rows) {
      Object.assign(row, cpu.get(row.flow) ?? {});
      process.stderr.write(`playground flows: ${row.flow.padEnd(44)} longest task CPU ${(row.cpuMs ?? NaN).toFixed(0).padStart(4)} ms (its wall ${(row.cpuWallMs ?? NaN).toFixed(0)} ms; ${row.cpuOver50 ?? '?'} tasks over 50 ms CPU)\n`);
    }
    await page.close();
    // A share link opened: the page loads with its options.
    const shared = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await shared.addInitScript(probe, null);
    await shared.goto(shareUrl);
    await shared.waitForFunction(() => document.querySelector('.palette-panel') !== null && document.querySelector('.snippets') !== null, null, { timeout: TIMEOUT_MS, polling: 50 });
    await shared.waitForTimeout(1000);
    await settled(shared);
    const b = await shared.evaluate(() => window.__bench);
    rows.push({ flow: 'open a share link (page load)', longTaskMs: longest(b.longTasks), over50: b.longTasks.length, what: '' });
    process.stderr.write(`playground flows: ${'open a share link (page load)'.padEnd(36)} longest task ${longest(b.longTasks).toFixed(0).padStart(4)} ms\n`);
    await shared.close();
    return rows;
  } finally {
    if (!page.isClosed()) await page.close();
  }
}

/** Enough for the main thread's tasks (toplevel) and the flows' marks (blink.user_timing). */
const FLOW_TRACE_CATEGORIES = ['toplevel', 'blink.user_timing'];

/**
 * Per flow (between the page's `flow-start:NAME` and `flow-end:NAME` marks; the first load is from
 * the trace's start to its end mark), the main-thread task that used the most CPU time: its
 * thread time (`tdur`, what the task itself costs, however busy the machine) and its wall time.
 * On a loaded machine a task's wall time is mostly waiting for a core (5–100× its CPU time on
 * the 2-core bench VM with other jobs running), so the CPU time is the figure that says whether
 * the page's own work holds the 50 ms target.
 */
function flowCpuTimes(trace) {
  const events = trace.traceEvents ?? trace;
  const marks = events.filter((e) => e.cat?.includes('blink.user_timing') && /^flow-(start|end):/.test(e.name));
  const out = new Map();
  if (marks.length === 0) return out;
  const thread = `${marks[0].pid}:${marks[0].tid}`;
  const tasks = events.filter((e) => e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask' && `${e.pid}:${e.tid}` === thread);
  const first = Math.min(...tasks.map((t) => t.ts));
  const at = new Map(marks.map((m) => [m.name, m.ts]));
  for (const [name, end] of at) {
    if (!name.startsWith('flow-end:')) continue;
    const flow = name.slice('flow-end:'.length);
    const start = at.get(`flow-start:${flow}`) ?? first;
    const inside = tasks.filter((t) => t.ts >= start && t.ts <= end);
    const worst = inside.reduce((w, t) => ((t.tdur ?? 0) > (w?.tdur ?? -1) ? t : w), undefined);
    out.set(flow, { cpuMs: worst ? worst.tdur / 1000 : 0, cpuWallMs: worst ? worst.dur / 1000 : 0, cpuOver50: inside.filter((t) => (t.tdur ?? 0) > 50_000).length });
  }
  return out;
}

export function flowsTable(rows) {
  const md = ['### Playground flows: the longest main-thread task of each (Chromium, the built app)', ''];
  md.push(
    'One page, the flows one after the other (`BENCH_PLAYGROUND_ONLY=flows node bench/playground.mjs`). Longest task = the longest task a PerformanceObserver ' +
      "('longtask') saw from the flow's first event to the state it waits for (a result Done, the view's image loaded, the download saved); " +
      "longest task CPU = the main-thread task of the flow that used the most CPU time (thread time in a Chromium trace of the page), the figure that holds on a busy machine, where a task's wall time is mostly waiting for a core; " +
      'target ≤ 50 ms. What it ran: the scripts of the worst long animation frame (invoker, function, ms).',
    '',
  );
  md.push('| flow | longest task CPU ms | its wall ms | holds (CPU) | longest task wall ms (observer) | tasks over 50 ms wall | what the worst frame ran |');
  md.push('| --- | ---: | ---: | --- | ---: | ---: | --- |');
  const opt = (v) => (v === undefined ? '' : v.toFixed(0));
  for (const r of rows) {
    const holds = r.cpuMs === undefined ? '' : r.cpuMs <= 50 ? '✓' : '✗';
    md.push(`| ${r.flow} | ${opt(r.cpuMs)} | ${opt(r.cpuWallMs)} | ${holds} | ${r.longTaskMs.toFixed(0)} | ${r.over50} | ${r.what.replace(/\|/g, '\\|')} |`);
  }
  md.push('');
  return md.join('\n');
}

export async function runPlaygroundBench() {
  const vite = await import(requireRoot.resolve('vite'));
  const { chromium } = requireRoot('playwright-core');
  const work = mkdtempSync(join(tmpdir(), 'tracelab-playground-bench-'));
  const dist = join(work, 'dist');
  const only = process.env.BENCH_PLAYGROUND_ONLY?.split(',');
  const pictures = playgroundPictures().filter((p) => !only || only.some((o) => p.name.includes(o) || p.kind === o));
  let server;
  let browser;
  try {
    await vite.build({ root: ROOT, logLevel: 'warn', base: SUB_PATH, build: { outDir: dist, emptyOutDir: true, ...(TRACE_DIR ? { minify: false } : {}) } });
    // The pictures are served beside the app and dropped from the page itself (fetch → File →
    // a drop event), as a user's drop arrives: no automation protocol carries the file's bytes.
    mkdirSync(join(dist, 'bench'), { recursive: true });
    for (const picture of pictures) writeFileSync(join(dist, 'bench', `${picture.name}.png`), picture.bytes);
    const port = await freePort();
    server = await vite.preview({ root: ROOT, base: SUB_PATH, build: { outDir: dist }, logLevel: 'warn', preview: { host: '127.0.0.1', port, strictPort: true, open: false } });
    const baseUrl = `http://127.0.0.1:${port}${SUB_PATH}`;
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    const rows = [];
    for (const picture of pictures) {
      const mp = (picture.width * picture.height) / 1e6;
      if (picture.kind === 'flows') {
        rows.flows = await timeFlows(browser, baseUrl, picture);
      } else if (picture.kind === 'first' || picture.kind === 'loading') {
        const early = picture.kind === 'loading';
        const runs = [];
        for (let i = 0; i < RUNS; i++) runs.push(await timeFirstResult(browser, baseUrl, picture, { early, tag: `${picture.name}-${picture.kind}-${i}` }));
        const peaks = runs.map((r) => r.peakMb).filter((m) => m !== undefined);
        const row = {
          case: early ? 'first result, dropped while the page loads' : 'first result after the drop',
          picture: picture.name,
          size: `${picture.width}×${picture.height} (${mp.toFixed(2)} MP)`,
          ms: median(runs.map((r) => r.firstMs)),
          finalMs: median(runs.map((r) => r.finalMs)),
          targetMs: 1000,
          longTaskMs: Math.max(...runs.map((r) => r.longTaskMs)),
          loadLongTaskMs: median(runs.map((r) => r.loadLongTaskMs)),
          dropAtMs: early ? median(runs.map((r) => r.dropAtMs)) : undefined,
          peakMb: peaks.length ? median(peaks) : undefined,
        };
        rows.push(row);
        const tasks = runs.map((r) => (r.longTaskAtMs === undefined ? '-' : `${r.longTaskMs.toFixed(0)} ms at +${r.longTaskAtMs.toFixed(0)}`)).join(', ');
        process.stderr.write(
          `playground: ${picture.name.padEnd(30)}${early ? ' (dropped while loading, at ' + runs.map((r) => r.dropAtMs.toFixed(0)).join('/') + ' ms)' : ''} first ${runs.map((r) => r.firstMs.toFixed(0)).join(', ')} ms, full ${runs.map((r) => r.finalMs.toFixed(0)).join(', ')} ms, longest task ${row.longTaskMs.toFixed(0)} ms [${tasks}] (before the drop ${row.loadLongTaskMs.toFixed(0)} ms; tasks ms@start: ${runs.map((r) => r.loadTasks || '-').join(' | ')}); renderer peak ${peaks.map((m) => m.toFixed(0)).join(', ')} MB\n`,
        );
      } else if (picture.kind === 'output') {
        const { option } = await timeOptionChanges(browser, baseUrl, picture, { outputOnly: true });
        const size = `${picture.width}×${picture.height} (${mp.toFixed(2)} MP)`;
        rows.push({ case: 'output option → new result', picture: picture.name, size, ms: option.ms, finalMs: option.ms, targetMs: 300, longTaskMs: option.longTaskMs });
        process.stderr.write(`playground: ${picture.name.padEnd(30)} output option ${option.runs.map((t) => t.toFixed(0)).join(', ')} ms (worker ${option.workerRuns.join(', ')} ms), longest task ${option.longTaskMs.toFixed(0)} ms\n`);
      } else {
        const { option, colour, stale } = await timeOptionChanges(browser, baseUrl, picture);
        const size = `${picture.width}×${picture.height} (${mp.toFixed(2)} MP)`;
        rows.push({ case: 'output option → new result', picture: picture.name, size, ms: option.ms, finalMs: option.ms, targetMs: 300, longTaskMs: option.longTaskMs });
        // No target in issue 14 for a processing option: shown for the fast retrace (palette on).
        rows.push({ case: 'colour count typed → new result', picture: picture.name, size, ms: colour.ms, finalMs: colour.ms, longTaskMs: colour.longTaskMs });
        process.stderr.write(`playground: ${picture.name.padEnd(30)} output option ${option.runs.map((t) => t.toFixed(0)).join(', ')} ms (worker ${option.workerRuns.join(', ')} ms), longest task ${option.longTaskMs.toFixed(0)} ms\n`);
        process.stderr.write(`playground: ${picture.name.padEnd(30)} colour count ${colour.runs.map((t) => t.toFixed(0)).join(', ')} ms, longest task ${colour.longTaskMs.toFixed(0)} ms\n`);
        rows.push({ case: 'change while the last one traces → new result', picture: picture.name, size, ms: stale.ms, finalMs: stale.ms, longTaskMs: stale.longTaskMs });
        process.stderr.write(`playground: ${picture.name.padEnd(30)} change while tracing ${stale.runs.map((t) => t.toFixed(0)).join(', ')} ms, longest task ${stale.longTaskMs.toFixed(0)} ms\n`);
      }
    }
    return rows;
  } finally {
    await browser?.close();
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  }
}

export function playgroundTable(rows) {
  if (rows.length === 0 && rows.flows) return flowsTable(rows.flows);
  const md = ['### Playground (Chromium, the built app, a fresh page per drop)', ''];
  md.push(
    `Medians of ${RUNS} runs. The picture is dropped on the drop zone from the page itself (a File in a drop event). ` +
      'Shown = drop → the first traced result on screen (a draft for a picture over 1 MP), full = drop → the finished result; ' +
      'output option = `output.gap_filler.enabled` toggled → the new result on screen; ' +
      'colour count = `processing.max_colors` typed (8, 0, …) → the new result, the 150 ms typing pause included (no target; the worker re-runs from the palette on); ' +
      'change while tracing = `output.shape_stacking` changed 100 ms into the trace of a colour count typed just before → its result (no target; the stale trace stops at its next checkpoint and the same worker re-runs from its stages); ' +
      'longest task = the longest main-thread task a PerformanceObserver saw from the drop (or the toggle) to the result (target ≤ 50 ms), the worst of the runs; page load = the same before the drop (median). ' +
      '"Dropped while the page loads": the picture is dropped in a task of its own as soon as the drop zone is in the document (drop at = ms after navigation start), while the page still mounts its other panels and before its worker has loaded; its longest task counts the rest of the page load. ' +
      "Peak RSS = the renderer process's peak resident memory (VmHWM; the page, its trace worker and the engine threads), page load included (target ≤ 300 MB at 2 MP).",
    '',
  );
  md.push('| case | picture | size | shown ms | full ms | target ms | holds | longest task ms | page load: longest task ms | drop at ms | peak RSS MB |');
  md.push('| --- | --- | --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |');
  for (const r of rows) {
    const holds = (r.targetMs === undefined || r.ms <= r.targetMs) && r.longTaskMs <= 50 && !(r.peakMb > 300);
    const opt = (v) => (v === undefined ? '' : v.toFixed(0));
    md.push(`| ${r.case} | ${r.picture} | ${r.size} | ${r.ms.toFixed(0)} | ${r.finalMs.toFixed(0)} | ${r.targetMs ?? '–'} | ${holds ? '✓' : '✗'} | ${r.longTaskMs.toFixed(0)} | ${opt(r.loadLongTaskMs)} | ${opt(r.dropAtMs)} | ${opt(r.peakMb)} |`);
  }
  md.push('');
  if (rows.flows) md.push(flowsTable(rows.flows));
  return md.join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const md = playgroundTable(await runPlaygroundBench());
  writeFileSync(join(BENCH, 'results', 'playground.md'), md);
  process.stdout.write(md);
}
