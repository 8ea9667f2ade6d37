// Before → after for two directories of SVGs traced from the same inputs (named after them): per
// changed file, SSIM against the input (bench/metrics.mjs, rendered over white by resvg), gzip
// bytes, shapes and shapes under 1 px² (bench/colours.mjs); unchanged files are counted only.
//   node bench/svg-diff.mjs BEFORE_DIR AFTER_DIR INPUT_DIR...
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { filledShapes } from './colours.mjs';
import { flattenOver, ssim } from './metrics.mjs';
import { renderOverWhite } from './render-svg.mjs';

const require = createRequire(import.meta.url);
const { PNG } = require('pngjs');
const [before, after, ...inputDirs] = process.argv.slice(2);
const inputOf = (id) => inputDirs.map((d) => join(d, `${id}.png`)).find(existsSync);
const stats = (svg, png) => {
  const clean = svg.replace(/<!--[\s\S]*?-->/g, '');
  const shapes = filledShapes(clean, png.width / parseFloat(clean.match(/viewBox="[-\d.]+ [-\d.]+ ([\d.]+)/)?.[1] ?? String(png.width)));
  return { ssim: ssim(flattenOver(png), renderOverWhite(svg, png.width, png.height)), gz: gzipSync(svg).length, shapes: shapes.length, under1: shapes.filter((s) => s.area < 1).length };
};
let same = 0;
const rows = [];
for (const f of readdirSync(after).filter((f) => f.endsWith('.svg')).sort()) {
  const a = readFileSync(join(after, f), 'utf8');
  const b = readFileSync(join(before, f), 'utf8');
  if (a === b) { same++; continue; }
  const id = basename(f, '.svg');
  const file = inputOf(id);
  if (!file) continue;
  const p = PNG.sync.read(readFileSync(file));
  const png = { width: p.width, height: p.height, data: p.data };
  const x = stats(b, png), y = stats(a, png);
  rows.push({ id, x, y });
  console.log(`| ${id} | ${x.ssim.toFixed(4)} → ${y.ssim.toFixed(4)} (${(y.ssim - x.ssim >= 0 ? '+' : '')}${(y.ssim - x.ssim).toFixed(4)}) | ${x.gz} → ${y.gz} | ${x.shapes} → ${y.shapes} | ${x.under1} → ${y.under1} |`);
}
const worst = rows.reduce((w, r) => (!w || r.y.ssim - r.x.ssim < w.y.ssim - w.x.ssim ? r : w), null);
console.log(`\n${rows.length} changed, ${same} unchanged; worst ΔSSIM ${worst ? `${(worst.y.ssim - worst.x.ssim).toFixed(4)} (${worst.id})` : '-'}; shapes ${rows.reduce((s, r) => s + r.x.shapes, 0)} → ${rows.reduce((s, r) => s + r.y.shapes, 0)}, under 1 px² ${rows.reduce((s, r) => s + r.x.under1, 0)} → ${rows.reduce((s, r) => s + r.y.under1, 0)}`);
