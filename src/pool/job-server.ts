/**
 * The thread side of the job pool (job-pool.ts): keeps the job of the current run and answers
 * each part with `runJob`'s output, handing typed-array buffers back without a copy.
 * In: the pool's requests. Out: answers through `post` (with its transfer list).
 */
import { runJob, TraceScratch, type EngineJob, type JobOutput } from '../engine/index.js';
import type { PoolAnswer, PoolRequest } from './job-pool.js';

export function serveJobs(post: (answer: PoolAnswer, transfer: ArrayBuffer[]) => void): (request: PoolRequest) => void {
  let current: { id: number; job: EngineJob } | undefined;
  // The typed arrays this thread's parts borrow, part after part (src/engine/scratch.ts).
  const scratch = new TraceScratch();
  return (request) => {
    if (request.type === 'job') {
      current = { id: request.id, job: request.job };
      return;
    }
    if (!current || current.id !== request.id) {
      post({ type: 'failed', id: request.id, index: request.index, message: 'engine thread: a part arrived before its job' }, []);
      return;
    }
    let output: JobOutput;
    try {
      output = runJob(current.job, request.part, false, scratch);
    } catch (err) {
      post({ type: 'failed', id: request.id, index: request.index, message: err instanceof Error ? err.message : String(err) }, []);
      return;
    }
    const transfer = ArrayBuffer.isView(output) && output.buffer instanceof ArrayBuffer ? [output.buffer] : [];
    post({ type: 'done', id: request.id, index: request.index, output }, transfer);
  };
}
