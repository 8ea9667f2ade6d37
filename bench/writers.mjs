/**
 * Write-stage timings: the time and garbage-collection pauses of writing one already traced
 * picture (the pipeline's 'write' stage: output plan + format writer + text encoding,
 * src/api/write-file.ts), optionally A/B against a second checkout of the formats code.
 *
 * Usage: node bench/writers.mjs [--base ROOT [--whole]] [--runs N] [--formats svg,pdf,...] [--param NAME=VALUE]... IMAGE...
 * Each image is traced once (this checkout's pipeline; default options, or the API parameters given
 * with --param) and then written N times
 * per format (default 7) after one warm-up write. With --base, ROOT's src/api/write-file.ts (and
 * the formats code it imports) writes the same trace too, A and B alternating run by run so load
 * on the shared machine falls on both alike; the outputs must be byte-identical (checked). Out:
 * one line per image and format with the median ms and median GC ms per write, and B/A ratios.
 * With --whole (and --base): the whole warm pipeline instead (decode + trace + write,
 * src/api/pipeline.ts runVectorize, each side with its own code), per image and format in blocks
 * of three runs, A and B blocks alternating `--runs` times; out: median total and write ms and
 * the GC share (pauses inside the runs over their time), which also counts garbage that writes
 * leave for the next trace to collect.
 * GC: node:perf_hooks 'gc' entries whose start falls inside a write. Allocation: the growth of
 * V8's used heap over a write, median over the writes with no GC inside (run node with a large
 * young generation, e.g. --max-semi-space-size=256, so that most have none; "n/a" otherwise):
 * garbage a write leaves is collected later, during whatever runs next, so its cost shows here
 * and not in the write's own GC time.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { loadTs } from '../scripts/ts-module.mjs';
import { median } from './median.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function parseArgs(argv) {
  const args = { base: undefined, whole: false, runs: 7, formats: ['svg', 'pdf', 'eps', 'dxf'], params: [], images: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--base') args.base = resolve(argv[++i]);
    else if (a === '--whole') args.whole = true;
    else if (a === '--runs') args.runs = Math.max(1, parseInt(argv[++i], 10));
    else if (a === '--formats') args.formats = argv[++i].split(',');
    else if (a === '--param') args.params.push(argv[++i].split(/=(.*)/s).slice(0, 2));
    else args.images.push(a);
  }
  return args;
}


/** GC pauses seen so far, as [start, duration] pairs (perf_hooks delivers them after the fact). */
const gcPauses = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcPauses.push([e.startTime, e.duration]);
}).observe({ entryTypes: ['gc'] });
const settle = () => new Promise((done) => setTimeout(done, 0));

function gcWithin(t0, t1) {
  let ms = 0;
  for (const [start, duration] of gcPauses) if (start >= t0 && start < t1) ms += duration;
  return ms;
}

/** Writes once and returns { ms, gcMs, allocMb (NaN when a GC ran), bytes }. */
async function timedWrite(writeFile, result, options) {
  await settle();
  const heap0 = getHeapStatistics().used_heap_size;
  const t0 = performance.now();
  const bytes = await writeFile(result, options);
  const t1 = performance.now();
  const heap1 = getHeapStatistics().used_heap_size;
  await settle();
  const gcMs = gcWithin(t0, t1);
  return { ms: t1 - t0, gcMs, allocMb: gcMs > 0 ? NaN : (heap1 - heap0) / 2 ** 20, bytes };
}

/** Median allocation of the runs without GC, as text. */
function allocText(runs) {
  const clean = runs.map((x) => x.allocMb).filter((v) => !Number.isNaN(v));
  return clean.length > 0 ? `${median(clean).toFixed(1).padStart(6)} MB` : '   n/a   ';
}

function sameBytes(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const args = parseArgs(process.argv.slice(2));
const pipeline = await loadTs(ROOT, 'bench-writers', 'src/api/pipeline.ts');
const writerA = (await loadTs(ROOT, 'bench-writers', 'src/api/write-file.ts')).writeFile;
const writerB = args.base ? (await loadTs(args.base, 'bench-writers-base', 'src/api/write-file.ts')).writeFile : undefined;
const fmt = (v) => v.toFixed(1).padStart(7);

/** One whole pipeline run: { ms, writeMs, gcMs }. */
async function timedRun(side, plan, bytes) {
  await settle();
  const t0 = performance.now();
  const out = await side.runVectorize(plan, bytes);
  const t1 = performance.now();
  await settle();
  return { ms: t1 - t0, writeMs: out.timings.write, gcMs: gcWithin(t0, t1) };
}

/** The --whole comparison for one image and format; prints one line. */
async function compareWhole(image, bytes, format, base) {
  const fields = [...args.params, ['output.file_format', format]];
  const sides = { a: { pipeline, runs: [] }, b: { pipeline: base, runs: [] } };
  for (const side of Object.values(sides)) await timedRun(side.pipeline, side.pipeline.planVectorize(fields), bytes); // warm-up
  for (let r = 0; r < args.runs; r++) {
    for (const key of r % 2 === 0 ? ['a', 'b'] : ['b', 'a']) {
      const side = sides[key];
      const plan = side.pipeline.planVectorize(fields);
      for (let k = 0; k < 3; k++) side.runs.push(await timedRun(side.pipeline, plan, bytes));
    }
  }
  const summary = ({ runs }) => ({
    ms: median(runs.map((x) => x.ms)),
    write: median(runs.map((x) => x.writeMs)),
    gcShare: runs.reduce((n, x) => n + x.gcMs, 0) / runs.reduce((n, x) => n + x.ms, 0),
  });
  const a = summary(sides.a);
  const b = summary(sides.b);
  const text = (x) => `${fmt(x.ms)} ms (write ${fmt(x.write)}, GC ${(100 * x.gcShare).toFixed(1).padStart(4)} %)`;
  console.log(`${basename(image).padEnd(44)} ${format.padEnd(4)} whole  this ${text(a)}  base ${text(b)}  this/base ${(a.ms / b.ms).toFixed(2)}x, write ${(a.write / b.write).toFixed(2)}x`);
}

const basePipeline = args.whole && args.base ? await loadTs(args.base, 'bench-writers-base', 'src/api/pipeline.ts') : undefined;
for (const image of args.images) {
  if (basePipeline) {
    const bytes = new Uint8Array(readFileSync(image));
    for (const format of args.formats) await compareWhole(image, bytes, format, basePipeline);
    continue;
  }
  const bytes = new Uint8Array(readFileSync(image));
  const { result } = await pipeline.runVectorize(pipeline.planVectorize(args.params), bytes);
  for (const format of args.formats) {
    const options = pipeline.planVectorize([...args.params, ['output.file_format', format]]).outputOptions;
    const runsA = [];
    const runsB = [];
    // Warm-up write of each side (JIT, lazily imported writers), then alternate.
    await timedWrite(writerA, result, options);
    if (writerB) await timedWrite(writerB, result, options);
    for (let r = 0; r < args.runs; r++) {
      // The side that goes first alternates too.
      const order = r % 2 === 0 ? ['a', 'b'] : ['b', 'a'];
      for (const side of order) {
        if (side === 'a') runsA.push(await timedWrite(writerA, result, options));
        else if (writerB) runsB.push(await timedWrite(writerB, result, options));
      }
    }
    const a = { ms: median(runsA.map((x) => x.ms)), gc: median(runsA.map((x) => x.gcMs)) };
    let line = `${basename(image).padEnd(44)} ${format.padEnd(4)} ${String(runsA[0].bytes.length).padStart(9)} B  this ${fmt(a.ms)} ms (gc ${fmt(a.gc)}, alloc ${allocText(runsA)})`;
    if (writerB) {
      const b = { ms: median(runsB.map((x) => x.ms)), gc: median(runsB.map((x) => x.gcMs)) };
      const same = sameBytes(runsA[0].bytes, runsB[0].bytes);
      line += `  base ${fmt(b.ms)} ms (gc ${fmt(b.gc)}, alloc ${allocText(runsB)})  this/base ${(a.ms / b.ms).toFixed(2)}x${same ? '' : '  OUTPUT DIFFERS'}`;
    }
    console.log(line);
  }
}
