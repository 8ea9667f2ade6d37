#!/usr/bin/env node
/**
 * The long fuzz run: `node scripts/fuzz.mjs --count 10000 --seed 1`.
 * Generates inputs with tests/fuzz/corpus.ts (seed images in PNG, JPEG, WebP, GIF, BMP, then mutated) and runs
 * each through decode + trace + SVG write (tests/fuzz/run-one.ts) in child worker processes, each input under
 * bounds:
 *   --timeout-ms 15000  wall clock per input; over it the worker is killed (a hang). Not lower: a tiny file may
 *                       declare an accepted 8–33 MP canvas, shrunk to 2.1 MP and traced (2–8 s on one core)
 *   --heap-mb 512       the worker's --max-old-space-size (a V8 heap OOM kills the worker: an OOM)
 *   --rss-mb 1024       the worker's resident set, polled from /proc every 25 ms (typed arrays live outside the
 *                       V8 heap); over it the worker is killed and the input counted as an OOM
 *   --workers 2  --from 0 (first case index)
 * Prints a summary (inputs per format and mutator; ok / errors per code / crashes / hangs / OOMs; max ms, max
 * heap, peak RSS), saves every failing input to tests/fuzz/found/, and exits 1 on any crash, hang or OOM.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { bundleTs } from './ts-module.mjs';
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
const count = arg('count', 10_000);
const runSeed = arg('seed', 1);
const workers = arg('workers', 2);
const timeoutMs = arg('timeout-ms', 15000);
const heapMb = arg('heap-mb', 512);
const rssMb = arg('rss-mb', 1024);
const from = arg('from', 0);


const corpusFile = await bundleTs(root, 'tracelab-fuzz', 'tests/fuzz/corpus.ts');
const workerFile = await bundleTs(root, 'tracelab-fuzz', 'tests/fuzz/fuzz-worker.ts');
const { buildSeeds, makeCase, FORMATS, MUTATORS } = await import(pathToFileURL(corpusFile).href);
const seeds = await buildSeeds(join(root, 'tests/fixtures/decode'));

const foundDir = join(root, 'tests/fuzz/found');
const stats = {
  byFormat: Object.fromEntries(FORMATS.map((f) => [f, { n: 0, ok: 0, err: 0, fail: 0 }])),
  byMutator: Object.fromEntries(MUTATORS.map((m) => [m, { n: 0, ok: 0, err: 0, fail: 0 }])),
  ok: 0,
  codes: {},
  crash: 0,
  hang: 0,
  oom: 0,
  maxMs: 0,
  maxMsCase: '',
  maxHeapMb: 0,
  peakRssMb: 0,
  failures: [],
};

function record(c, kind, detail, ms) {
  const f = stats.byFormat[c.format];
  const m = stats.byMutator[c.mutator];
  f.n++;
  m.n++;
  const bucket = kind === 'ok' ? 'ok' : kind === 'error' ? 'err' : 'fail';
  f[bucket]++;
  m[bucket]++;
  if (ms > stats.maxMs) {
    stats.maxMs = ms;
    stats.maxMsCase = `#${c.index} ${c.format}/${c.variant}/${c.mutator}`;
  }
  if (kind === 'ok') stats.ok++;
  else if (kind === 'error') stats.codes[detail] = (stats.codes[detail] ?? 0) + 1;
  else {
    stats[kind]++;
    mkdirSync(foundDir, { recursive: true });
    const file = join(foundDir, `${kind}-seed${runSeed}-${c.index}-${c.format}-${c.mutator}.${c.format === 'jpeg' ? 'jpg' : c.format}`);
    writeFileSync(file, c.bytes);
    stats.failures.push(`${kind}: case #${c.index} (${c.format}/${c.variant}/${c.mutator}) → ${file.slice(root.length + 1)}\n      ${String(detail).split('\n').slice(0, 6).join('\n      ')}`);
  }
}

let next = from;
const end = from + count;
const started = Date.now();
let done = 0;

function spawn() {
  return fork(workerFile, [], { execArgv: [`--max-old-space-size=${heapMb}`], serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
}

/** Resident set of a pid in MB (Linux /proc; 0 elsewhere). */
function rssOf(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** One worker slot: runs cases until none are left, replacing its worker after a hang, OOM or crash. */
async function slot(slots, k) {
  let worker;
  let ready;
  let stderr = '';
  const restart = () => {
    worker = spawn();
    stderr = '';
    worker.stderr.on('data', (d) => { stderr = (stderr + d).slice(-4000); });
    ready = new Promise((res) => worker.once('message', res));
    slots[k] = { worker: () => worker, current: undefined, kill: undefined };
  };
  restart();
  while (next < end) {
    const c = makeCase(seeds, runSeed, next++);
    await ready;
    const t0 = performance.now();
    const result = await new Promise((resolve) => {
      const timer = setTimeout(() => resolve({ kind: 'hang', detail: `no result after ${timeoutMs} ms` }), timeoutMs);
      const done = (r) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        resolve(r);
      };
      const onMessage = (msg) => done({ kind: 'result', msg });
      const onError = (err) => done({ kind: 'crash', detail: err?.stack ?? String(err) });
      const onExit = (code, signal) =>
        done(/heap out of memory|Reached heap limit/i.test(stderr)
          ? { kind: 'oom', detail: `V8 heap over ${heapMb} MB: ${stderr.split('\n').find((l) => /FATAL|heap/.test(l)) ?? ''}` }
          : { kind: 'crash', detail: `worker exited (code ${code}, signal ${signal}): ${stderr}` });
      slots[k].current = c;
      slots[k].kill = (why) => done({ kind: 'oom', detail: why });
      worker.on('message', onMessage);
      worker.once('error', onError);
      worker.once('exit', onExit);
      worker.send({ id: c.index, bytes: c.bytes });
    });
    slots[k].current = undefined;
    const ms = performance.now() - t0;
    if (result.kind === 'result') {
      const { outcome, heapMb: h } = result.msg;
      stats.maxHeapMb = Math.max(stats.maxHeapMb, h);
      record(c, outcome.kind, outcome.kind === 'error' ? outcome.code : outcome.message, outcome.ms);
      if (outcome.kind === 'crash') {
        worker.kill('SIGKILL');
        restart();
      }
    } else {
      record(c, result.kind, result.detail, ms);
      worker.kill('SIGKILL');
      restart();
    }
    if (++done % 1000 === 0) process.stderr.write(`  ${done}/${count} inputs, ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  }
  worker.kill();
}

const slots = [];
const rssWatch = setInterval(() => {
  for (const s of slots) {
    if (!s?.current) continue;
    const rss = rssOf(s.worker().pid);
    stats.peakRssMb = Math.max(stats.peakRssMb, rss);
    if (rss > rssMb && s.kill) {
      s.kill(`worker RSS ${rss.toFixed(0)} MB over the ${rssMb} MB budget`);
      s.worker().kill('SIGKILL');
    }
  }
}, 25);
await Promise.all(Array.from({ length: workers }, (_, k) => slot(slots, k)));
clearInterval(rssWatch);

// ---- summary
const pad = (s, n) => String(s).padEnd(n);
const lines = [];
lines.push(`fuzz: ${count} inputs, seed ${runSeed}, cases ${from}..${end - 1}, ${workers} workers, ${seeds.length} seed images`);
lines.push(`bounds per input: ${timeoutMs} ms, worker V8 heap ${heapMb} MB (--max-old-space-size), worker RSS ${rssMb} MB`);
lines.push(`time: ${((Date.now() - started) / 1000).toFixed(1)} s`);
lines.push('');
lines.push(`${pad('format', 16)}${pad('inputs', 8)}${pad('ok', 8)}${pad('errors', 8)}failures`);
for (const [f, s] of Object.entries(stats.byFormat)) lines.push(`${pad(f, 16)}${pad(s.n, 8)}${pad(s.ok, 8)}${pad(s.err, 8)}${s.fail}`);
lines.push('');
lines.push(`${pad('mutator', 16)}${pad('inputs', 8)}${pad('ok', 8)}${pad('errors', 8)}failures`);
for (const [m, s] of Object.entries(stats.byMutator)) lines.push(`${pad(m, 16)}${pad(s.n, 8)}${pad(s.ok, 8)}${pad(s.err, 8)}${s.fail}`);
lines.push('');
lines.push(`ok: ${stats.ok}`);
for (const [code, n] of Object.entries(stats.codes).sort()) lines.push(`error ${code}: ${n}`);
lines.push(`crashes: ${stats.crash}   hangs: ${stats.hang}   OOMs: ${stats.oom}`);
lines.push(`max ms per input: ${stats.maxMs.toFixed(0)} (${stats.maxMsCase})`);
lines.push(`max worker V8 heap after an input: ${stats.maxHeapMb.toFixed(1)} MB; peak worker RSS (25 ms polls): ${stats.peakRssMb.toFixed(0)} MB`);
for (const f of stats.failures) lines.push(f);
console.log(lines.join('\n'));
process.exit(stats.crash + stats.hang + stats.oom > 0 ? 1 : 0);
