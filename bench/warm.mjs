/**
 * Warm timings: each tracer called again and again inside one process (start-up and module loading
 * out of the figure), the way a server or a batch job uses it. Tracelab: decode + trace + SVG
 * through the same pipeline as the CLI (src/api/pipeline.ts with the CLI's Node decoder set-up,
 * bench/warm-entry.ts, bundled by scripts/ts-module.mjs);
 * VTracer's native binding (@neplex/vectorizer) and vtracer-wasm with the settings of
 * bench/peers/*.mjs. Per image: `BENCH_WARM_RUNS` timed runs (default 5) after one warm-up, median.
 * Also a batch figure: the CLI's `vectorize DIR --out-dir` over the corpus (images per second, one
 * process, every core) against VTracer's native binding tracing the same images one by one in one
 * process. And the garbage collector's share of Tracelab's warm time (issue 28): the pauses
 * node:perf_hooks reports as 'gc' entries during its runs, over the time of those runs.
 *
 * In: the corpus (TRACELAB_CORPUS, BENCH_ONLY as in run.mjs). Out: a Markdown table (warmTable),
 * written to bench/results/warm.md when run alone: `node bench/warm.mjs`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PerformanceObserver } from 'node:perf_hooks';
import { loadTs } from '../scripts/ts-module.mjs';
import { CATEGORIES, selectedCorpus } from './corpus.mjs';
import { median } from './median.mjs';

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH, '..');
const require = createRequire(join(BENCH, 'package.json'));
const RUNS = Math.max(1, parseInt(process.env.BENCH_WARM_RUNS ?? '5', 10) || 5);


function timeRuns(fn) {
  fn(); // warm-up (JIT, caches)
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

async function timeRunsAsync(fn) {
  await fn();
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

/** Milliseconds of garbage collection seen so far in this process (perf_hooks 'gc' entries). */
let gcMs = 0;
let gcObserver;
function watchGc() {
  if (gcObserver) return;
  gcObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMs += entry.duration;
  });
  gcObserver.observe({ entryTypes: ['gc'] });
}
/** GC entries are delivered after the fact: let them arrive before reading gcMs. */
const gcSettled = () => new Promise((done) => setTimeout(done, 0));

async function tracers() {
  // As a Node user's call runs it (the CLI, `tracelab/engine` in Node): the Node decoder set-up
  // (native inflate for PNG) before each decode.
  const { planVectorize, runVectorize, prepareNodeDecoders } = await loadTs(ROOT, 'bench-warm', 'bench/warm-entry.ts');
  const plan = planVectorize([]);
  const { vectorize, ColorMode, Hierarchical, PathSimplifyMode } = require('@neplex/vectorizer');
  const nativeConfig = {
    colorMode: ColorMode.Color, hierarchical: Hierarchical.Stacked, mode: PathSimplifyMode.Spline, filterSpeckle: 4,
    colorPrecision: 6, layerDifference: 16, cornerThreshold: 60, lengthThreshold: 4, maxIterations: 10, spliceThreshold: 45, pathPrecision: 2,
  };
  const wasmJs = pathToFileURL(require.resolve('vtracer-wasm'));
  const wasm = await import(wasmJs.href);
  wasm.initSync({ module: readFileSync(new URL('vtracer.wasm', wasmJs)) });
  const wasmConfig = {
    binary: false, mode: 'spline', hierarchical: 'stacked', filterSpeckle: 16, colorPrecision: 2, layerDifference: 16,
    cornerThreshold: Math.PI / 3, lengthThreshold: 4, maxIterations: 10, spliceThreshold: Math.PI / 4, pathPrecision: 2,
  };
  const { PNG } = require('pngjs');
  return {
    tracelab: (bytes) => {
      prepareNodeDecoders(bytes);
      return runVectorize(plan, bytes);
    },
    'vtracer-native': (bytes) => vectorize(bytes, nativeConfig),
    'vtracer-wasm': (bytes) => {
      const png = PNG.sync.read(Buffer.from(bytes));
      return wasm.to_svg(new Uint8Array(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height, wasmConfig);
    },
  };
}

/** Median warm ms per image and tracer: [{ category, file, tracelab, 'vtracer-native', 'vtracer-wasm' }]. */
export async function runWarmBench(corpus, images) {
  const t = await tracers();
  watchGc();
  const rows = [];
  for (const im of images) {
    const bytes = new Uint8Array(readFileSync(join(corpus, im.file)));
    const row = { category: im.category, file: im.file };
    // Per stage too: the median of each stage's ms over the timed runs (the pipeline reports them).
    const stageRuns = [];
    await gcSettled();
    const gcBefore = gcMs;
    let busyMs = 0;
    row.tracelab = await timeRunsAsync(async () => {
      const t0 = performance.now();
      const out = await t.tracelab(bytes);
      busyMs += performance.now() - t0;
      stageRuns.push(out.timings);
    });
    await gcSettled();
    row.gcShare = busyMs > 0 ? (gcMs - gcBefore) / busyMs : 0;
    row.stages = Object.fromEntries(Object.keys(stageRuns[0] ?? {}).map((k) => [k, median(stageRuns.slice(1).map((x) => x[k]))]));
    row['vtracer-native'] = await timeRunsAsync(() => t['vtracer-native'](Buffer.from(bytes)));
    row['vtracer-wasm'] = timeRuns(() => t['vtracer-wasm'](bytes));
    rows.push(row);
    process.stderr.write(`warm: ${im.file.padEnd(36)} tracelab ${row.tracelab.toFixed(0)} ms (GC ${(row.gcShare * 100).toFixed(0)} %)  native ${row['vtracer-native'].toFixed(0)} ms  wasm ${row['vtracer-wasm'].toFixed(0)} ms\n`);
  }
  return rows;
}

/**
 * The batch figure: Tracelab's CLI over a folder (one process, worker threads on every core) vs
 * VTracer's native binding over the same files one by one in one process (sequential, as its API
 * is called). Returns images per second for both.
 */
export async function runBatchBench(corpus, images) {
  const folder = mkdtempSync(join(tmpdir(), 'tracelab-warm-'));
  try {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'tracelab.js'), 'vectorize', ...images.map((im) => join(corpus, im.file)), '--out-dir', folder, '--quiet'], { encoding: 'utf8' });
    const tracelabS = (performance.now() - t0) / 1000;
    if (r.status !== 0) throw new Error(`batch CLI failed: ${r.stderr}`);
    const { vectorize, ColorMode, Hierarchical, PathSimplifyMode } = require('@neplex/vectorizer');
    const config = {
      colorMode: ColorMode.Color, hierarchical: Hierarchical.Stacked, mode: PathSimplifyMode.Spline, filterSpeckle: 4,
      colorPrecision: 6, layerDifference: 16, cornerThreshold: 60, lengthThreshold: 4, maxIterations: 10, spliceThreshold: 45, pathPrecision: 2,
    };
    const t1 = performance.now();
    for (const im of images) writeFileSync(join(folder, `${im.id}.vtracer.svg`), await vectorize(readFileSync(join(corpus, im.file)), config));
    const nativeS = (performance.now() - t1) / 1000;
    return { images: images.length, tracelabS, nativeS };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

export function warmTable(rows, batch) {
  const md = ['### Warm timings (one process, engine called repeatedly; medians of per-image medians)', ''];
  md.push(`${RUNS} timed runs per image after a warm-up. Tracelab = decode + trace + SVG through the CLI's pipeline, in line (no threads).`, '');
  md.push('GC share: garbage-collection pauses (node:perf_hooks) during Tracelab\'s runs of an image over their time; median per kind.', '');
  md.push('| kind | images | Tracelab ms | VTracer native ms | vtracer-wasm ms | Tracelab / native | Tracelab / wasm | Tracelab GC share |');
  md.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const c of CATEGORIES) {
    const rs = rows.filter((r) => r.category === c);
    if (!rs.length) continue;
    const t = median(rs.map((r) => r.tracelab));
    const n = median(rs.map((r) => r['vtracer-native']));
    const w = median(rs.map((r) => r['vtracer-wasm']));
    md.push(`| ${c} | ${rs.length} | ${t.toFixed(0)} | ${n.toFixed(0)} | ${w.toFixed(0)} | ${(median(rs.map((r) => r.tracelab / r['vtracer-native']))).toFixed(2)}× | ${(median(rs.map((r) => r.tracelab / r['vtracer-wasm']))).toFixed(2)}× | ${(median(rs.map((r) => r.gcShare ?? 0)) * 100).toFixed(0)} % |`);
  }
  if (rows.length > 0) {
    const total = (k) => rows.reduce((sum, r) => sum + r[k], 0);
    md.push(`| all (sums) | ${rows.length} | ${total('tracelab').toFixed(0)} | ${total('vtracer-native').toFixed(0)} | ${total('vtracer-wasm').toFixed(0)} | ${(total('tracelab') / total('vtracer-native')).toFixed(2)}× | ${(total('tracelab') / total('vtracer-wasm')).toFixed(2)}× | ${(median(rows.map((r) => r.gcShare ?? 0)) * 100).toFixed(0)} % |`);
  }
  // Where a warm trace's time goes, per stage (medians per kind of the per-image medians).
  const stages = [...new Set(rows.flatMap((r) => Object.keys(r.stages ?? {})))];
  if (stages.length > 0) {
    md.push('', '#### Warm time per stage (ms; `trace` is the engine total, `write` the SVG)', '');
    md.push(`| kind | ${stages.join(' | ')} |`);
    md.push(`| --- | ${stages.map(() => '---:').join(' | ')} |`);
    for (const c of CATEGORIES) {
      const rs = rows.filter((r) => r.category === c && r.stages);
      if (!rs.length) continue;
      md.push(`| ${c} | ${stages.map((k) => median(rs.map((r) => r.stages[k] ?? 0)).toFixed(0)).join(' | ')} |`);
    }
  }
  if (batch) {
    md.push('', `Batch: ${batch.images} images — \`tracelab vectorize FILES --out-dir\` ${batch.tracelabS.toFixed(1)} s (${(batch.images / batch.tracelabS).toFixed(1)} images/s, one process with start-up, worker threads on every core) vs VTracer native one by one in one process ${batch.nativeS.toFixed(1)} s (${(batch.images / batch.nativeS).toFixed(1)} images/s): ${(batch.tracelabS / batch.nativeS).toFixed(2)}× the time.`);
  }
  md.push('');
  return md.join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { corpus, images } = selectedCorpus();
  const rows = await runWarmBench(corpus, images);
  const batch = await runBatchBench(corpus, images);
  const md = warmTable(rows, batch);
  writeFileSync(join(BENCH, 'results', 'warm.md'), md);
  process.stdout.write(md);
}
