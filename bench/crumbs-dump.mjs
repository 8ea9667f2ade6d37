// Dump of the small shapes of default traces (issue 39 item 2): per image, every filled shape under
// --max px² (path geometry, bench/colours.mjs pathArea) with its region's pixel area, colour, label kind
// (palette / band), position, and the regions it borders (colour, pixel area, shared border).
//   node bench/crumbs-dump.mjs [--max 1] [--only a,b] [--params k=v,...] FILES...
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTs } from '../scripts/ts-module.mjs';
import { filledShapes } from './colours.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const opt = (n, f) => { const i = argv.indexOf(n); if (i < 0) return f; const v = argv[i + 1]; argv.splice(i, 2); return v; };
const max = parseFloat(opt('--max', '1'));
const params = opt('--params', '').split(',').filter(Boolean).map((p) => p.split('='));
const tag = createHash('sha1').update(ROOT).digest('hex').slice(0, 8);
const { planVectorize, runVectorize } = await loadTs(ROOT, `bench-dump-${tag}`, 'src/api/pipeline.ts');
const plan = planVectorize(params);
const hex = (c) => `#${[c.r, c.g, c.b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
for (const file of argv) {
  const out = await runVectorize(plan, new Uint8Array(readFileSync(file)), {
    stage: undefined,
  });
  const svg = Buffer.from(out.body).toString('utf8').replace(/<!--[\s\S]*?-->/g, '');
  const shapes = filledShapes(svg);
  const res = out.result;
  const byOrder = res.shapes;
  if (shapes.length !== byOrder.length) { console.log(`${basename(file)}: svg ${shapes.length} vs shapes ${byOrder.length}`); }
  const small = [];
  shapes.forEach((s, k) => { if (s.area < max) small.push([s, byOrder[k]]); });
  console.log(`== ${basename(file)} ${res.stats.profile} shapes ${shapes.length} under ${max}: ${small.length} ${JSON.stringify(res.stats.smallShapeKinds ?? {})}`);
  for (const [s, sh] of small) {
    const m = s.fill === hex(sh.color) ? '' : ` (svg fill ${s.fill})`;
    const ch = res.chains;
    const nb = new Map();
    for (const u of sh.outer) {
      const c = ch[u.chain];
      const other = c.leftRegion === sh.region ? c.rightRegion : c.leftRegion;
      nb.set(other, (nb.get(other) ?? 0) + 1);
    }
    const c0 = ch[sh.outer[0].chain];
    const regShape = new Map(byOrder.map((x) => [x.region, x]));
    const nbs = [...nb].map(([r, n]) => { const x = regShape.get(r); return x ? `${hex(x.color)}/${x.areaPx}px×${n}` : `r${r}×${n}`; }).join(' ');
    console.log(`  ${s.area.toFixed(2)}px² ${sh.areaPx}px ${hex(sh.color)}${m} at ${c0.startX},${c0.startY} holes ${sh.holes.length} nb: ${nbs}`);
  }
}
