/**
 * The engine job pool: on real Node worker threads (the bundled thread entry) a trace split over
 * 1–3 threads gives the same bytes as the in-line trace; a thread that dies or a job that fails
 * rejects the run (never hangs) and the pool serves the next run with a fresh thread.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_PARAMS, runJob, traceImage, traceImageWith, type EngineJob } from '../../src/engine/index.js';
import type { RgbaImage } from '../../src/engine/types.js';
import { writeSvg } from '../../src/formats/svg.js';
import { DEFAULT_OUTPUT_OPTIONS } from '../../src/formats/types.js';
import { createJobPool, type JobPort, type PoolAnswer, type PoolRequest } from '../../src/pool/job-pool.js';
import { serveJobs } from '../../src/pool/job-server.js';
import { createNodeJobPool } from '../../src/pool/node-pool.js';

const ROOT = join(import.meta.dirname, '..', '..');
let dir = '';
let threadUrl: URL;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tracelab-pool-'));
  await build({
    absWorkingDir: ROOT,
    entryPoints: [join(ROOT, 'src/pool/job-thread.ts')],
    outfile: join(dir, 'job-thread.mjs'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'error',
  });
  threadUrl = pathToFileURL(join(dir, 'job-thread.mjs'));
  // A process that warms a pool (as the CLI does for a large file) and then needs no thread.
  await build({
    absWorkingDir: ROOT,
    stdin: {
      contents: `import { createNodeJobPool } from './src/pool/node-pool.ts';
        const pool = createNodeJobPool(2, new URL(process.argv[2]));
        pool.warm();
        await new Promise((resolve) => setTimeout(resolve, 300));
        console.log('traced in line');`,
      resolveDir: ROOT,
      loader: 'ts',
    },
    outfile: join(dir, 'warm-unused.mjs'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'error',
  });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Rings and stripes with soft edges: many chains, anti-aliasing, a few colours. */
function rings(width: number, height: number): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const d = Math.hypot(x - width / 2, y - height / 3);
      const t = Math.max(0, Math.min(1, 0.5 + 2 * Math.sin(d / 6)));
      const stripe = (x >> 4) % 3 === 0 ? 1 : 0;
      const o = (y * width + x) * 4;
      data[o] = Math.round(220 * t + 20 * (1 - t));
      data[o + 1] = stripe ? 40 : Math.round(60 + 120 * t);
      data[o + 2] = Math.round(200 * (1 - t));
      data[o + 3] = 255;
    }
  }
  return { width, height, data };
}

describe('engine threads (worker_threads)', () => {
  it('1, 2 and 3 threads give the in-line SVG byte for byte', async () => {
    const image = rings(240, 180);
    const expected = writeSvg(traceImage(image, DEFAULT_ENGINE_PARAMS), DEFAULT_OUTPUT_OPTIONS);
    for (const threads of [1, 2, 3]) {
      const pool = createNodeJobPool(threads, threadUrl, 0);
      try {
        const result = await traceImageWith(pool, image, DEFAULT_ENGINE_PARAMS);
        expect(writeSvg(result, DEFAULT_OUTPUT_OPTIONS)).toBe(expected);
      } finally {
        pool.terminate();
      }
    }
  });

  it('a pool stopped mid-run rejects that run and serves the next one with new threads', async () => {
    const image = rings(200, 150);
    const expected = writeSvg(traceImage(image, DEFAULT_ENGINE_PARAMS), DEFAULT_OUTPUT_OPTIONS);
    const pool = createNodeJobPool(2, threadUrl, 0);
    try {
      const running = traceImageWith(pool, image, DEFAULT_ENGINE_PARAMS);
      setTimeout(() => pool.terminate(), 5);
      await expect(running).rejects.toThrow(/engine thread/);
      const again = await traceImageWith(pool, image, DEFAULT_ENGINE_PARAMS);
      expect(writeSvg(again, DEFAULT_OUTPUT_OPTIONS)).toBe(expected);
    } finally {
      pool.terminate();
    }
  });

  it('a job that throws in a thread rejects with its message; the pool keeps working', async () => {
    const pool = createNodeJobPool(2, threadUrl, 0);
    try {
      const broken = { kind: 'spread', image: { width: 4, height: 4 } } as unknown as EngineJob;
      await expect(pool.run(broken, [{ from: 0, to: 2 }, { from: 2, to: 4 }])).rejects.toThrow();
      const image = rings(4, 4);
      const outputs = await pool.run({ kind: 'spread', image }, [{ from: 0, to: 2 }, { from: 2, to: 4 }]);
      expect(outputs.map((o) => Array.from(o as Uint8Array))).toEqual([
        Array.from(runJob({ kind: 'spread', image }, { from: 0, to: 2 }) as Uint8Array),
        Array.from(runJob({ kind: 'spread', image }, { from: 2, to: 4 }) as Uint8Array),
      ]);
    } finally {
      pool.terminate();
    }
  });
});

/** An in-process "thread" that answers through serveJobs, or dies on demand. */
function fakePort(log: string[], dieOnPart: () => boolean): JobPort {
  let onMessage: (answer: PoolAnswer) => void = () => {};
  let onFailure: (error: Error) => void = () => {};
  const handle = serveJobs((answer) => queueMicrotask(() => onMessage(answer)));
  return {
    postMessage(message: PoolRequest) {
      log.push(message.type);
      if (message.type === 'part' && dieOnPart()) queueMicrotask(() => onFailure(new Error('killed')));
      else handle(message);
    },
    listen(m, f) {
      onMessage = m;
      onFailure = f;
    },
    terminate() {
      log.push('terminate');
    },
  };
}

describe('job pool protocol', () => {
  it('sends each thread the job once per run, then one part at a time', async () => {
    const log: string[] = [];
    const pool = createJobPool(() => fakePort(log, () => false), 2);
    const image = rings(8, 8);
    const parts = [0, 2, 4, 6].map((from) => ({ from, to: from + 2 }));
    await pool.run({ kind: 'spread', image }, parts);
    expect(log.filter((t) => t === 'job')).toHaveLength(2);
    expect(log.filter((t) => t === 'part')).toHaveLength(4);
  });

  it('threads warmed for a run that never comes do not keep the process alive (the CLI exits)', () => {
    const child = spawnSync(process.execPath, [join(dir, 'warm-unused.mjs'), threadUrl.href], { encoding: 'utf8', timeout: 20_000 });
    expect(child.signal).toBeNull(); // not killed by the timeout
    expect(child.stdout.trim()).toBe('traced in line');
    expect(child.status).toBe(0);
  });

  it('a thread that dies rejects the run, is replaced, and the next run succeeds', async () => {
    const log: string[] = [];
    let kills = 1;
    let spawned = 0;
    const pool = createJobPool(() => {
      spawned++;
      return fakePort(log, () => kills-- > 0);
    }, 1);
    const image = rings(8, 8);
    await expect(pool.run({ kind: 'spread', image }, [{ from: 0, to: 8 }])).rejects.toThrow('an engine thread stopped: killed');
    const [out] = await pool.run({ kind: 'spread', image }, [{ from: 0, to: 8 }]);
    expect(Array.from(out as Uint8Array)).toEqual(Array.from(runJob({ kind: 'spread', image }, { from: 0, to: 8 }) as Uint8Array));
    expect(spawned).toBe(2);
  });
});

describe('how many engine threads', () => {
  it('in line below 4 cores, else the cores up to 4', async () => {
    const { defaultEngineThreads } = await import('../../src/pool/node-pool.js');
    expect([1, 2, 3, 4, 6, 16].map((cores) => defaultEngineThreads(cores))).toEqual([1, 1, 1, 4, 4, 4]);
  });

  it('TRACELAB_WORKERS overrides; invalid values fall back to the default', async () => {
    const { threadsFromEnv } = await import('../../src/cli/vectorize.js');
    const { defaultEngineThreads } = await import('../../src/pool/node-pool.js');
    expect(threadsFromEnv({ TRACELAB_WORKERS: '3' })).toBe(3);
    expect(threadsFromEnv({ TRACELAB_WORKERS: '1' })).toBe(1);
    for (const bad of ['0', '-2', '2.5', 'lots', '']) expect(threadsFromEnv({ TRACELAB_WORKERS: bad })).toBe(defaultEngineThreads());
  });
});
