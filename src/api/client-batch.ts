/**
 * Batch runner following the service's concurrency guidance (reference §5.3): start with at most
 * 5 concurrent requests, allow one more every 5 minutes, never beyond the cap (the vendor asks to
 * be contacted before going past ~100). Results come back in input order; a failing item records
 * its error and does not stop the others.
 *
 * Back-off on 429 is per "thread": give each worker slot its own client (`createClient`) if the
 * per-instance back-off counter should not be shared, or share one client to slow everyone down.
 */

import { abortReason, systemClock, type Clock } from './client.js';

export interface BatchOptions {
  /** Concurrent items at the start; default 5. */
  readonly initialConcurrency?: number;
  /** One more concurrent item every this many ms; default 5 minutes. */
  readonly rampEveryMs?: number;
  /** Never more than this many at once; default 100. */
  readonly maxConcurrency?: number;
  /** Default real time; injectable for tests. */
  readonly clock?: Clock;
  /** Abort: items not started yet fail with the abort reason; running ones get the signal. */
  readonly signal?: AbortSignal;
}

export type BatchResult<R> = { readonly ok: true; readonly value: R } | { readonly ok: false; readonly error: unknown };

export type BatchWorker<T, R> = (item: T, index: number, signal: AbortSignal | undefined) => Promise<R>;

/** Allowed concurrency `elapsedMs` after the start. */
export function concurrencyAt(elapsedMs: number, initial: number, rampEveryMs: number, max: number): number {
  const steps = rampEveryMs > 0 && Number.isFinite(rampEveryMs) ? Math.floor(Math.max(0, elapsedMs) / rampEveryMs) : 0;
  return Math.max(1, Math.min(max, initial + steps));
}

export function runBatch<T, R>(
  items: readonly T[],
  worker: BatchWorker<T, R>,
  options: BatchOptions = {},
): Promise<BatchResult<R>[]> {
  const initial = Math.max(1, Math.floor(options.initialConcurrency ?? 5));
  const rampEveryMs = options.rampEveryMs ?? 5 * 60_000;
  const max = Math.max(1, Math.floor(options.maxConcurrency ?? 100));
  const clock = options.clock ?? systemClock;
  const signal = options.signal;
  const results: BatchResult<R>[] = new Array<BatchResult<R>>(items.length);
  if (items.length === 0) return Promise.resolve(results);

  return new Promise((resolve) => {
    const start = clock.now();
    let next = 0;
    let running = 0;
    let finished = 0;
    let cancelRamp: (() => void) | undefined;

    const limit = (): number => concurrencyAt(clock.now() - start, initial, rampEveryMs, max);

    const settle = (index: number, result: BatchResult<R>): void => {
      results[index] = result;
      finished++;
      if (finished === items.length) {
        cancelRamp?.();
        cancelRamp = undefined;
        signal?.removeEventListener('abort', pump);
        resolve(results);
      }
    };

    const pump = (): void => {
      while (next < items.length && signal?.aborted) settle(next++, { ok: false, error: abortReason(signal) });
      const allowed = limit();
      while (next < items.length && running < allowed) {
        const index = next++;
        running++;
        let promise: Promise<R>;
        try {
          promise = worker(items[index]!, index, signal);
        } catch (e) {
          promise = Promise.reject(e);
        }
        promise.then(
          (value) => done(index, { ok: true, value }),
          (error: unknown) => done(index, { ok: false, error }),
        );
      }
      scheduleRamp(allowed);
    };

    const done = (index: number, result: BatchResult<R>): void => {
      running--;
      settle(index, result);
      pump();
    };

    /** While items wait and the cap is not reached, wake up at the next ramp step. */
    const scheduleRamp = (allowed: number): void => {
      cancelRamp?.();
      cancelRamp = undefined;
      if (next >= items.length || allowed >= max || !(rampEveryMs > 0 && Number.isFinite(rampEveryMs))) return;
      const elapsed = clock.now() - start;
      const wait = (Math.floor(elapsed / rampEveryMs) + 1) * rampEveryMs - elapsed;
      cancelRamp = clock.setTimer(pump, wait);
    };

    signal?.addEventListener('abort', pump, { once: true });
    pump();
  });
}
