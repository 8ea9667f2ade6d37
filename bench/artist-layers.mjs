/**
 * Issue 39's third target: artists' icon, emoji and clip-art SVGs rendered and traced back with
 * every extension that draws as an artist does — `tracelab.gradients=true tracelab.layers=true
 * output.shape_stacking=stacked tracelab.strokes=auto` (the "artist" set) — against the artist's
 * file, the default trace and VTracer (its native binding, the bench's config):
 *   - gzip bytes over the artist's (targets: median ≤ 1.3×, every image ≤ 2.5×);
 *   - SSIM of the render (resvg, over white) against the input: at or above VTracer's on every
 *     image, and the median not below the default's by more than 0.002.
 * The images are those of the selected kinds with an artist's SVG (`reference_svg`).
 * Writes bench/results/artist-layers.md and prints it.
 *
 *   TRACELAB_CORPUS=bench/validation/out node bench/artist-layers.mjs
 * Env: BENCH_ONLY (kinds or image names, default icon,clipart,gradient,layered,stroke).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { selectedCorpus } from './corpus.mjs';
import { median } from './median.mjs';
import { flattenOver, ssim } from './metrics.mjs';
import { vtracerSvg } from './peers/vtracer-native.mjs';
import { renderOverWhite } from './render-svg.mjs';

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH, '..');
const require = createRequire(import.meta.url);
const { PNG } = require('pngjs');

/** The artist set: every extension that writes the picture as an artist draws it. */
export const ARTIST_PARAMS = ['tracelab.gradients=true', 'tracelab.layers=true', 'output.shape_stacking=stacked', 'tracelab.strokes=auto'];
const TARGET_MEDIAN_RATIO = 1.3;
const TARGET_WORST_RATIO = 2.5;
const TARGET_MEDIAN_SSIM_DROP = 0.002;

const gzipBytes = (text) => gzipSync(text, { level: 9 }).length;

/** Traces every file in `dir` with the CLI's batch mode and `params`, into a new folder. */
function traceAll(dir, params, work, name) {
  const out = join(work, name);
  execFileSync(process.execPath, [join(ROOT, 'bin/tracelab.js'), 'vectorize', dir, '--out-dir', out, '--quiet', ...params.flatMap((p) => ['--param', p])], { stdio: ['ignore', 'ignore', 'inherit'] });
  return out;
}

/** Per image: gzip and SSIM of the artist set, the default and VTracer, and the artist's gzip. */
async function measure(corpus, images, work) {
  const inputs = join(work, 'in');
  execFileSync('mkdir', ['-p', inputs]);
  for (const im of images) symlinkSync(join(corpus, im.file), join(inputs, im.file));
  const artistDir = traceAll(inputs, ARTIST_PARAMS, work, 'artist-set');
  const defaultDir = traceAll(inputs, [], work, 'default');
  const rows = [];
  for (const im of images) {
    const id = im.file.replace(/\.png$/, '');
    const png = PNG.sync.read(readFileSync(join(corpus, im.file)));
    const input = flattenOver({ width: png.width, height: png.height, data: png.data });
    const score = (svg) => ssim(input, renderOverWhite(svg, png.width, png.height));
    const ours = readFileSync(join(artistDir, `${id}.svg`), 'utf8');
    const plain = readFileSync(join(defaultDir, `${id}.svg`), 'utf8');
    const vtracer = await vtracerSvg(readFileSync(join(corpus, im.file)));
    const artistGzip = gzipBytes(readFileSync(join(corpus, im.reference_svg)));
    rows.push({ id, kind: im.category, ratio: gzipBytes(ours) / artistGzip, ssim: score(ours), defaultSsim: score(plain), vtracerSsim: score(vtracer) });
  }
  return rows;
}

function summaryRow(label, rows) {
  const worst = rows.reduce((w, r) => (r.ratio > w.ratio ? r : w));
  const belowVtracer = rows.filter((r) => r.ssim < r.vtracerSsim);
  const drop = median(rows.map((r) => r.defaultSsim)) - median(rows.map((r) => r.ssim));
  return `| ${label} | ${rows.length} | ${median(rows.map((r) => r.ratio)).toFixed(2)}× | ${worst.ratio.toFixed(2)}× ${worst.id} | ${rows.filter((r) => r.ratio <= TARGET_WORST_RATIO).length} | ${median(rows.map((r) => r.ssim)).toFixed(4)} | ${median(rows.map((r) => r.defaultSsim)).toFixed(4)} | ${drop.toFixed(4)} | ${belowVtracer.length}${belowVtracer.length ? ` (${belowVtracer.map((r) => r.id).join(', ')})` : ''} |`;
}

function report(rows, corpus) {
  const kinds = [...new Set(rows.map((r) => r.kind))];
  const lines = [
    '# The artist set against the artists (issue 39, third target)',
    '',
    `Corpus: \`${relative(BENCH, corpus) || '.'}\`; ${rows.length} images with an artist's SVG. Artist set: ${ARTIST_PARAMS.map((p) => `\`${p}\``).join(' ')}. Targets: median gzip ≤ ${TARGET_MEDIAN_RATIO}× the artist's, every image ≤ ${TARGET_WORST_RATIO}×, SSIM at or above VTracer's on every image, median SSIM not below the default's by more than ${TARGET_MEDIAN_SSIM_DROP}. Command: \`TRACELAB_CORPUS=${relative(ROOT, corpus) || '.'} node bench/artist-layers.mjs\`.`,
    '',
    '| kind | images | gzip / artist median | worst | ≤ 2.5× | SSIM median | default SSIM median | median drop | below VTracer |',
    '| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | --- |',
    ...kinds.map((k) => summaryRow(k, rows.filter((r) => r.kind === k))),
    summaryRow('all', rows),
    '',
    '| image | gzip / artist | SSIM | default SSIM | VTracer SSIM |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...rows.map((r) => `| ${r.id} | ${r.ratio.toFixed(2)}× | ${r.ssim.toFixed(4)} | ${r.defaultSsim.toFixed(4)} | ${r.vtracerSsim.toFixed(4)} |`),
  ];
  return `${lines.join('\n')}\n`;
}

const env = { ...process.env, BENCH_ONLY: process.env.BENCH_ONLY ?? 'icon,clipart,gradient,layered,stroke' };
const { corpus, images } = selectedCorpus(env);
const withArtist = images.filter((im) => im.reference_svg);
const work = mkdtempSync(join(tmpdir(), 'artist-layers-'));
try {
  const text = report(await measure(corpus, withArtist, work), corpus);
  writeFileSync(join(BENCH, 'results', 'artist-layers.md'), text);
  process.stdout.write(text);
} finally {
  rmSync(work, { recursive: true, force: true });
}
