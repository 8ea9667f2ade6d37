/**
 * tracelab.strokes=auto against the default trace (issue 38 targets), per image of the selected
 * kinds (default: stroke, clipart, icon) of a corpus with the artists' SVGs (`*.ref.svg`):
 *   - gzip bytes of the SVG over the artist's (targets: every image ≤ 2.0×, median ≤ 1.3×);
 *   - SSIM of the render (resvg, over white) against the input, auto and default (auto within 0.005);
 *   - the median stroke width written (bench/svgstats.mjs, gap filler left out) against the
 *     manifest's stroke_width_px, where it has one (within 10 %);
 *   - warm time (the CLI's pipeline in this process, decode + trace + SVG): paired runs, default
 *     then auto, after one warm-up of each, the ratio of the medians (≤ 1.25×).
 * Writes bench/results/strokes-auto.md and prints it.
 *
 *   TRACELAB_CORPUS=/path/to/bench/validation/out node bench/strokes-auto.mjs
 * Env: BENCH_ONLY (kinds or image names, default stroke,clipart,icon), STROKES_AUTO_PARAMS (more
 * name=value params for both rows, comma-separated, e.g. tracelab.max_stroke_width=20),
 * STROKES_AUTO_RUNS (timed pairs per image, default 3).
 */
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { loadTs } from '../scripts/ts-module.mjs';
import { selectedCorpus } from './corpus.mjs';
import { flattenOver, ssim } from './metrics.mjs';
import { medianStrokePx } from './svgstats.mjs';
import { renderOverWhite } from './render-svg.mjs';
import { median } from './median.mjs';

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH, '..');
const require = createRequire(import.meta.url);
const { PNG } = require('pngjs');

const RUNS = Number(process.env.STROKES_AUTO_RUNS ?? 3);
const EXTRA = (process.env.STROKES_AUTO_PARAMS ?? '').split(',').map((s) => s.trim()).filter(Boolean).map((p) => p.split('='));
const env = { ...process.env, BENCH_ONLY: process.env.BENCH_ONLY ?? 'stroke,clipart,icon' };



const { planVectorize, runVectorize, prepareNodeDecoders } = await loadTs(ROOT, 'bench-warm', 'bench/warm-entry.ts');
const plans = { default: planVectorize(EXTRA), auto: planVectorize([...EXTRA, ['tracelab.strokes', 'auto']]) };
const trace = async (plan, bytes) => {
  prepareNodeDecoders(bytes);
  const t0 = performance.now();
  const out = await runVectorize(plan, bytes);
  return { svg: new TextDecoder().decode(out.body), ms: performance.now() - t0, result: out.result };
};

const { corpus, images } = selectedCorpus(env);
const rows = [];
for (const im of images) {
  const ref = join(corpus, im.file.replace(/\.png$/, '.ref.svg'));
  if (!existsSync(ref)) continue;
  const bytes = new Uint8Array(readFileSync(join(corpus, im.file)));
  const png = PNG.sync.read(Buffer.from(bytes));
  const input = flattenOver({ width: png.width, height: png.height, data: png.data });
  const artistGzip = gzipSync(readFileSync(ref)).length;
  const row = { kind: im.category, file: im.file, artistGzip, artistPx: im.stroke_width_px ?? null };
  const times = { default: [], auto: [] };
  for (const mode of ['default', 'auto']) {
    const first = await trace(plans[mode], bytes); // also the warm-up
    row[`${mode}Gzip`] = gzipSync(first.svg).length;
    row[`${mode}Ssim`] = ssim(input, flattenOver(renderOverWhite(first.svg, png.width, png.height)));
    if (mode === 'auto') {
      row.strokes = first.result.strokes?.length ?? 0;
      row.widthPx = row.strokes > 0 ? medianStrokePx(first.svg, png.width) : null;
    }
  }
  for (let k = 0; k < RUNS; k++) for (const mode of ['default', 'auto']) times[mode].push((await trace(plans[mode], bytes)).ms);
  row.defaultMs = median(times.default);
  row.autoMs = median(times.auto);
  rows.push(row);
  process.stderr.write(`${im.file}: gzip ${(row.autoGzip / artistGzip).toFixed(2)}× (default ${(row.defaultGzip / artistGzip).toFixed(2)}×), SSIM ${row.autoSsim.toFixed(4)} vs ${row.defaultSsim.toFixed(4)}, ${row.strokes} strokes, time ${(row.autoMs / row.defaultMs).toFixed(2)}×\n`);
}

const fmt = (v, d = 2) => (v === null || v === undefined || Number.isNaN(v) ? 'n/a' : v.toFixed(d));
const md = [
  '# tracelab.strokes=auto against the default trace',
  '',
  `Corpus: \`${relative(ROOT, corpus)}\`, kinds/images: ${env.BENCH_ONLY}; extra params: ${EXTRA.map((p) => p.join('=')).join(', ') || 'none'}; ${RUNS} timed pairs per image (median), warm, in one process.`,
  '',
  '| image | gzip auto / artist | default / artist | SSIM auto | SSIM default | Δ SSIM | strokes | width written px | artist px | width error | warm time auto / default |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
];
for (const r of rows) {
  const err = r.widthPx !== null && r.artistPx ? Math.abs(r.widthPx - r.artistPx) / r.artistPx : null;
  r.widthErr = err;
  md.push(`| ${r.file} | ${fmt(r.autoGzip / r.artistGzip)}× | ${fmt(r.defaultGzip / r.artistGzip)}× | ${fmt(r.autoSsim, 4)} | ${fmt(r.defaultSsim, 4)} | ${fmt(r.autoSsim - r.defaultSsim, 4)} | ${r.strokes} | ${fmt(r.widthPx, 1)} | ${fmt(r.artistPx, 1)} | ${err === null ? 'n/a' : `${(err * 100).toFixed(0)} %`} | ${fmt(r.autoMs / r.defaultMs)}× |`);
}
md.push('');
for (const kind of [...new Set(rows.map((r) => r.kind))]) {
  const of = rows.filter((r) => r.kind === kind);
  const ratio = of.map((r) => r.autoGzip / r.artistGzip);
  const worst = of.reduce((a, b) => (a.autoGzip / a.artistGzip > b.autoGzip / b.artistGzip ? a : b));
  const worstSsim = of.reduce((a, b) => (a.autoSsim - a.defaultSsim < b.autoSsim - b.defaultSsim ? a : b));
  const widths = of.filter((r) => r.widthErr !== null && r.widthErr !== undefined);
  md.push(
    `- **${kind}** (${of.length}): gzip/artist median ${fmt(median(ratio))}× (default ${fmt(median(of.map((r) => r.defaultGzip / r.artistGzip)))}×), worst ${fmt(Math.max(...ratio))}× (${worst.file}); ` +
      `Δ SSIM median ${fmt(median(of.map((r) => r.autoSsim - r.defaultSsim)), 4)}, worst ${fmt(worstSsim.autoSsim - worstSsim.defaultSsim, 4)} (${worstSsim.file}); ` +
      `width error median ${widths.length ? `${(median(widths.map((r) => r.widthErr)) * 100).toFixed(0)} %` : 'n/a'} over ${widths.length} images with strokes and an artist width; ` +
      `warm time auto/default median ${fmt(median(of.map((r) => r.autoMs / r.defaultMs)))}×, worst ${fmt(Math.max(...of.map((r) => r.autoMs / r.defaultMs)))}×`,
  );
}
md.push('');
writeFileSync(join(BENCH, 'results', 'strokes-auto.md'), md.join('\n'));
process.stdout.write(md.join('\n') + '\n');
