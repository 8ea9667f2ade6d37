/**
 * Browser timings: Tracelab's pipeline (decode + trace + SVG, the playground worker's code,
 * bundled for the browser by esbuild) against vtracer-wasm (what a browser user of VTracer runs),
 * both warm, on the main thread of one Chromium page (Debian's /usr/bin/chromium through
 * playwright-core). Per image: BENCH_BROWSER_WARMUP untimed runs (default 3: a page's V8 tiers up
 * over several calls), then BENCH_BROWSER_RUNS timed runs (default 5), median.
 * vtracer-wasm gets the pixels from the page's own PNG decoding (createImageBitmap + canvas, not
 * timed), Tracelab the PNG bytes (its decode is timed: that is what it does in the playground,
 * with the PNG's image data inflated by the browser's zlib first, as the playground worker does).
 *
 * In: the corpus (TRACELAB_CORPUS, BENCH_ONLY as in run.mjs). Out: a Markdown table (browserTable),
 * written to bench/results/browser.md when run alone: `node bench/browser.mjs`.
 */
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CATEGORIES, selectedCorpus } from './corpus.mjs';
import { median } from './median.mjs';

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH, '..');
const RUNS = Math.max(1, parseInt(process.env.BENCH_BROWSER_RUNS ?? '5', 10) || 5);
/** Untimed runs first: V8 in a page tiers up over several calls (the first are 2–4× slower). */
const WARMUP = Math.max(1, parseInt(process.env.BENCH_BROWSER_WARMUP ?? '3', 10) || 3);
const requireBench = createRequire(join(BENCH, 'package.json'));
const requireRoot = createRequire(join(ROOT, 'package.json'));

const TYPES = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html', '.png': 'image/png' };

/** Serves `files` (URL path → absolute file) on 127.0.0.1; resolves to the server and its base URL. */
function serve(files) {
  return new Promise((resolveServer) => {
    const server = createServer((req, res) => {
      const file = files.get(decodeURIComponent((req.url ?? '/').split('?')[0]));
      if (!file) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(readFileSync(file));
    });
    server.listen(0, '127.0.0.1', () => resolveServer({ server, base: `http://127.0.0.1:${server.address().port}` }));
  });
}

const PAGE = `<!doctype html><meta charset="utf-8"><title>bench</title><script type="module">
import { planVectorize, preparePngInflate, runVectorize } from '/tracelab.js';
import init, { to_svg } from '/vtracer.js';
import { median } from '/median.mjs';
await init('/vtracer.wasm');
const plan = planVectorize([]);
const CONFIG = { binary: false, mode: 'spline', hierarchical: 'stacked', filterSpeckle: 16, colorPrecision: 2, layerDifference: 16,
  cornerThreshold: Math.PI / 3, lengthThreshold: 4, maxIterations: 10, spliceThreshold: Math.PI / 4, pathPrecision: 2 };
window.timeImage = async (url, runs, warmup) => {
  const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
  const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(bitmap, 0, 0);
  const pixels = new Uint8Array(ctx.getImageData(0, 0, bitmap.width, bitmap.height).data.buffer);
  const time = async (fn) => { for (let i = 0; i < warmup; i++) await fn(); const t = []; for (let i = 0; i < runs; i++) { const t0 = performance.now(); await fn(); t.push(performance.now() - t0); } return median(t); };
  const tracelab = await time(async () => {
    await preparePngInflate(bytes);
    return runVectorize(plan, bytes);
  });
  const vtracer = await time(() => to_svg(pixels, bitmap.width, bitmap.height, CONFIG));
  return { tracelab, vtracer };
};
window.ready = true;
</script>`;

export async function runBrowserBench(corpus, images) {
  const { build } = requireRoot('esbuild');
  const { chromium } = requireRoot('playwright-core');
  const work = mkdtempSync(join(tmpdir(), 'tracelab-browser-bench-'));
  try {
    // The playground worker's decode path: a PNG's image data is inflated by the browser's own
    // zlib before the decode (src/decode/browser-inflate.ts, called by src/worker/vectorize.ts).
    const entry = join(work, 'entry.ts');
    writeFileSync(
      entry,
      `export { planVectorize, runVectorize } from ${JSON.stringify(join(ROOT, 'src', 'api', 'pipeline.ts'))};\n` +
        `export { preparePngInflate } from ${JSON.stringify(join(ROOT, 'src', 'decode', 'browser-inflate.ts'))};\n`,
    );
    await build({
      entryPoints: [entry],
      outfile: join(work, 'tracelab.js'),
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      minify: true,
      logLevel: 'warning',
      loader: { '.wasm': 'file' },
    });
    writeFileSync(join(work, 'index.html'), PAGE);
    const vtracerJs = requireBench.resolve('vtracer-wasm');
    const files = new Map([
      ['/', join(work, 'index.html')],
      ['/tracelab.js', join(work, 'tracelab.js')],
      ['/vtracer.js', vtracerJs],
      ['/vtracer.wasm', join(dirname(vtracerJs), 'vtracer.wasm')],
      // The bench's one median, for the page's timings too.
      ['/median.mjs', join(BENCH, 'median.mjs')],
    ]);
    for (const im of images) files.set(`/img/${im.file}`, join(corpus, im.file));
    const { server, base } = await serve(files);
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    try {
      const page = await browser.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(`${base}/`);
      await page.waitForFunction(() => window.ready === true, null, { timeout: 60_000 }).catch(() => {
        throw new Error(`bench page did not load: ${errors.join('; ')}`);
      });
      const rows = [];
      for (const im of images) {
        const t = await page.evaluate(([url, runs, warmup]) => window.timeImage(url, runs, warmup), [`/img/${im.file}`, RUNS, WARMUP]);
        rows.push({ category: im.category, file: im.file, tracelab: t.tracelab, vtracer: t.vtracer });
        process.stderr.write(`browser: ${im.file.padEnd(36)} tracelab ${t.tracelab.toFixed(0)} ms  vtracer-wasm ${t.vtracer.toFixed(0)} ms\n`);
      }
      return rows;
    } finally {
      await browser.close();
      server.close();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export function browserTable(rows) {
  const md = ['### Browser timings (Chromium, one page, warm; medians of per-image medians)', ''];
  md.push(`${RUNS} timed runs per image after ${WARMUP} untimed ones, on the page's main thread. Tracelab = decode + trace + SVG (the playground worker's code); vtracer-wasm = trace + SVG from decoded pixels.`, '');
  md.push('| kind | images | Tracelab ms | vtracer-wasm ms | Tracelab / vtracer-wasm |');
  md.push('| --- | ---: | ---: | ---: | ---: |');
  for (const c of CATEGORIES) {
    const rs = rows.filter((r) => r.category === c);
    if (!rs.length) continue;
    md.push(`| ${c} | ${rs.length} | ${median(rs.map((r) => r.tracelab)).toFixed(0)} | ${median(rs.map((r) => r.vtracer)).toFixed(0)} | ${median(rs.map((r) => r.tracelab / r.vtracer)).toFixed(2)}× |`);
  }
  md.push('');
  return md.join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { corpus, images } = selectedCorpus();
  const md = browserTable(await runBrowserBench(corpus, images));
  writeFileSync(join(BENCH, 'results', 'browser.md'), md);
  process.stdout.write(md);
}
