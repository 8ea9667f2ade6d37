/**
 * Entry of a trace worker thread (bundled to dist-cli/trace-thread.mjs by scripts/build-cli.mjs and
 * started by trace-pool.ts). In: `JobMessage`s on parentPort. Out: `ReadyMessage` once loaded, then
 * one `ResultMessage` per job, in the order the jobs finish (after `ProgressMessage`s when the job asked). Runs the same `runTraceJob` as the
 * in-process service, after loading the Node decoders' assets the job's image needs.
 *
 * A job's own failure (a TracelabError, a bug that throws inside the job) is answered as an error
 * result and the worker stays. Anything that kills the thread (an uncaught exception elsewhere, the
 * heap budget, `terminate()`) is the pool's business: it fails the job and starts a new worker.
 */

import { parentPort } from 'node:worker_threads';
import { runTraceJob, type JobProgress, type TraceJob } from '../api/service-trace.js';
import { TraceScratch } from '../engine/index.js';
import { prepareNodeDecoders } from './node-codecs.js';
import { serializeError, type JobMessage, type ProgressMessage, type ResultMessage } from './trace-protocol.js';

const port = parentPort;
if (port === null) throw new Error('trace-thread runs only as a worker thread (started by the trace pool)');

/** The typed arrays this thread's traces borrow, job after job (src/engine/scratch.ts). */
const scratch = new TraceScratch();

function prepare(job: TraceJob): void {
  const source = job.source;
  // A stored source may be traced again from its image (another output.shape_stacking).
  if (source.kind !== 'pixels') prepareNodeDecoders(source.kind === 'image' ? source.bytes : source.image);
}

port.on('message', (message: JobMessage) => {
  if (message?.type !== 'job') return;
  const { id, job } = message;
  (async (): Promise<ResultMessage> => {
    try {
      prepare(job);
      // Progress is posted only when the pool asked for it (library calls with onProgress).
      const onProgress = message.progress ? (progress: JobProgress) => port.postMessage({ type: 'progress', id, progress } satisfies ProgressMessage) : undefined;
      return { type: 'result', id, ok: true, result: await runTraceJob(job, onProgress, scratch) };
    } catch (error) {
      return { type: 'result', id, ok: false, error: serializeError(error) };
    }
  })()
    .then((reply) => port.postMessage(reply))
    // A result that cannot be posted (not cloneable) is that job's failure, not the thread's.
    .catch((error: unknown) => port.postMessage({ type: 'result', id, ok: false, error: serializeError(error) } satisfies ResultMessage));
});

port.postMessage({ type: 'ready' });
