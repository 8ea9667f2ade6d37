/**
 * `tracelab serve` traces in worker threads (src/cli/serve.ts + trace-pool.ts + trace-thread.ts):
 * the service wiring runs from source, the worker threads run the bundled entry of a private build
 * (as the installed CLI does). Faults come from a fixture worker (fixtures/faulty-trace-thread.mjs,
 * the real worker behind a listener that throws, exits or hangs on purpose) or, for memory, from a
 * real trace under a small heap budget.
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { LocalAccount } from '../../src/api/account.js';
import { createService } from '../../src/api/service.js';
import { createMemoryStore, type RandomSource } from '../../src/api/storage/index.js';
import { readConfig, type Env } from '../../src/cli/config.js';
import { startService } from '../../src/cli/serve.js';
import { planVectorize, runVectorize } from '../../src/api/pipeline.js';
import { encodePng } from '../helpers/encode.js';
import { buildPrivateCli, root, type PrivateBuild } from './private-build.js';
import { redSquarePng } from './png.js';

const AUTH = `Basic ${Buffer.from('tracelab:tracelab').toString('base64')}`;
const SHAPES = new Uint8Array(readFileSync(join(root, 'public', 'samples', 'shapes.png')));
const PHOTO = new Uint8Array(readFileSync(join(root, 'public', 'samples', 'photo.png')));

let build: PrivateBuild;
let faultyThread: URL;
let work: string;

beforeAll(() => {
  build = buildPrivateCli('tracelab-threads');
  const faulty = join(build.distDir, 'faulty-trace-thread.mjs');
  copyFileSync(join(root, 'tests', 'cli', 'fixtures', 'faulty-trace-thread.mjs'), faulty);
  faultyThread = pathToFileURL(faulty);
  work = mkdtempSync(join(tmpdir(), 'tracelab-threads-'));
}, 120_000);

afterAll(() => {
  build?.remove();
  if (work) rmSync(work, { recursive: true, force: true });
});

type Running = Awaited<ReturnType<typeof startService>>;
const running: Running[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.finish()));
});

let serverCount = 0;
async function serve(env: Env, traceThread: URL, log: string[] = []): Promise<{ url: string; running: Running; log: string[] }> {
  const config = readConfig({ TRACELAB_DATA_DIR: join(work, `data-${++serverCount}`), ...env });
  const r = await startService({ host: '127.0.0.1', port: 0, config, writeStderr: (t) => log.push(t), traceThread });
  running.push(r);
  return { url: `${r.server.url}/api/v1`, running: r, log };
}

function form(image: Uint8Array | undefined, fields: Record<string, string> = {}): FormData {
  const f = new FormData();
  if (image) f.append('image', new Blob([image as Uint8Array<ArrayBuffer>], { type: 'image/png' }), 'x.png');
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
}

async function post(url: string, path: 'vectorize' | 'download', body: FormData): Promise<{ status: number; headers: Headers; bytes: Uint8Array }> {
  const res = await fetch(`${url}/${path}`, { method: 'POST', headers: { Authorization: AUTH }, body });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

function errorOf(r: { headers: Headers; bytes: Uint8Array }): { status: number; code: number; message: string } {
  expect(r.headers.get('content-type')).toBe('application/json');
  return (JSON.parse(new TextDecoder().decode(r.bytes)) as { error: { status: number; code: number; message: string } }).error;
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2000 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!condition()) throw new Error(`timed out waiting for ${what}`);
}

function fault(kind: 'throw' | 'exit' | 'hang'): Uint8Array {
  return new TextEncoder().encode(`FAULT:${kind}`);
}

/** A PNG of random 64-colour noise: tracing it needs far more heap than 64 MB. */
function noisePng(size: number): Uint8Array {
  let s = 1;
  const level = () => (((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) >>> 30) * 85) & 255;
  const data = new Uint8Array(size * size * 4);
  for (let i = 0; i < data.length; i += 4) {
    data[i] = level();
    data[i + 1] = level();
    data[i + 2] = level();
    data[i + 3] = 255;
  }
  return encodePng({ width: size, height: size, data });
}

/** xorshift32 bytes, for the in-process twin service. */
function seededRandom(): RandomSource {
  let s = 0x2545f491;
  return (bytes) => {
    for (let i = 0; i < bytes.length; i++) {
      s ^= s << 13;
      s >>>= 0;
      s ^= s >>> 17;
      s ^= s << 5;
      s >>>= 0;
      bytes[i] = s & 0xff;
    }
    return bytes;
  };
}

describe('tracelab serve traces in worker threads', () => {
  it('answers byte-identical files to the in-process pipeline and service (every format, watermarks, /download re-trace)', async () => {
    const { url, running: r, log } = await serve({ TRACELAB_THREADS: '2' }, build.traceThread);
    expect(r.pool?.size).toBe(2);
    expect(log.join('')).toContain('tracing in 2 worker thread(s), heap budget 1024 MB each');

    // Production files against the plain pipeline (src/api/pipeline.ts) in this thread.
    const cases: Array<[Uint8Array, Record<string, string>]> = [
      [SHAPES, {}],
      [SHAPES, { 'output.file_format': 'pdf' }],
      [SHAPES, { 'output.file_format': 'eps', 'processing.max_colors': '3' }],
      [SHAPES, { 'output.file_format': 'dxf', 'output.dxf.compatibility_level': 'lines_arcs_and_splines' }],
      [PHOTO, { 'output.file_format': 'png', 'output.size.scale': '2' }],
      [PHOTO, { 'output.shape_stacking': 'stacked', 'output.group_by': 'color', 'processing.max_colors': '6' }],
    ];
    for (const [image, fields] of cases) {
      const threaded = await post(url, 'vectorize', form(image, fields));
      expect(threaded.status, JSON.stringify(fields)).toBe(200);
      const here = await runVectorize(planVectorize(Object.entries(fields)), image);
      expect(Buffer.from(threaded.bytes).equals(Buffer.from(here.body)), JSON.stringify(fields)).toBe(true);
    }

    // Watermarked modes, retained tokens and /download against the in-process service.
    const twin = createService({
      store: createMemoryStore(),
      account: new LocalAccount({ subscriptionPlan: 'tracelab_local', subscriptionState: 'active', credits: 100 }),
      credentials: { apiId: 'tracelab', apiSecret: 'tracelab' },
      random: seededRandom(),
    });
    const twinPost = async (path: 'vectorize' | 'download', body: FormData) => {
      const res = await twin(new Request(`http://twin.invalid/api/v1/${path}`, { method: 'POST', headers: { Authorization: AUTH }, body }));
      return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
    };
    for (const [mode, image] of [['test', SHAPES], ['preview', PHOTO], ['test_preview', SHAPES]] as const) {
      const fields = { mode, 'policy.retention_days': '1' };
      const a = await post(url, 'vectorize', form(image, fields));
      const b = await twinPost('vectorize', form(image, fields));
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(a.headers.get('content-type')).toBe(b.headers.get('content-type'));
      expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes)), mode).toBe(true);
      // The retained trace went through the worker too: download it, with the other stacking (a re-trace).
      const extras: Array<Record<string, string>> = [{ 'output.svg.fixed_size': 'true' }, { 'output.shape_stacking': 'stacked' }];
      for (const extra of extras) {
        const da = await post(url, 'download', form(undefined, { 'image.token': a.headers.get('x-image-token')!, ...extra }));
        const db = await twinPost('download', form(undefined, { 'image.token': b.headers.get('x-image-token')!, ...extra }));
        expect([da.status, db.status]).toEqual([200, 200]);
        expect(Buffer.from(da.bytes).equals(Buffer.from(db.bytes)), `${mode} ${JSON.stringify(extra)}`).toBe(true);
      }
    }
    expect(r.pool!.stats()).toMatchObject({ died: 0, started: 2 });
  });

  it('keeps answering while the worker is busy; the queue limit still answers 429; a hung trace is stopped with 503 / −10 and its worker replaced', async () => {
    const env = { TRACELAB_THREADS: '1', TRACELAB_MAX_QUEUE: '3', TRACELAB_TRACE_TIMEOUT_S: '3' };
    const { url, running: r, log } = await serve(env, faultyThread);
    const pool = r.pool!;
    const hung = post(url, 'vectorize', form(fault('hang'), { mode: 'test' }));
    await until(() => pool.stats().busy === 1, 'the hung job to start');

    // The server thread is free: /account answers while the only worker spins.
    const account = await fetch(`${url}/account`, { headers: { Authorization: AUTH } });
    expect(account.status).toBe(200);
    expect(await account.json()).toMatchObject({ subscriptionState: 'active' });

    // Two more traces wait for the worker; a fourth request is over TRACELAB_MAX_QUEUE=3.
    const waiting = post(url, 'vectorize', form(redSquarePng(), { mode: 'test' }));
    await until(() => pool.stats().queued === 1, 'the second job to queue');
    const leaving = new AbortController();
    const left = fetch(`${url}/vectorize`, { method: 'POST', headers: { Authorization: AUTH }, body: form(redSquarePng(), { mode: 'test' }), signal: leaving.signal });
    await until(() => pool.stats().queued === 2, 'the third job to queue');
    const refused = await post(url, 'vectorize', form(redSquarePng(), { mode: 'test' }));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(errorOf(refused)).toMatchObject({ status: 429, code: 1015 });
    // A waiting client that disconnects leaves the queue (its job is never traced).
    leaving.abort();
    await expect(left).rejects.toThrow();
    await until(() => pool.stats().queued === 1, 'the abandoned job to leave the queue');

    const timedOut = await hung;
    expect(timedOut.status).toBe(503);
    expect(timedOut.headers.get('retry-after')).toBe('5');
    expect(errorOf(timedOut)).toMatchObject({ status: 503, code: -10 });
    expect(errorOf(timedOut).message).toContain('took longer than 3 s');

    const next = await waiting;
    expect(next.status).toBe(200);
    expect(new TextDecoder().decode(next.bytes)).toContain('<svg');
    expect(pool.stats()).toMatchObject({ died: 1, started: 2, workers: 1 });
    expect(log.join('')).toMatch(/trace worker 1 stopped during a job: over the 3000 ms time limit, terminated; starting a replacement/);
  });

  it('a client that disconnects while its trace runs stops that trace: the worker is replaced at once and the next request is traced', async () => {
    // No time limit would stop this trace for 300 s: only the client leaving can.
    const { url, running: r, log } = await serve({ TRACELAB_THREADS: '1', TRACELAB_TRACE_TIMEOUT_S: '300' }, faultyThread);
    const pool = r.pool!;
    const leaving = new AbortController();
    const left = fetch(`${url}/vectorize`, { method: 'POST', headers: { Authorization: AUTH }, body: form(fault('hang'), { mode: 'test' }), signal: leaving.signal });
    await until(() => pool.stats().busy === 1, 'the endless trace to start');
    leaving.abort();
    await expect(left).rejects.toThrow();
    await until(() => pool.stats().cancelled === 1, 'the running trace to be stopped');
    const next = await post(url, 'vectorize', form(redSquarePng(), { mode: 'test' }));
    expect(next.status).toBe(200);
    expect(new TextDecoder().decode(next.bytes)).toContain('<svg');
    expect(pool.stats()).toMatchObject({ cancelled: 1, died: 0, started: 2, workers: 1 });
    expect(log.join('')).toMatch(/trace worker 1 stopped: its client disconnected during the trace; starting a replacement/);
  });

  for (const kind of ['throw', 'exit'] as const) {
    it(`a worker that ${kind === 'throw' ? 'throws an uncaught exception' : 'exits'} mid-trace → that request gets 500 / −1 JSON, the worker is replaced, the next request succeeds`, async () => {
      const { url, running: r, log } = await serve({ TRACELAB_THREADS: '1' }, faultyThread);
      const failed = await post(url, 'vectorize', form(fault(kind), { mode: 'test' }));
      expect(failed.status).toBe(500);
      const error = errorOf(failed);
      expect(error).toMatchObject({ status: 500, code: -1 });
      expect(error.message).toContain(kind === 'throw' ? 'uncaught error' : 'exit code 3');
      expect(error.message).toContain('a new worker was started');
      // The same server, a normal image: traced by the replacement worker.
      const next = await post(url, 'vectorize', form(SHAPES, { mode: 'test' }));
      expect(next.status).toBe(200);
      expect(new TextDecoder().decode(next.bytes)).toContain('<svg');
      await r.pool!.ready();
      const stats = r.pool!.stats();
      expect(stats).toMatchObject({ died: 1, started: 2, workers: 1, completed: 1 });
      console.log(`worker ${kind}: replacement loaded ${stats.lastRecoveryMs!.toFixed(0)} ms after the death`);
      expect(log.join('')).toContain(kind === 'throw' ? 'injected fault: uncaught exception in the trace thread' : 'exited with code 3');
    });
  }

  it('a real trace over the worker heap budget (TRACELAB_THREAD_MEMORY_MB=64) → 500 / −1 naming the budget; the next request succeeds', async () => {
    const { url, running: r } = await serve({ TRACELAB_THREADS: '1', TRACELAB_THREAD_MEMORY_MB: '64' }, build.traceThread);
    // 340 × 340 of 64-colour noise: ~110,000 regions (just under the engine's cap, above which
    // noise is traced as photo texture), every one its own shape and chains: far over 64 MB.
    const failed = await post(url, 'vectorize', form(noisePng(340), { mode: 'test' }));
    expect(failed.status).toBe(500);
    const error = errorOf(failed);
    expect(error).toMatchObject({ status: 500, code: -1 });
    expect(error.message).toContain('memory budget (64 MB, TRACELAB_THREAD_MEMORY_MB)');
    const next = await post(url, 'vectorize', form(SHAPES, { mode: 'test' }));
    expect(next.status).toBe(200);
    expect(r.pool!.stats()).toMatchObject({ died: 1, started: 2 });
  });

  it('a missing or broken worker bundle stops serve at start-up, without a restart loop', async () => {
    const missing = pathToFileURL(join(build.distDir, 'no-such-thread.mjs'));
    await expect(serve({ TRACELAB_THREADS: '1' }, missing)).rejects.toThrow(/no-such-thread\.mjs is missing; run `npm run build:cli`/);
    const broken = join(build.distDir, 'broken-thread.mjs');
    writeFileSync(broken, "throw new Error('this bundle is broken');\n");
    await expect(serve({ TRACELAB_THREADS: '2' }, pathToFileURL(broken))).rejects.toThrow(/failed to start: uncaught error: this bundle is broken/);
  });

  it('reads TRACELAB_THREADS / TRACELAB_THREAD_MEMORY_MB / TRACELAB_TRACE_TIMEOUT_S', () => {
    const defaults = readConfig({ TRACELAB_DATA_DIR: work }).threads!;
    expect(defaults.count).toBeGreaterThanOrEqual(1);
    expect(defaults.count).toBeLessThanOrEqual(4);
    expect(defaults).toMatchObject({ heapMb: 1024, jobTimeoutMs: 300_000 });
    expect(readConfig({ TRACELAB_DATA_DIR: work, TRACELAB_THREADS: '0', TRACELAB_THREAD_MEMORY_MB: '256', TRACELAB_TRACE_TIMEOUT_S: '30' }).threads).toEqual({
      count: 0,
      heapMb: 256,
      jobTimeoutMs: 30_000,
    });
    expect(() => readConfig({ TRACELAB_THREADS: '-1' })).toThrow('TRACELAB_THREADS must be an integer of at least 0; received "-1"');
    expect(() => readConfig({ TRACELAB_THREAD_MEMORY_MB: '8' })).toThrow('TRACELAB_THREAD_MEMORY_MB must be an integer of at least 64');
    expect(() => readConfig({ TRACELAB_TRACE_TIMEOUT_S: '0' })).toThrow('TRACELAB_TRACE_TIMEOUT_S must be an integer of at least 1');
  });

  it('TRACELAB_THREADS=0 traces on the server thread', async () => {
    const { url, running: r, log } = await serve({ TRACELAB_THREADS: '0' }, build.traceThread);
    expect(r.pool).toBeUndefined();
    expect(log.join('')).toContain('tracing on the server thread');
    expect((await post(url, 'vectorize', form(SHAPES, { mode: 'test' }))).status).toBe(200);
  });
});

describe('trace pool for the library (holdProcess busy, progress, stats, pixels)', () => {
  it('reports each stage, returns the stats, traces pixels like the file, and aborts a running job', async () => {
    const { createTracePool } = await import('../../src/cli/trace-pool.js');
    const pool = createTracePool({ entry: pathToFileURL(join(build.distDir, 'trace-thread.mjs')), size: 1, heapMb: 256, jobTimeoutMs: 0, holdProcess: 'busy' });
    try {
      const fields = [['output.file_format', 'svg']] as const;
      const stages: string[] = [];
      const job = { source: { kind: 'image', bytes: SHAPES, fields }, outputFields: fields, preview: false, watermark: 'none', keepTrace: false, summary: true } as const;
      const fromFile = await pool.run(job, undefined, (p) => stages.push(p.stage));
      expect(stages).toEqual(['decode', 'resize', 'profile', 'palette', 'label', 'regions', 'shading', 'boundary', 'fit', 'shapes', 'write']);
      const cli = await runVectorize(planVectorize(fields), SHAPES);
      expect(Buffer.from(fromFile.body).equals(Buffer.from(cli.body))).toBe(true);
      expect(fromFile.summary).toMatchObject({ profile: cli.result.stats.profile, colors: cli.result.stats.colors, width: 128, height: 128 });
      const { decodeImage } = await import('../../src/decode/index.js');
      const decoded = await decodeImage(SHAPES);
      const pixels = { width: decoded.width, height: decoded.height, data: decoded.data, ...(decoded.dpi ? { dpi: decoded.dpi.x } : {}) };
      const fromPixels = await pool.run({ ...job, source: { kind: 'pixels', pixels, fields } });
      expect(Buffer.from(fromPixels.body).equals(Buffer.from(cli.body))).toBe(true);
      const controller = new AbortController();
      const aborted = pool.run({ ...job, source: { kind: 'image', bytes: PHOTO, fields } }, controller.signal);
      controller.abort(new Error('stop'));
      await expect(aborted).rejects.toThrow('stop');
      expect(Buffer.from((await pool.run(job)).body).equals(Buffer.from(cli.body))).toBe(true);
    } finally {
      await pool.close();
    }
  }, 60_000);
});
