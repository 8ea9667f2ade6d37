/**
 * 1-bit line art against potrace (issue 38: with tracelab.strokes=auto, gzip ≤ potrace's, SSIM at
 * or above potrace's). Every `lineart_bw-*.png` of the given folders is thresholded to 1 bit the
 * way the bench's lineart_bilevel kind is (bench/derived.mjs: luma < 128 over white); Tracelab
 * traces the 1-bit PNG (default, stacked, strokes=auto), `potrace -s` the PBM of the same pixels.
 * Per image: gzip -9 bytes of each SVG; SSIM of each render (resvg over white, 1×) against the
 * 1-bit input and against the anti-aliased original; the number of path sub-paths (M commands).
 * A second table: the anti-aliased originals themselves, default against strokes=auto (gzip, SSIM
 * against the original, and how many fills are the paper's colour).
 *
 *   node bench/lineart-bilevel.mjs "$TRACELAB_CORPUS" bench/validation/out
 * Env: LINEART_ONLY (substring of the file names to keep).
 */
import { readFileSync, writeFileSync, readdirSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { loadTs } from '../scripts/ts-module.mjs';
import { bilevelPbm, bilevelPng, bilevelMask } from './derived.mjs';
import { flattenOver, ssim } from './metrics.mjs';
import { renderOverWhite } from './render-svg.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { PNG } = require('pngjs');
const { planVectorize, runVectorize, prepareNodeDecoders } = await loadTs(ROOT, 'bench-warm', 'bench/warm-entry.ts');
const MODES = {
  default: planVectorize([]),
  stacked: planVectorize([['output.shape_stacking', 'stacked']]),
  auto: planVectorize([['tracelab.strokes', 'auto']]),
};
const median = (xs) => {
  const s = [...xs].filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const subpaths = (svg) => (svg.match(/[Mm]/g) ?? []).length;
const tmp = mkdtempSync(join(tmpdir(), 'lineart-bilevel-'));
const rows = [];
for (const dir of process.argv.slice(2)) {
  for (const file of readdirSync(dir).filter((f) => /^lineart_bw-.*\.png$/.test(f)).sort()) {
    if (process.env.LINEART_ONLY && !file.includes(process.env.LINEART_ONLY)) continue;
    const png = PNG.sync.read(readFileSync(join(dir, file)));
    const img = { width: png.width, height: png.height, data: png.data };
    if (!bilevelMask(img).some((v) => v === 1)) continue; // blank after thresholding
    const bytes = new Uint8Array(bilevelPng(img));
    const bilevel = PNG.sync.read(Buffer.from(bytes));
    const oneBit = flattenOver({ width: bilevel.width, height: bilevel.height, data: bilevel.data });
    const original = flattenOver(img);
    const pbm = join(tmp, file.replace(/\.png$/, '.pbm'));
    writeFileSync(pbm, bilevelPbm(img));
    const row = { file: `${dir.includes('validation') ? 'val' : 'corpus'}/${file.replace(/^lineart_bw-|\.png$/g, '')}` };
    const score = (name, svg) => {
      const render = flattenOver(renderOverWhite(svg, img.width, img.height));
      row[name] = { gzip: gzipSync(svg, { level: 9 }).length, ssim1: ssim(oneBit, render), ssimAa: ssim(original, render), subpaths: subpaths(svg) };
      writeFileSync(join(tmp, `${file}.${name}.svg`), svg);
    };
    const out = join(tmp, `${file}.potrace.svg`);
    spawnSync('potrace', ['-s', pbm, '-o', out]);
    score('potrace', readFileSync(out, 'utf8'));
    for (const [name, plan] of Object.entries(MODES)) {
      prepareNodeDecoders(bytes);
      const res = await runVectorize(plan, bytes);
      score(name, new TextDecoder().decode(res.body));
    }
    for (const name of ['default', 'auto']) {
      const source = new Uint8Array(readFileSync(join(dir, file)));
      prepareNodeDecoders(source);
      const res = await runVectorize(MODES[name], source);
      const svg = new TextDecoder().decode(res.body);
      const render = flattenOver(renderOverWhite(svg, img.width, img.height));
      row[`aa-${name}`] = { gzip: gzipSync(svg, { level: 9 }).length, ssimAa: ssim(original, render), fills: new Set(svg.match(/fill="#[0-9a-f]+"/g) ?? []).size, profile: res.result.stats.profile };
      writeFileSync(join(tmp, `${file}.aa-${name}.svg`), svg);
    }
    rows.push(row);
    process.stderr.write(`${row.file}: auto/potrace ${(row.auto.gzip / row.potrace.gzip).toFixed(2)}×\n`);
  }
}
const f = (v, d = 4) => (Number.isFinite(v) ? v.toFixed(d) : 'n/a');
const md = [
  `SVGs in ${tmp}`,
  '',
  '| image | potrace gzip | default | stacked | auto | auto/potrace | SSIM 1-bit potrace | auto | default | SSIM vs AA potrace | auto | sub-paths potrace | auto |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
];
for (const r of rows) {
  md.push(`| ${r.file} | ${r.potrace.gzip} | ${r.default.gzip} | ${r.stacked.gzip} | ${r.auto.gzip} | ${f(r.auto.gzip / r.potrace.gzip, 2)}× | ${f(r.potrace.ssim1)} | ${f(r.auto.ssim1)} | ${f(r.default.ssim1)} | ${f(r.potrace.ssimAa)} | ${f(r.auto.ssimAa)} | ${r.potrace.subpaths} | ${r.auto.subpaths} |`);
}
md.push('', 'Anti-aliased originals (Tracelab only):', '', '| image | profile | gzip default | auto | auto/default | SSIM default | auto | fill colours default | auto |', '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const r of rows) {
  const d = r['aa-default'];
  const a = r['aa-auto'];
  md.push(`| ${r.file} | ${a.profile} | ${d.gzip} | ${a.gzip} | ${f(a.gzip / d.gzip, 2)}× | ${f(d.ssimAa)} | ${f(a.ssimAa)} | ${d.fills} | ${a.fills} |`);
}
md.push('', `anti-aliased: median gzip auto/default ${f(median(rows.map((r) => r['aa-auto'].gzip / r['aa-default'].gzip)), 2)}×, median ΔSSIM auto − default ${f(median(rows.map((r) => r['aa-auto'].ssimAa - r['aa-default'].ssimAa)))}, worst ${f(Math.min(...rows.map((r) => r['aa-auto'].ssimAa - r['aa-default'].ssimAa)))}`);
const ratios = (a, b) => rows.map((r) => r[a].gzip / r[b].gzip);
md.push('', `median gzip/potrace: default ${f(median(ratios('default', 'potrace')), 2)}×, stacked ${f(median(ratios('stacked', 'potrace')), 2)}×, auto ${f(median(ratios('auto', 'potrace')), 2)}×`);
const worst = rows.reduce((w, r) => (!w || r.auto.gzip / r.potrace.gzip > w.auto.gzip / w.potrace.gzip ? r : w), undefined);
if (worst) md.push(`worst auto/potrace: ${worst.file} ${f(worst.auto.gzip / worst.potrace.gzip, 2)}×`);
md.push(`auto SSIM (1-bit) ≥ potrace − 0.0005 on ${rows.filter((r) => r.auto.ssim1 >= r.potrace.ssim1 - 0.0005).length} of ${rows.length}; median ΔSSIM auto − potrace ${f(median(rows.map((r) => r.auto.ssim1 - r.potrace.ssim1)))}`);
console.log(md.join('\n'));
