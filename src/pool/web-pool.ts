/**
 * Engine job pool on web workers, for the page's trace workers (nested workers: they stop with
 * the trace worker that made them, so an aborted preview takes its threads along).
 * In: a thread count. Out: a JobPool; threads start on the first large image.
 */
import { createJobPool, type JobPool, type JobPort, type PoolAnswer } from './job-pool.js';

/** Threads per trace in the browser: as in Node (node-pool.ts), in line below 4 reported cores, else up to 4. */
export function defaultWebThreads(): number {
  const cores = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency : 0;
  return (cores || 1) < 4 ? 1 : Math.min(4, cores);
}

export function createWebJobPool(threads: number): JobPool {
  const spawn = (): JobPort => {
    const worker = new Worker(new URL('./job-worker.ts', import.meta.url), { type: 'module', name: 'tracelab-engine-thread' });
    return {
      postMessage: (message) => worker.postMessage(message),
      listen(onMessage, onFailure) {
        worker.onmessage = (event: MessageEvent<PoolAnswer>) => onMessage(event.data);
        worker.onerror = (event) => {
          event.preventDefault();
          onFailure(new Error(event.message || 'engine thread failed to load'));
        };
        worker.onmessageerror = () => onFailure(new Error('engine thread sent an unreadable message'));
      },
      terminate: () => worker.terminate(),
    };
  };
  return createJobPool(spawn, threads);
}
