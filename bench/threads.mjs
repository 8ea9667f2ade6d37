#!/usr/bin/env node
// Thread scaling: one large image traced by the CLI with 1 and with 2 engine threads
// (TRACELAB_WORKERS), each run in a fresh process. Reports the engine time (the CLI's own
// per-stage timings), the whole-process time and peak RSS, and checks that both outputs are the
// same bytes. Called by `npm run bench` (bench/run.mjs) and usable alone:
//   node bench/threads.mjs [--repeat N]
// Inputs are made here, so they are the same on every machine: corpus reference SVGs rendered
// at 4+ megapixels with resvg, and a photo tiled to 4.8 megapixels.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './median.mjs';

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH, '..');
const CORPUS = process.env.TRACELAB_CORPUS ? resolve(process.cwd(), process.env.TRACELAB_CORPUS) : resolve(ROOT, '../shared/corpus');
const OUT = join(BENCH, 'out', 'threads');
const RESULTS = join(BENCH, 'results');
const repeatArg = process.argv.indexOf('--repeat');
const REPEAT = Math.max(1, parseInt(repeatArg > 0 ? process.argv[repeatArg + 1] : process.env.BENCH_THREADS_REPEAT ?? '3', 10) || 3);
// The largest input.max_pixels the API allows: the image is traced at ~3.1 MP after the shrink.
const MAX_PIXELS = '3145828';
const require = createRequire(join(BENCH, 'package.json'));

function log(msg) {
  process.stderr.write(`${msg}\n`);
}

/** Renders `svgFile` `width` px wide over white. */
function renderSvg(svgFile, width, outFile) {
  const { Resvg } = require('@resvg/resvg-js');
  const png = new Resvg(readFileSync(svgFile, 'utf8'), { fitTo: { mode: 'width', value: width }, background: 'white' }).render();
  writeFileSync(outFile, png.asPng());
  return { width: png.width, height: png.height };
}

/** `pngFile` repeated cols × rows times, alternate tiles mirrored so the seams stay continuous. */
function tilePng(pngFile, cols, rows, outFile) {
  const { PNG } = require('pngjs');
  const src = PNG.sync.read(readFileSync(pngFile));
  const out = new PNG({ width: src.width * cols, height: src.height * rows });
  for (let ty = 0; ty < rows; ty++) {
    for (let tx = 0; tx < cols; tx++) {
      for (let y = 0; y < src.height; y++) {
        const sy = ty % 2 ? src.height - 1 - y : y;
        for (let x = 0; x < src.width; x++) {
          const sx = tx % 2 ? src.width - 1 - x : x;
          const s = (sy * src.width + sx) * 4;
          const d = ((ty * src.height + y) * out.width + tx * src.width + x) * 4;
          for (let k = 0; k < 4; k++) out.data[d + k] = src.data[s + k];
        }
      }
    }
  }
  writeFileSync(outFile, PNG.sync.write(out));
  return { width: out.width, height: out.height };
}

function makeInputs() {
  mkdirSync(OUT, { recursive: true });
  const inputs = [];
  const svg = (name, width) => {
    const src = join(CORPUS, `${name}.ref.svg`);
    if (!existsSync(src)) return;
    const file = join(OUT, `${name}-${width}.png`);
    inputs.push({ name: `${name} (rendered)`, file, ...renderSvg(src, width, file) });
  };
  svg('clipart-baseball-glove', 1900);
  svg('lineart_bw-owl', 1500);
  const photo = join(CORPUS, 'photo-coffee.png');
  if (existsSync(photo)) {
    const file = join(OUT, 'photo-coffee-tiled.png');
    inputs.push({ name: 'photo-coffee (tiled 5×4)', file, ...tilePng(photo, 5, 4, file) });
  }
  return inputs;
}

/** One CLI trace in a fresh process: engine ms, process ms, peak RSS MB, output bytes. */
function traceOnce(input, threads) {
  const out = join(OUT, `${input.file.split('/').pop()}.t${threads}.svg`);
  const started = process.hrtime.bigint();
  const useTime = existsSync('/usr/bin/time');
  const args = [join(ROOT, 'bin/tracelab.js'), 'vectorize', input.file, '-o', out, '--max-pixels', MAX_PIXELS];
  const rssFile = join(OUT, 'rss.txt');
  const r = useTime
    ? spawnSync('/usr/bin/time', ['-f', '%M', '-o', rssFile, process.execPath, ...args], { env: { ...process.env, TRACELAB_WORKERS: String(threads), TRACELAB_TIMINGS: '1' }, encoding: 'utf8' })
    : spawnSync(process.execPath, args, { env: { ...process.env, TRACELAB_WORKERS: String(threads), TRACELAB_TIMINGS: '1' }, encoding: 'utf8' });
  const processMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) throw new Error(`tracelab failed on ${input.file} with ${threads} threads: ${r.stderr}`);
  const line = r.stderr.split('\n').find((l) => l.startsWith('tracelab-timings '));
  const timings = line ? JSON.parse(line.slice('tracelab-timings '.length)) : {};
  const rssMb = useTime ? parseInt(readFileSync(rssFile, 'utf8').trim().split('\n').pop(), 10) / 1024 : NaN;
  return { engineMs: timings.trace ?? NaN, processMs, rssMb, bytes: readFileSync(out) };
}


export function runThreadBench() {
  if (!existsSync(join(ROOT, 'dist-cli', 'job-thread.mjs'))) throw new Error('dist-cli is not built (npm run build:cli)');
  const rows = [];
  for (const input of makeInputs()) {
    const runs = { 1: [], 2: [] };
    // Alternate 1 and 2 threads so a noisy neighbour hits both alike.
    for (let i = 0; i < REPEAT; i++) for (const t of [1, 2]) runs[t].push(traceOnce(input, t));
    const identical = [...runs[1], ...runs[2]].every((r) => r.bytes.equals(runs[1][0].bytes));
    const m = (t, key) => median(runs[t].map((r) => r[key]));
    const row = {
      name: input.name,
      megapixels: (input.width * input.height) / 1e6,
      engine1: m(1, 'engineMs'),
      engine2: m(2, 'engineMs'),
      process1: m(1, 'processMs'),
      process2: m(2, 'processMs'),
      rss1: m(1, 'rssMb'),
      rss2: m(2, 'rssMb'),
      identical,
    };
    log(`threads: ${row.name} ${row.megapixels.toFixed(2)} MP: engine ${row.engine1.toFixed(0)} → ${row.engine2.toFixed(0)} ms (×${(row.engine1 / row.engine2).toFixed(2)}), identical=${identical}`);
    rows.push(row);
  }
  return rows;
}

export function threadTable(rows) {
  const lines = [
    `### Engine threads (TRACELAB_WORKERS=1 vs 2; input.max_pixels=${MAX_PIXELS}; medians of ${REPEAT} runs each, fresh processes)`,
    '',
    '| image | MP in | engine ms, 1 thread | engine ms, 2 threads | speed-up | process ms, 1 | process ms, 2 | speed-up | RSS MB, 1 | RSS MB, 2 | same bytes |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const r of rows) {
    lines.push(`| ${r.name} | ${r.megapixels.toFixed(2)} | ${r.engine1.toFixed(0)} | ${r.engine2.toFixed(0)} | ×${(r.engine1 / r.engine2).toFixed(2)} | ${r.process1.toFixed(0)} | ${r.process2.toFixed(0)} | ×${(r.process1 / r.process2).toFixed(2)} | ${r.rss1.toFixed(0)} | ${r.rss2.toFixed(0)} | ${r.identical ? 'yes' : '**no**'} |`);
  }
  lines.push('', 'Engine ms = decode excluded, shrink to input.max_pixels through shapes (the CLI\'s `trace` timing); process ms = the whole `tracelab vectorize` process.');
  return lines.join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const rows = runThreadBench();
  const table = threadTable(rows);
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(join(RESULTS, 'threads.md'), `${table}\n`);
  process.stdout.write(`${table}\n`);
  if (rows.some((r) => !r.identical)) process.exitCode = 1;
}
