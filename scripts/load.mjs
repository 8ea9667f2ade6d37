#!/usr/bin/env node
/**
 * Load test of `tracelab serve`: starts the built CLI (node bin/tracelab.js serve) as a child process
 * with a temporary TRACELAB_DATA_DIR and a bounded queue (TRACELAB_MAX_QUEUE), then runs N
 * concurrent clients (src/api/client.ts createClient, with its 429/503 back-off) for a fixed time,
 * posting generated ~1-megapixel PNGs (flat shapes, a few variants) with mixed modes (test,
 * test_preview, preview with retention + /download + /delete, production) and formats
 * (svg/pdf/eps/dxf/png). The server's RSS is sampled from /proc/<pid>/status (VmRSS) every 250 ms.
 *
 * Prints requests ok, errors by status/code, 429s seen and absorbed by the back-off, p50/p95
 * latency (per call, back-off waits included; and per successful HTTP attempt), throughput and the
 * peak server RSS. Exits 1 on any error the back-off did not absorb.
 *
 *   node scripts/load.mjs [--seconds 60] [--clients 20] [--max-queue 8] [--size 1000] [--no-build]
 *
 * Without --no-build the CLI is rebuilt first (node scripts/build-cli.mjs), so dist-cli/ matches src/.
 */

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encode as encodePng } from 'fast-png';

import { loadTs } from './ts-module.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const SECONDS = option('--seconds', 60);
const CLIENTS = option('--clients', 20);
const MAX_QUEUE = option('--max-queue', 8);
const SIZE = option('--size', 1000);
const CREDENTIALS = { apiId: 'load-id', apiSecret: 'load-secret' };


function freePort() {
  return new Promise((resolvePort, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolvePort(port));
    });
  });
}

// ---- images: SIZE×SIZE flat shapes ---------------------------------------------------------

function makeImage(variant, size) {
  const data = new Uint8Array(size * size * 4);
  const palette = [
    [255, 255, 255],
    [20, 20, 200],
    [220, 30, 30],
    [30, 180, 60],
    [250, 200, 20],
    [40, 40, 40],
  ];
  const c = size / 2;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let k = 0;
      switch (variant) {
        case 0: // concentric discs
          k = Math.min(5, Math.floor(Math.hypot(x - c, y - c) / (size / 10)) % 4);
          break;
        case 1: // rectangles on a grid
          k = (Math.floor(x / (size / 5)) + 2 * Math.floor(y / (size / 4))) % 5;
          break;
        case 2: // diagonal bands and a disc
          k = Math.hypot(x - c * 0.6, y - c * 1.2) < size / 5 ? 4 : Math.floor((x + y) / (size / 4)) % 3;
          break;
        default: {
          // a star-ish polygon on white
          const a = Math.atan2(y - c, x - c);
          const r = Math.hypot(x - c, y - c);
          k = r < (size / 3) * (0.6 + 0.4 * Math.cos(5 * a)) ? 2 : r < size / 2.2 ? 1 : 0;
        }
      }
      const [r, g, b] = palette[k];
      data.set([r, g, b, 255], (y * size + x) * 4);
    }
  }
  return encodePng({ width: size, height: size, data, channels: 4, depth: 8 });
}

// ---- the server ----------------------------------------------------------------------------

function vmRssKb(pid) {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

async function startServe(port, dataDir) {
  const child = spawn(process.execPath, [join(root, 'bin', 'tracelab.js'), 'serve', '--port', String(port)], {
    cwd: root,
    env: {
      ...process.env,
      TRACELAB_DATA_DIR: dataDir,
      TRACELAB_MAX_QUEUE: String(MAX_QUEUE),
      TRACELAB_API_ID: CREDENTIALS.apiId,
      TRACELAB_API_SECRET: CREDENTIALS.apiSecret,
      TRACELAB_CREDITS: '1000000',
      TRACELAB_ACCOUNT: '',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  await new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => reject(new Error(`tracelab serve did not start in 15 s:\n${stderr}`)), 15_000);
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      if (stderr.includes('serving http://')) {
        clearTimeout(timer);
        resolveStart();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`tracelab serve exited with ${code}:\n${stderr}`));
    });
  });
  return { child, stderr: () => stderr };
}

// ---- main ----------------------------------------------------------------------------------

if (!argv.includes('--no-build')) {
  const built = spawnSync(process.execPath, [join(root, 'scripts', 'build-cli.mjs')], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(1);
}
const { createClient, ApiClientError } = await loadTs(root, 'tracelab-load', 'src/api/client.ts');

process.stdout.write(`load: ${CLIENTS} clients × ${SECONDS} s, ${SIZE}×${SIZE} PNGs, TRACELAB_MAX_QUEUE=${MAX_QUEUE}\n`);
const images = [0, 1, 2, 3].map((v) => makeImage(v, SIZE));
process.stdout.write(`images: ${images.map((b) => `${(b.length / 1024).toFixed(0)} kB`).join(', ')}\n`);

const dataDir = mkdtempSync(join(tmpdir(), 'tracelab-load-'));
const port = await freePort();
const server = await startServe(port, dataDir);
const pid = server.child.pid;
const baseUrl = `http://127.0.0.1:${port}/api/v1`;

let peakRssKb = vmRssKb(pid) ?? 0;
const startRssKb = peakRssKb;
const sampler = setInterval(() => {
  const kb = vmRssKb(pid);
  if (kb !== undefined && kb > peakRssKb) peakRssKb = kb;
}, 250);

const stats = {
  ok: 0,
  /** HTTP answers 429 seen by the clients (each absorbed unless it ends up in errors). */
  seen429: 0,
  errors: new Map(),
  callMs: [],
  attemptMs: [],
  byKind: new Map(),
};
const FORMATS = ['svg', 'pdf', 'eps', 'dxf', 'png'];
const MODES = ['test', 'test_preview', 'preview', 'production', 'test', 'production'];

function recordError(e, kind, ms) {
  const cause = e instanceof Error && e.cause instanceof Error ? ` (${e.cause.code ?? ''} ${e.cause.message})` : '';
  const key = e instanceof ApiClientError ? `${e.status}/${e.code}` : `exception: ${e instanceof Error ? e.message : String(e)}${cause}`;
  stats.errors.set(key, (stats.errors.get(key) ?? 0) + 1);
  if ((stats.errors.get(key) ?? 0) <= 3) process.stderr.write(`error in ${kind} after ${(ms / 1000).toFixed(1)} s at t=${((performance.now() - t0) / 1000).toFixed(1)} s: ${key}: ${e instanceof Error ? e.message : String(e)}\n`);
}

async function timed(kind, fn) {
  const t0 = performance.now();
  try {
    const r = await fn();
    stats.ok++;
    stats.callMs.push(performance.now() - t0);
    stats.byKind.set(kind, (stats.byKind.get(kind) ?? 0) + 1);
    return r;
  } catch (e) {
    recordError(e, kind, performance.now() - t0);
    return undefined;
  }
}

const deadline = performance.now() + SECONDS * 1000;
const t0 = performance.now();

async function runClient(index) {
  const fetch = async (input, init) => {
    const start = performance.now();
    const res = await globalThis.fetch(input, init);
    if (res.status === 429) stats.seen429++;
    else if (res.ok) stats.attemptMs.push(performance.now() - start);
    return res;
  };
  // 20 clients against one trace thread keep the queue full for the whole run: a client waits its
  // turn through more back-off rounds than the default 6 (5 s, 10 s, … 45 s).
  const client = createClient({ baseUrl, ...CREDENTIALS, fetch, maxAttempts: 10 });
  for (let n = 0; performance.now() < deadline; n++) {
    const image = images[(index + n) % images.length];
    const mode = MODES[(index * 7 + n) % MODES.length];
    const format = FORMATS[(index * 3 + n) % FORMATS.length];
    const fields = { mode, 'output.file_format': format };
    if (mode === 'preview') {
      const v = await timed('preview', () => client.vectorize({ image }, { mode, 'policy.retention_days': 1 }));
      if (v?.imageToken === undefined) continue;
      await timed('download', () => client.download(v.imageToken, { 'output.file_format': FORMATS[(index + n + 1) % FORMATS.length] }));
      await timed('delete', () => client.delete(v.imageToken));
    } else {
      await timed(`${mode}`, () => client.vectorize({ image }, fields));
    }
  }
}

await Promise.all(Array.from({ length: CLIENTS }, (_, i) => runClient(i)));
const elapsed = (performance.now() - t0) / 1000;
clearInterval(sampler);
const endRssKb = vmRssKb(pid);

server.child.kill('SIGTERM');
await new Promise((r) => (server.child.exitCode !== null ? r() : server.child.once('exit', r)));
rmSync(dataDir, { recursive: true, force: true });

const pct = (xs, p) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const errorCount = [...stats.errors.values()].reduce((a, b) => a + b, 0);
const out = [
  `duration            ${elapsed.toFixed(1)} s`,
  `requests ok         ${stats.ok} (${[...stats.byKind].map(([k, v]) => `${k} ${v}`).join(', ')})`,
  `errors              ${errorCount}${errorCount ? ` (${[...stats.errors].map(([k, v]) => `${k} × ${v}`).join(', ')})` : ''}`,
  `429s absorbed       ${stats.seen429 - (stats.errors.get('429/1015') ?? 0)} of ${stats.seen429} seen`,
  `latency per call    p50 ${pct(stats.callMs, 50).toFixed(0)} ms, p95 ${pct(stats.callMs, 95).toFixed(0)} ms (back-off waits included)`,
  `latency per 200     p50 ${pct(stats.attemptMs, 50).toFixed(0)} ms, p95 ${pct(stats.attemptMs, 95).toFixed(0)} ms (one HTTP attempt)`,
  `throughput          ${(stats.ok / elapsed).toFixed(2)} ok requests/s`,
  `server RSS          start ${(startRssKb / 1024).toFixed(0)} MB, peak ${(peakRssKb / 1024).toFixed(0)} MB, end ${((endRssKb ?? 0) / 1024).toFixed(0)} MB`,
];
process.stdout.write(out.join('\n') + '\n');
if (/server error/.test(server.stderr())) process.stdout.write(`server stderr:\n${server.stderr()}\n`);
process.exitCode = errorCount > 0 ? 1 : 0;
