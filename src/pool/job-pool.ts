/**
 * A pool of threads that run engine jobs (src/engine/jobs.ts) — the JobRunner that
 * `traceImageWith` spreads one image's data-parallel stages over.
 * In: a way to spawn a thread (a JobPort: Node worker_threads or a web Worker, see
 * node-pool.ts / job-worker.ts) and a thread count. Out: `run(job, parts)` → the parts' outputs
 * in order. Threads start on first use and are reused; a thread that dies fails the run it was
 * serving (no hang) and is replaced on the next run.
 * Protocol (job-server.ts answers it): `{ type: 'job', id, job }` once per thread and run, then
 * `{ type: 'part', id, index, part }`, one at a time per thread; answers are
 * `{ type: 'done', id, index, output }` or `{ type: 'failed', id, index, message }`.
 */
import type { EngineJob, JobOutput, JobPart, JobRunner } from '../engine/index.js';

/** The side of a thread the pool talks to. */
export interface JobPort {
  postMessage(message: PoolRequest): void;
  /** Registers the listeners (called once per port). */
  listen(onMessage: (message: PoolAnswer) => void, onFailure: (error: Error) => void): void;
  terminate(): void;
  /** Whether a run is waiting on this thread (Node: keep the process alive only then). */
  hold?(waiting: boolean): void;
}

export type PoolRequest =
  | { readonly type: 'job'; readonly id: number; readonly job: EngineJob }
  | { readonly type: 'part'; readonly id: number; readonly index: number; readonly part: JobPart };

export type PoolAnswer =
  | { readonly type: 'done'; readonly id: number; readonly index: number; readonly output: JobOutput }
  | { readonly type: 'failed'; readonly id: number; readonly index: number; readonly message: string };

export interface JobPool extends JobRunner {
  /** Starts every thread now (they load while the caller decodes), instead of on first use. */
  warm(): void;
  /** Stops every thread; a run in progress fails. The pool can be used again afterwards. */
  terminate(): void;
}

interface Slot {
  port: JobPort;
  /** Run id whose job this thread holds. */
  jobId: number;
  dead: boolean;
}

interface ActiveRun {
  readonly id: number;
  readonly job: EngineJob;
  readonly parts: readonly JobPart[];
  readonly outputs: (JobOutput | undefined)[];
  next: number;
  remaining: number;
  resolve(outputs: JobOutput[]): void;
  reject(error: Error): void;
}

export interface JobPoolOptions {
  /** Images below this many traced pixels run in line (see JobRunner.minPixels). */
  readonly minPixels?: number;
  /** Rewrites a job once per run before it is posted to the threads (Node: shared memory). */
  readonly prepareJob?: (job: EngineJob) => EngineJob;
}

export function createJobPool(spawn: () => JobPort, threads: number, options: JobPoolOptions = {}): JobPool {
  const { minPixels, prepareJob } = options;
  const size = Math.max(1, Math.floor(threads));
  const slots: (Slot | undefined)[] = new Array(size);
  let nextId = 1;
  let active: ActiveRun | undefined;
  // Runs are served one after another: a trace asks for one stage at a time anyway.
  let queue: Promise<unknown> = Promise.resolve();

  function slot(k: number): Slot {
    const existing = slots[k];
    if (existing && !existing.dead) return existing;
    const created: Slot = { port: spawn(), jobId: 0, dead: false };
    created.port.listen(
      (answer) => {
        if (!created.dead) onAnswer(created, answer);
      },
      (error) => {
        if (created.dead) return; // stopped by terminate(): its run was failed there
        created.dead = true;
        created.port.terminate();
        fail(new Error(`an engine thread stopped: ${error.message}`));
      },
    );
    slots[k] = created;
    return created;
  }

  function fail(error: Error): void {
    const run = active;
    if (!run) return;
    active = undefined;
    release();
    run.reject(error);
  }

  function release(): void {
    for (const s of slots) if (s && !s.dead) s.port.hold?.(false);
  }

  function feed(s: Slot, run: ActiveRun): void {
    if (run.next >= run.parts.length) return;
    const index = run.next++;
    s.port.hold?.(true);
    if (s.jobId !== run.id) {
      s.port.postMessage({ type: 'job', id: run.id, job: run.job });
      s.jobId = run.id;
    }
    s.port.postMessage({ type: 'part', id: run.id, index, part: run.parts[index]! });
  }

  function onAnswer(s: Slot, answer: PoolAnswer): void {
    const run = active;
    if (!run || answer.id !== run.id) return; // a late answer of a failed run
    if (answer.type === 'failed') {
      fail(new Error(answer.message));
      return;
    }
    run.outputs[answer.index] = answer.output;
    run.remaining--;
    if (run.remaining === 0) {
      active = undefined;
      release();
      run.resolve(run.outputs as JobOutput[]);
      return;
    }
    feed(s, run);
  }

  function start(job: EngineJob, parts: readonly JobPart[]): Promise<JobOutput[]> {
    if (parts.length === 0) return Promise.resolve([]);
    return new Promise<JobOutput[]>((resolve, reject) => {
      const run: ActiveRun = { id: nextId++, job: prepareJob ? prepareJob(job) : job, parts, outputs: new Array(parts.length), next: 0, remaining: parts.length, resolve, reject };
      active = run;
      try {
        for (let k = 0; k < size && run.next < parts.length; k++) feed(slot(k), run);
      } catch (err) {
        fail(err instanceof Error ? err : new Error(String(err)));
      }
    });
  }

  return {
    warm() {
      for (let k = 0; k < size; k++) slot(k);
    },
    threads: size,
    ...(minPixels !== undefined ? { minPixels } : {}),
    run(job, parts) {
      const result = queue.then(() => start(job, parts));
      queue = result.catch(() => undefined);
      return result;
    },
    terminate() {
      for (let k = 0; k < size; k++) {
        const s = slots[k];
        if (!s) continue;
        s.dead = true;
        s.port.terminate();
        slots[k] = undefined;
      }
      fail(new Error('the engine threads were stopped'));
    },
  };
}
