// Per-kind medians of SSIM (bench/metrics.mjs, resvg over white at the input's size) and gzip bytes
// for two directories of SVGs traced from the same inputs, and each kind's worst ΔSSIM image.
//   node bench/kind-medians.mjs BEFORE_DIR AFTER_DIR INPUT_DIR...
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { median } from './median.mjs';
import { flattenOver, ssim } from './metrics.mjs';
import { renderOverWhite } from './render-svg.mjs';

const require = createRequire(import.meta.url);
const { PNG } = require('pngjs');
const [before, after, ...inputDirs] = process.argv.slice(2);
const byKind = new Map();
for (const dir of inputDirs) {
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.png')).sort()) {
    const id = basename(f, '.png');
    const [a, b] = [join(before, `${id}.svg`), join(after, `${id}.svg`)];
    if (!existsSync(a) || !existsSync(b)) continue;
    const p = PNG.sync.read(readFileSync(join(dir, f)));
    const input = flattenOver({ width: p.width, height: p.height, data: p.data });
    const sa = readFileSync(a, 'utf8'), sb = readFileSync(b, 'utf8');
    const same = sa === sb;
    const x = ssim(input, renderOverWhite(sa, p.width, p.height));
    const y = same ? x : ssim(input, renderOverWhite(sb, p.width, p.height));
    const kind = id.split('-')[0];
    if (!byKind.has(kind)) byKind.set(kind, []);
    byKind.get(kind).push({ id, x, y, gx: gzipSync(sa).length, gy: gzipSync(sb).length, same });
  }
}
console.log('| kind | n | changed | SSIM median | gzip median | worst ΔSSIM |\n| --- | ---: | ---: | --- | --- | --- |');
for (const [kind, rows] of [...byKind].sort()) {
  const w = rows.reduce((m, r) => (r.y - r.x < m.y - m.x ? r : m));
  console.log(`| ${kind} | ${rows.length} | ${rows.filter((r) => !r.same).length} | ${median(rows.map((r) => r.x)).toFixed(4)} → ${median(rows.map((r) => r.y)).toFixed(4)} | ${median(rows.map((r) => r.gx))} → ${median(rows.map((r) => r.gy))} | ${(w.y - w.x).toFixed(4)} ${w.same ? '' : w.id} |`);
}
