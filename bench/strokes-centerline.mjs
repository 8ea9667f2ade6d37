/**
 * tracelab.strokes=centerline against issue 38's centre-line targets, per image of the selected
 * kinds (default: stroke, icon, lineart_bw) of a corpus (`*.ref.svg`: the artist's SVG, where
 * there is one):
 *   - stroke-only: no element of the SVG is filled (fill other than none);
 *   - SSIM of the render (resvg, over white) against the input (stroke-drawn icons: ≥ 0.97);
 *   - gzip bytes of the SVG over the artist's (stroke-drawn icons: ≤ 1.5×);
 *   - strokes, outlines among them, pen-down and pen-up length (input order and pen order);
 *   - doubled %: of the rendered ink, the part two or more paths cover (every stroke drawn
 *     black at half opacity: where two paths overlap, the render is darker). A line traced as
 *     two centre-lines, side by side, is all overlap; junctions and joined ends add a little;
 *   - lost %: of the input's ink (luma < 128), the part the render leaves paper (luma ≥ 192):
 *     gaps at junctions, ends short of the ink, lost dots.
 * Writes bench/results/strokes-centerline.md (CENTERLINE_RESULT: another name there) and prints it; with CENTERLINE_SHEETS=dir also
 * writes input | render pictures there (PNG, side by side) to look at.
 *
 *   TRACELAB_CORPUS=/path/to/bench/validation/out node bench/strokes-centerline.mjs
 * Env: BENCH_ONLY (kinds or image names, default stroke,icon,lineart_bw), CENTERLINE_PARAMS (more
 * name=value params, comma-separated, e.g. tracelab.max_stroke_width=20).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { loadTs } from '../scripts/ts-module.mjs';
import { selectedCorpus } from './corpus.mjs';
import { flattenOver, luma, ssim } from './metrics.mjs';
import { renderOverWhite } from './render-svg.mjs';
import { median } from './median.mjs';

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH, '..');
const require = createRequire(import.meta.url);
const { PNG } = require('pngjs');

const EXTRA = (process.env.CENTERLINE_PARAMS ?? '').split(',').map((s) => s.trim()).filter(Boolean).map((p) => p.split('='));
const SHEETS = process.env.CENTERLINE_SHEETS;
const env = { ...process.env, BENCH_ONLY: process.env.BENCH_ONLY ?? 'stroke,icon,lineart_bw' };



/** Every element filled with something other than none (a centre-line file has none). */
function filledElements(svg) {
  let n = 0;
  for (const m of svg.matchAll(/<(path|circle|ellipse|rect|polygon|polyline)\b[^>]*>/g)) {
    const fill = /\bfill="([^"]*)"/.exec(m[0]);
    if (fill && fill[1] !== 'none') n++;
  }
  // A group's fill is inherited by its paths.
  for (const m of svg.matchAll(/<g\b[^>]*\bfill="([^"]*)"[^>]*>/g)) if (m[1] !== 'none') n++;
  return n;
}

/** Doubled and lost ink (see the header), in % of the rendered / input ink. */
function inkChecks(svg, input, width, height) {
  const half = svg.replace(/stroke="#[0-9a-fA-F]+"/g, 'stroke="#000" stroke-opacity="0.5"');
  const l = luma(flattenOver(renderOverWhite(half, width, height)));
  const full = luma(flattenOver(renderOverWhite(svg, width, height)));
  const inL = luma(input);
  let covered = 0;
  let doubled = 0;
  let ink = 0;
  let lost = 0;
  for (let i = 0; i < l.length; i++) {
    if (l[i] < 200) covered++;
    // One path at half opacity: ~128; two: ~64.
    if (l[i] < 90) doubled++;
    if (inL[i] < 128) {
      ink++;
      if (full[i] >= 192) lost++;
    }
  }
  return { doubledPct: (100 * doubled) / Math.max(1, covered), lostPct: (100 * lost) / Math.max(1, ink) };
}

function sheet(path, a, b) {
  const w = a.width;
  const png = new PNG({ width: 2 * w + 4, height: a.height });
  png.data.fill(200);
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < w; x++) {
      for (let c = 0; c < 4; c++) {
        png.data[(y * png.width + x) * 4 + c] = a.data[(y * w + x) * 4 + c];
        png.data[(y * png.width + x + w + 4) * 4 + c] = b.data[(y * w + x) * 4 + c];
      }
    }
  }
  writeFileSync(path, PNG.sync.write(png));
}

// node_modules may be shared by several checkouts: a bundle of this checkout's own.
const { planVectorize, runVectorize, prepareNodeDecoders } = await loadTs(ROOT, `bench-centerline-${basename(ROOT)}`, 'bench/warm-entry.ts');
const plan = planVectorize([...EXTRA, ['tracelab.strokes', 'centerline']]);
const { corpus, images } = selectedCorpus(env);
if (SHEETS) mkdirSync(SHEETS, { recursive: true });
const rows = [];
for (const im of images) {
  const bytes = new Uint8Array(readFileSync(join(corpus, im.file)));
  const png = PNG.sync.read(Buffer.from(bytes));
  const input = flattenOver({ width: png.width, height: png.height, data: png.data });
  const ref = join(corpus, im.file.replace(/\.png$/, '.ref.svg'));
  prepareNodeDecoders(bytes);
  const t0 = performance.now();
  const out = await runVectorize(plan, bytes);
  const ms = performance.now() - t0;
  const svg = new TextDecoder().decode(out.body);
  const drawn = renderOverWhite(svg, png.width, png.height);
  const s = out.result.stats?.strokes ?? {};
  const row = {
    kind: im.category,
    file: im.file,
    artistGzip: existsSync(ref) ? gzipSync(readFileSync(ref)).length : null,
    gzip: gzipSync(svg).length,
    ssim: ssim(input, flattenOver(drawn)),
    filled: filledElements(svg),
    strokes: s.count ?? 0,
    outlines: s.outlines ?? 0,
    penDown: s.penDownPx ?? 0,
    penUp: s.penUpPx ?? 0,
    penUpInput: s.penUpInputOrderPx ?? 0,
    ms,
    ...inkChecks(svg, input, png.width, png.height),
  };
  rows.push(row);
  if (SHEETS) sheet(join(SHEETS, im.file), input, flattenOver(drawn));
  process.stderr.write(`${im.file}: SSIM ${row.ssim.toFixed(4)}, gzip ${row.artistGzip ? (row.gzip / row.artistGzip).toFixed(2) + '× artist' : row.gzip + ' B'}, ${row.strokes} strokes (${row.outlines} outlines), doubled ${row.doubledPct.toFixed(1)} %, lost ${row.lostPct.toFixed(1)} %\n`);
}

const fmt = (v, d = 2) => (v === null || v === undefined || Number.isNaN(v) ? 'n/a' : v.toFixed(d));
const md = [
  '# tracelab.strokes=centerline against the issue 38 centre-line targets',
  '',
  `Corpus: \`${relative(ROOT, corpus)}\`, kinds/images: ${env.BENCH_ONLY}; extra params: ${EXTRA.map((p) => p.join('=')).join(', ') || 'none'}.`,
  '',
  '| image | SSIM | gzip / artist | filled | strokes | outlines | pen-down px | pen-up px | pen-up input order px | doubled % | lost % | ms |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
];
for (const r of rows) {
  md.push(`| ${r.file} | ${fmt(r.ssim, 4)} | ${r.artistGzip ? `${fmt(r.gzip / r.artistGzip)}×` : `${r.gzip} B`} | ${r.filled} | ${r.strokes} | ${r.outlines} | ${fmt(r.penDown, 0)} | ${fmt(r.penUp, 0)} | ${fmt(r.penUpInput, 0)} | ${fmt(r.doubledPct, 1)} | ${fmt(r.lostPct, 1)} | ${fmt(r.ms, 0)} |`);
}
md.push('');
// The issue's centre-line target is on stroke-drawn icon sets (heroicons', Iconoir's outline icons): a row of their own.
const groups = [...new Set(rows.map((r) => r.kind))].map((kind) => [kind, rows.filter((r) => r.kind === kind)]);
const iconSets = rows.filter((r) => /heroicons|iconoir/.test(r.file));
if (iconSets.length > 0) groups.push(['stroke-drawn icon sets', iconSets]);
for (const [kind, of] of groups) {
  const worst = of.reduce((a, b) => (a.ssim < b.ssim ? a : b));
  const withArtist = of.filter((r) => r.artistGzip);
  const ratios = withArtist.map((r) => r.gzip / r.artistGzip);
  md.push(
    `- **${kind}** (${of.length}): SSIM median ${fmt(median(of.map((r) => r.ssim)), 4)}, worst ${fmt(worst.ssim, 4)} (${worst.file}), ≥ 0.97 on ${of.filter((r) => r.ssim >= 0.97).length}/${of.length}; ` +
      (withArtist.length ? `gzip/artist median ${fmt(median(ratios))}×, worst ${fmt(Math.max(...ratios))}×, ≤ 1.5× on ${ratios.filter((x) => x <= 1.5).length}/${withArtist.length}; ` : '') +
      `stroke-only ${of.filter((r) => r.filled === 0).length}/${of.length}; outlines on ${of.filter((r) => r.outlines > 0).length}; doubled % median ${fmt(median(of.map((r) => r.doubledPct)), 1)}, worst ${fmt(Math.max(...of.map((r) => r.doubledPct)), 1)}; ` +
      `lost % median ${fmt(median(of.map((r) => r.lostPct)), 1)}, worst ${fmt(Math.max(...of.map((r) => r.lostPct)), 1)}; pen-up / input order median ${fmt(median(of.filter((r) => r.penUpInput > 0).map((r) => r.penUp / r.penUpInput)))}`,
  );
}
md.push('');
writeFileSync(join(BENCH, 'results', process.env.CENTERLINE_RESULT ?? 'strokes-centerline.md'), md.join('\n'));
process.stdout.write(md.join('\n') + '\n');
