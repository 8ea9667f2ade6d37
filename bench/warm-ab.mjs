/**
 * Paired warm A/B: two checkouts of Tracelab (this one, A, and another, B: `git worktree add` or
 * `git archive` of the revision to compare with, node_modules beside it) traced in ONE process,
 * image by image in turn (A B A B …), so that a shared or drifting machine slows both alike. Each
 * side is bench/warm-entry.ts of its checkout (decode + trace + SVG, as bench/warm.mjs times it).
 *
 * In: `node bench/warm-ab.mjs B_ROOT`; the images as bench/warm.mjs reads them (TRACELAB_CORPUS,
 * BENCH_ONLY); BENCH_AB_ROUNDS timed rounds (default 5) after one untimed round.
 * Out (stdout): per kind, the sum of per-image medians for A and B, A/B of those sums and the
 * median of the per-image ratios; the same for each call's user CPU (CPU) and for each image's
 * fastest round (MIN: on a loaded machine the least disturbed run); with AB_PER=1 the ratios of
 * every image; each stage's summed medians (stats.stageMs) for A and B, and the process's user
 * CPU spent in A and in B. WARM_AB_PARAMS: name=value params for both sides, comma-separated
 * (e.g. tracelab.strokes=auto). Each side is bundled into a cache folder named after its checkout's
 * path (worktrees share one node_modules: a fixed name let two helpers' runs swap bundles).
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTs } from '../scripts/ts-module.mjs';
import { CATEGORIES, selectedCorpus } from './corpus.mjs';
import { median } from './median.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Math.max(1, parseInt(process.env.BENCH_AB_ROUNDS ?? '5', 10) || 5);
const PARAMS = (process.env.WARM_AB_PARAMS ?? '').split(',').map((s) => s.trim()).filter(Boolean).map((p) => p.split('='));


/** One side: its checkout's warm pipeline, bundled into a cache folder of its own. */
async function side(root, name) {
  const m = await loadTs(root, `bench-warm-ab-${name}-${root.replace(/[^A-Za-z0-9]+/g, '_')}`, 'bench/warm-entry.ts');
  const plan = m.planVectorize(PARAMS);
  return async (bytes) => {
    m.prepareNodeDecoders(bytes);
    return m.runVectorize(plan, bytes);
  };
}

/** Per image and side: the wall ms of each round and the stage timings of each round. */
async function measure(sides, images) {
  const runs = sides.map(() => images.map(() => ({ ms: [], cpu: [], stages: [] })));
  const cpuMs = sides.map(() => 0);
  for (const run of sides) for (const im of images) await run(im.bytes);
  for (let round = 0; round < ROUNDS; round++) {
    for (let j = 0; j < images.length; j++) {
      for (let s = 0; s < sides.length; s++) {
        const cpu0 = process.cpuUsage();
        const t0 = performance.now();
        const out = await sides[s](images[j].bytes);
        runs[s][j].ms.push(performance.now() - t0);
        const cpu = process.cpuUsage(cpu0).user / 1000;
        cpuMs[s] += cpu;
        runs[s][j].cpu.push(cpu);
        runs[s][j].stages.push(out.timings);
      }
    }
  }
  return { runs, cpuMs };
}

/** Summed per-image medians of each stage over the images `idx`. */
function stageSums(perImage, idx) {
  const sums = {};
  for (const j of idx) {
    for (const stage of Object.keys(perImage[j].stages[0] ?? {})) sums[stage] = (sums[stage] ?? 0) + median(perImage[j].stages.map((t) => t[stage] ?? 0));
  }
  return Object.entries(sums).map(([stage, ms]) => `${stage} ${ms.toFixed(0)}`).join(', ');
}

/** One figure per image (`of` a side's runs of it) summed over the images `idx` for A and B, with A/B and the median image's ratio. */
function ratioLine(label, runs, idx, of) {
  const [a, b] = runs.map((perImage) => idx.reduce((sum, j) => sum + of(perImage[j]), 0));
  const ratio = median(idx.map((j) => of(runs[0][j]) / of(runs[1][j])));
  console.log(`  ${label}: A ${a.toFixed(0)} ms, B ${b.toFixed(0)} ms, A/B ${(a / b).toFixed(3)} (median image ${ratio.toFixed(3)})`);
}

function perImageRatio(runs, j, of) {
  return (of(runs[0][j]) / of(runs[1][j])).toFixed(3);
}

async function main() {
  const base = process.argv[2];
  if (!base) throw new Error('usage: node bench/warm-ab.mjs B_ROOT (a checkout of the revision to compare with)');
  const { corpus, images: listed } = selectedCorpus();
  const images = listed.map((im) => ({ ...im, bytes: new Uint8Array(readFileSync(join(corpus, im.file))) }));
  const sides = [await side(ROOT, 'a'), await side(resolve(base), 'b')];
  const { runs, cpuMs } = await measure(sides, images);
  const kinds = CATEGORIES.filter((k) => images.some((im) => im.category === k));
  console.log(`${images.length} images, ${ROUNDS} rounds; A = ${ROOT}, B = ${resolve(base)}`);
  for (const kind of kinds) {
    const idx = images.flatMap((im, j) => (im.category === kind ? [j] : []));
    const [a, b] = runs.map((perImage) => idx.reduce((sum, j) => sum + median(perImage[j].ms), 0));
    const ratio = median(idx.map((j) => median(runs[0][j].ms) / median(runs[1][j].ms)));
    console.log(`${kind}: A ${a.toFixed(0)} ms, B ${b.toFixed(0)} ms, A/B ${(a / b).toFixed(3)} (median image ${ratio.toFixed(3)})`);
    ratioLine('CPU', runs, idx, (r) => median(r.cpu));
    ratioLine('MIN', runs, idx, (r) => Math.min(...r.ms));
    if (process.env.AB_PER) for (const j of idx) console.log(`    ${images[j].id}: wall ${perImageRatio(runs, j, (r) => median(r.ms))}, cpu ${perImageRatio(runs, j, (r) => median(r.cpu))}, min ${perImageRatio(runs, j, (r) => Math.min(...r.ms))} (B ${median(runs[1][j].ms).toFixed(1)} ms)`);
    console.log(`  A stages: ${stageSums(runs[0], idx)}`);
    console.log(`  B stages: ${stageSums(runs[1], idx)}`);
  }
  console.log(`user CPU: A ${cpuMs[0].toFixed(0)} ms, B ${cpuMs[1].toFixed(0)} ms, A/B ${(cpuMs[0] / cpuMs[1]).toFixed(3)}`);
}

await main();
