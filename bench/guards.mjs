#!/usr/bin/env node
// Hostile inputs, timed and weighed: decompression bombs (small files declaring a huge canvas),
// a zlib bomb, a 25 MP picture from a 77 KB file and a 150 kB parameter name. The unit tests
// check each one's answer (tests/fuzz/fuzz-slice.test.ts, bomb-shrink.test.ts, params.test.ts,
// tests/decode/decode.test.ts); how fast and how lean the answer comes depends on the machine, so
// those figures are reported here instead of being limits in the tests
// (tests/hygiene/timing-asserts.test.ts keeps them out). The inputs and the measuring are
// tests/fuzz/guard-figures.ts. Called by `npm run bench` (bench/run.mjs) and usable alone:
//   node bench/guards.mjs      (writes bench/results/guards.md)
// Each figure is one run, in one process with `--expose-gc` (a collection before each row), except
// the 25 MP picture, whose peak RSS is that of a fresh process doing only it.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleTs } from '../scripts/ts-module.mjs';

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH, '..');
const RESULTS = join(BENCH, 'results');

/** Runs `call` (an expression on the bundle's module `m`) in a fresh `node --expose-gc`; its JSON result. */
function inFreshProcess(bundle, call) {
  const script = `const m = await import(${JSON.stringify(pathToFileURL(bundle).href)}); process.stdout.write(JSON.stringify(await ${call}));`;
  const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', maxBuffer: 16 << 20 });
  if (r.status !== 0) throw new Error(`bench/guards: ${call} failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout);
}

export async function runGuardBench() {
  const bundle = await bundleTs(ROOT, 'bench-guards', 'tests/fuzz/guard-figures.ts');
  return [...inFreshProcess(bundle, 'm.measureGuards()'), inFreshProcess(bundle, 'm.shrinkPeak()')];
}

export function guardTable(rows) {
  const lines = [
    '### Hostile inputs (answers checked by the unit tests; times and memory reported here)',
    '',
    '| input | bytes | answer | ms | heap + buffers grew, MB | peak RSS, MB (fresh process) |',
    '| --- | ---: | --- | ---: | ---: | ---: |',
  ];
  const mb = (v) => (v === undefined ? '' : v.toFixed(1));
  for (const r of rows) lines.push(`| ${r.name} | ${r.bytes} | ${r.answer} | ${r.ms.toFixed(1)} | ${mb(r.grewMb)} | ${mb(r.peakRssMb)} |`);
  lines.push('', 'One run each, on this machine. 1013: refused from the header; 1006: refused while inflating; 400/1019: refused parameter.');
  return lines.join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const table = guardTable(await runGuardBench());
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(join(RESULTS, 'guards.md'), `${table}\n`);
  process.stdout.write(`${table}\n`);
}
