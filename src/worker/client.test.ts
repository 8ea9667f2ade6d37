import { expose } from 'comlink';
import { describe, expect, it, vi } from 'vitest';

import { TracelabError } from '../engine/errors.js';
import { createTracerClient, TracerAbortedError } from './client.js';
import type { TracerApi, VectorizeResult } from './protocol.js';
import { toErrorPayload } from './vectorize.js';

const RESULT: VectorizeResult = {
  svg: '<?xml version="1.0"?><svg/>',
  svgBytes: new TextEncoder().encode('<?xml version="1.0"?><svg/>'),
  previewPng: null,
  stats: { profile: 'flat', colors: 1, regions: 1, shapes: 1, bytes: 27, nodes: 4, palette: [{ hex: '#FFFFFF', areaPx: 1, shapes: 1 }] },
  width: 1,
  height: 1,
  ms: 0,
};

/** A MessageChannel standing in for the Worker; the "worker side" exposes `api` with comlink. */
function fakeWorkers(api: Pick<TracerApi, 'vectorize'> & Partial<Pick<TracerApi, 'cancel'>>) {
  const log = { started: 0, terminated: 0, cancels: 0, received: [] as Uint8Array[] };
  const spawn = (): Worker => {
    log.started++;
    const { port1, port2 } = new MessageChannel();
    expose(
      {
        vectorize(bytes: Uint8Array, fields: [string, string][]) {
          log.received.push(bytes);
          return api.vectorize(bytes, fields);
        },
        async cancel() {
          log.cancels++;
          await api.cancel?.();
        },
      },
      port2 as unknown as MessagePort,
    );
    return Object.assign(port1, {
      terminate() {
        log.terminated++;
        port1.close();
        port2.close();
      },
    }) as unknown as Worker;
  };
  return { spawn, log };
}

/**
 * A worker side that behaves like vectorize.ts: one trace at a time, and a running trace of an
 * image starting with byte 1 goes on until a newer call (or cancel) supersedes it, then rejects.
 */
function cooperativeWorker() {
  let newest = 0;
  let stopRunning: (() => void) | undefined;
  const supersede = () => {
    newest++;
    stopRunning?.();
  };
  return {
    vectorize(bytes: Uint8Array): Promise<VectorizeResult> {
      supersede();
      const call = newest;
      if (bytes[0] !== 1) return Promise.resolve(RESULT);
      return new Promise<VectorizeResult>((_, reject) => {
        stopRunning = () => {
          if (call !== newest) reject(new Error('superseded'));
        };
      });
    },
    cancel: async () => supersede(),
  };
}

const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms));

describe('createTracerClient', () => {
  it('returns the result and transfers the bytes', async () => {
    const { spawn, log } = fakeWorkers({ vectorize: async () => RESULT });
    const client = createTracerClient(spawn);
    const bytes = new Uint8Array([1, 2, 3]);
    await expect(client.vectorize(bytes, [])).resolves.toEqual(RESULT);
    expect(bytes.byteLength).toBe(0); // detached: transferred, not copied
    expect([...log.received[0]!]).toEqual([1, 2, 3]);
    client.dispose();
    expect(log.terminated).toBe(1);
  });

  it('rethrows the plain error payload as a TracelabError with its code', async () => {
    const { spawn } = fakeWorkers({
      vectorize: async () => {
        throw toErrorPayload(new TracelabError(1006, 400, 'Failed to read the supplied image: corrupt PNG data'));
      },
    });
    const client = createTracerClient(spawn);
    const err = await client.vectorize(new Uint8Array([0]), []).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TracelabError);
    expect(err).toMatchObject({ code: 1006, status: 400, message: 'Failed to read the supplied image: corrupt PNG data' });
    client.dispose();
  });

  it('a newer request cancels the older one at once and is traced by the same worker once the older one stops', async () => {
    const { spawn, log } = fakeWorkers(cooperativeWorker());
    const client = createTracerClient(spawn);
    const first = client.vectorize(new Uint8Array([1]), []);
    await tick(); // let the worker start on it
    const second = client.vectorize(new Uint8Array([2]), []);
    await expect(first).rejects.toBeInstanceOf(TracerAbortedError);
    await expect(second).resolves.toEqual(RESULT);
    expect(log).toMatchObject({ started: 1, terminated: 0 });
    client.dispose();
  });

  it('abort() cancels a running trace and tells the worker to stop it; nothing running: no-op', async () => {
    const { spawn, log } = fakeWorkers(cooperativeWorker());
    const client = createTracerClient(spawn);
    client.abort();
    expect(log).toMatchObject({ started: 0, cancels: 0 });
    const first = client.vectorize(new Uint8Array([1]), []);
    await tick();
    client.abort();
    await expect(first).rejects.toBeInstanceOf(TracerAbortedError);
    await tick();
    expect(log).toMatchObject({ started: 1, terminated: 0, cancels: 1 });
    // The worker is idle again: the next trace is answered at once, without waiting or a new worker.
    await expect(client.vectorize(new Uint8Array([2]), [])).resolves.toEqual(RESULT);
    expect(log).toMatchObject({ started: 1, terminated: 0 });
    client.dispose();
    expect(log).toMatchObject({ started: 1, terminated: 1 });
  });

  it('a stale trace that never reaches a checkpoint: after the grace period the worker is replaced and the newer trace runs on a fresh one', async () => {
    // One trace at a time per worker, as in vectorize.ts; image [1] never finishes and ignores newer
    // calls (one endless stage), so a call behind it waits for ever on that worker.
    const spawnBusy = () => {
      let busy = false;
      return (bytes: Uint8Array) => {
        if (bytes[0] === 1) busy = true;
        return busy ? new Promise<VectorizeResult>(() => {}) : Promise.resolve(RESULT);
      };
    };
    let current = spawnBusy();
    const { spawn: spawnFake, log } = fakeWorkers({ vectorize: (bytes) => current(bytes) });
    const spawn = () => {
      current = spawnBusy();
      return spawnFake();
    };
    const client = createTracerClient(spawn, { staleGraceMs: 100 });
    const first = client.vectorize(new Uint8Array([1]), []);
    await tick();
    // The grace period on a fake clock (the worker messages stay real): kept for 99 ms, replaced at 100.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const second = client.vectorize(new Uint8Array([2]), []);
      await expect(first).rejects.toBeInstanceOf(TracerAbortedError);
      await vi.advanceTimersByTimeAsync(99);
      expect([log.started, log.terminated]).toEqual([1, 0]);
      await vi.advanceTimersByTimeAsync(1);
      // Replaced after the grace period, the call sent again with its bytes.
      await expect(second).resolves.toEqual(RESULT);
      expect(log.started).toBe(2);
      expect(log.terminated).toBe(1);
      expect(log.received.map((b) => b[0])).toEqual([1, 2, 2]);
    } finally {
      vi.useRealTimers();
    }
    client.dispose();
  });
});
