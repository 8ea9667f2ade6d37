/**
 * Fleet throughput: the same load against 1 replica and against 3 replicas of
 * `tracelab serve --store redis://…` sharing one redis-server, behind haproxy (deploy/haproxy.cfg),
 * all on this machine. The figure docs/fleet.md "Throughput" quotes; a timing, so it lives here, not in vitest.
 *
 *   node bench/fleet.mjs [--seconds 20] [--clients 12] [--image public/samples/photo.png] [--no-build]
 *
 * Set-ups: 1 replica direct, and 1, 2 and 3 replicas behind haproxy, all started at once and
 * taking turns for --rounds rounds (default 3; median reported), so load from other work on the
 * machine falls on every set-up alike.
 *
 * Each replica traces on BENCH_THREADS worker threads (default 1, so one replica is one trace at a
 * time and N replicas can use N cores). Clients post `mode=test` vectorize calls of one image in a
 * loop (429/503 answers are waited out with their Retry-After and counted). Needs redis-server and
 * haproxy (scripts/test-all.sh installs both). Prints a Markdown table; writes
 * bench/results/fleet.md.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './median.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
};
const SECONDS = Number(arg('seconds', '20'));
const CLIENTS = Number(arg('clients', '12'));
const IMAGE = resolve(ROOT, arg('image', 'public/samples/photo.png'));
const THREADS = process.env.BENCH_THREADS ?? '1';
const WARM_UP_SECONDS = 3;
const ROUNDS = Number(arg('rounds', '3'));
const loadAverage = () => loadavg().map((l) => l.toFixed(1)).join(' ');
const loadBefore = loadAverage();
const AUTH = `Basic ${Buffer.from('tracelab:tracelab').toString('base64')}`;

if (!process.argv.includes('--no-build')) execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-cli.mjs')], { stdio: 'inherit' });

const children = new Set();
function run(cmd, args, env) {
  const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  child.output = () => out;
  return child;
}
async function stopAll() {
  const all = [...children];
  for (const c of all) if (c.exitCode === null) c.kill('SIGTERM');
  await Promise.all(all.map((c) => (c.exitCode !== null ? null : new Promise((r) => c.once('exit', r)))));
  children.clear();
}
process.on('SIGINT', async () => {
  await stopAll();
  process.exit(130);
});

const freePort = () =>
  new Promise((res) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });

async function waitOk(url, ms = 30_000) {
  const end = Date.now() + ms;
  for (;;) {
    try {
      const r = await fetch(url);
      await r.arrayBuffer();
      if (r.ok) return;
    } catch {}
    if (Date.now() > end) throw new Error(`${url} not ready`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** CPU seconds used so far by every process this bench started (from /proc) and by itself. */
function cpuSeconds() {
  let fleet = 0;
  for (const c of children) {
    try {
      const fields = readFileSync(`/proc/${c.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      fleet += (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, clock ticks
    } catch {}
  }
  const self = process.cpuUsage();
  return { fleet, self: (self.user + self.system) / 1e6 };
}

async function startFleet(dir, replicas, withHaproxy) {
  const redisPort = await freePort();
  run('redis-server', ['--bind', '127.0.0.1', '--port', String(redisPort), '--dir', dir, '--appendonly', 'yes', '--save', '']);
  await new Promise((r) => setTimeout(r, 300));
  const ports = [];
  for (let i = 0; i < replicas; i++) {
    const port = await freePort();
    ports.push(port);
    run(process.execPath, [join(ROOT, 'bin', 'tracelab.js'), 'serve', '--port', String(port), '--store', `redis://127.0.0.1:${redisPort}/0`], {
      TRACELAB_THREADS: THREADS,
      TRACELAB_MAX_QUEUE: '64',
      TRACELAB_FLEET_MAX_INFLIGHT: '256',
    });
  }
  for (const p of ports) await waitOk(`http://127.0.0.1:${p}/readyz`);
  if (!withHaproxy) return `http://127.0.0.1:${ports[0]}/api/v1`;
  const port = await freePort();
  const cfg = join(dir, 'haproxy.cfg');
  const template = readFileSync(join(ROOT, 'deploy', 'haproxy.cfg'), 'utf8').replace(/^ {4}server r\d.*$\n?/gm, '');
  writeFileSync(cfg, template + ports.map((p, i) => `    server r${i + 1} 127.0.0.1:${p}\n`).join(''));
  run('haproxy', ['-db', '-f', cfg], { TRACELAB_FLEET_BIND: `127.0.0.1:${port}`, TRACELAB_DEPLOY_DIR: join(ROOT, 'deploy') });
  await waitOk(`http://127.0.0.1:${port}/healthz`);
  await new Promise((r) => setTimeout(r, 2500)); // haproxy's first health checks (rise 2 × 1 s)
  return `http://127.0.0.1:${port}/api/v1`;
}

async function load(url, image, seconds = SECONDS) {
  let ok = 0;
  let throttled = 0;
  const latencies = [];
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (Date.now() < end) {
        const form = new FormData();
        form.append('image', new Blob([image], { type: 'image/png' }), 'x.png');
        form.append('mode', 'test');
        const t0 = performance.now();
        const res = await fetch(`${url}/vectorize`, { method: 'POST', headers: { Authorization: AUTH }, body: form });
        await res.arrayBuffer();
        if (res.ok) {
          ok++;
          latencies.push(performance.now() - t0);
        } else if (res.status === 429 || res.status === 503) {
          throttled++;
          await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? 1) * 1000));
        } else throw new Error(`unexpected ${res.status}: ${await res.text()}`);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { perSecond: ok / seconds, ok, throttled, p50: latencies[latencies.length >> 1] ?? NaN };
}

const image = new Uint8Array(readFileSync(IMAGE));
// All set-ups run side by side (an idle one costs only haproxy's health checks) and take turns,
// ROUNDS times, so load from elsewhere on the machine hits every set-up alike; the median counts.
const setups = [
  ['1 replica, direct', 1, false],
  ['1 replica behind haproxy', 1, true],
  ['2 replicas behind haproxy', 2, true],
  ['3 replicas behind haproxy', 3, true],
];
const dirs = [];
const urls = [];
const runs = setups.map(() => []);
try {
  for (const [, replicas, proxy] of setups) {
    const dir = mkdtempSync(join(tmpdir(), 'tracelab-bench-fleet-'));
    dirs.push(dir);
    urls.push(await startFleet(dir, replicas, proxy));
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < setups.length; i++) {
      await load(urls[i], image, WARM_UP_SECONDS); // JIT, worker start, the other set-up's load fading
      const before = cpuSeconds();
      const r = await load(urls[i], image);
      const after = cpuSeconds();
      // CPU per answered call, split into the fleet's processes and this load generator.
      r.fleetCpuMs = ((after.fleet - before.fleet) / r.ok) * 1000;
      r.clientCpuMs = ((after.self - before.self) / r.ok) * 1000;
      runs[i].push(r);
      console.error(`round ${round + 1}: ${setups[i][0]}: ${r.perSecond.toFixed(2)} calls/s (p50 ${Math.round(r.p50)} ms, ${r.throttled} throttled)`);
    }
  }
} finally {
  await stopAll();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
const rows = setups.map(([name, replicas], i) => ({
  name,
  replicas,
  perSecond: median(runs[i].map((r) => r.perSecond)),
  p50: median(runs[i].map((r) => r.p50)),
  throttled: runs[i].reduce((a, r) => a + r.throttled, 0),
  all: runs[i].map((r) => r.perSecond.toFixed(2)).join(', '),
  fleetCpuMs: median(runs[i].map((r) => r.fleetCpuMs)),
  clientCpuMs: median(runs[i].map((r) => r.clientCpuMs)),
}));
const base = rows[0].perSecond;
const three = rows[3].perSecond;
const lines = [
  `Fleet throughput (bench/fleet.mjs): ${CLIENTS} clients, ${ROUNDS} rounds of ${SECONDS} s per set-up (each after a ${WARM_UP_SECONDS}-s warm-up), set-ups taking turns, \`mode=test\` vectorize of ${IMAGE.slice(ROOT.length + 1)}, ${THREADS} trace thread(s) per replica, one redis-server; ${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.version}.`,
  '',
  `Load average (1/5/15 min) before: ${loadBefore}; after: ${loadAverage()}.`,
  '',
  '| set-up | calls/s (median) | × 1 replica | p50 latency | rounds | CPU per call: fleet + load generator | 429/503 waited out |',
  '| --- | ---: | ---: | ---: | --- | ---: | ---: |',
  ...rows.map(
    (r) =>
      `| ${r.name} | ${r.perSecond.toFixed(2)} | ${(r.perSecond / base).toFixed(2)} | ${Math.round(r.p50)} ms | ${r.all} | ${Math.round(r.fleetCpuMs)} + ${Math.round(r.clientCpuMs)} ms | ${r.throttled} |`,
  ),
  '',
  `Each added replica: +${(((three - base) / 2 / base) * 100).toFixed(0)} % of one replica's throughput (3 replicas = ${(three / base).toFixed(2)}×).`,
];
console.log(lines.join('\n'));
writeFileSync(join(ROOT, 'bench', 'results', 'fleet.md'), lines.join('\n') + '\n');
