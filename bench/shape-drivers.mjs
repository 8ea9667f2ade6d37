// What drives a default trace's shape count (issue 39: shape count within 2× VTracer's): per image,
// the shapes written, those under 4 px² (src/api/pipeline.ts smallShapeCounts), the flat colours
// (bands included) and smooth areas (TraceStats), the shapes that share their fill with a larger
// shape ("same-fill pieces": one colour cut into pieces by shapes over it, or a rim cut by bands)
// by written area (<4 / 4–16 / 16–64 / 64–256 / ≥256 px², bench/colours.mjs filledShapes), and the
// shapes written with tracelab.gradients=true (the bands' share).
//   node bench/shape-drivers.mjs FILE.png[=VTRACER_SHAPES]...
import { readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTs } from '../scripts/ts-module.mjs';
import { filledShapes } from './colours.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { planVectorize, runVectorize, smallShapeCounts } = await loadTs(ROOT, `bench-drivers-${basename(ROOT)}`, 'src/api/pipeline.ts');
const BINS = [4, 16, 64, 256, Infinity];
const binned = (areas) => BINS.map((top, i) => areas.filter((a) => a >= (i ? BINS[i - 1] : 0) && a < top).length).join('/');

async function trace(file, params) {
  const out = await runVectorize(planVectorize(params), new Uint8Array(readFileSync(file)));
  const shapes = filledShapes(Buffer.from(out.body).toString('utf8'));
  const byFill = new Map();
  for (const s of shapes) byFill.set(s.fill, [...(byFill.get(s.fill) ?? []), s.area]);
  const pieces = [...byFill.values()].flatMap((areas) => areas.sort((a, b) => b - a).slice(1));
  return { shapes: shapes.length, pieces, stats: out.result.stats, small: smallShapeCounts(out.result) };
}

console.log('| image | shapes | <4 px² | colours | smooth areas | same-fill pieces (<4/<16/<64/<256/≥256) | gradients=true | VTracer |');
console.log('| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: |');
for (const [file, vtracer] of process.argv.slice(2).map((a) => a.split('='))) {
  const d = await trace(file, []);
  const g = await trace(file, [['tracelab.gradients', 'true']]);
  console.log(`| ${basename(file, '.png')} | ${d.shapes} | ${d.small.shapesUnder4px2} | ${d.stats.colors} | ${d.stats.smoothAreas ?? 0} | ${d.pieces.length}: ${binned(d.pieces)} | ${g.shapes} | ${vtracer ?? ''} |`);
}
