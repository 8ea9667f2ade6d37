/**
 * Child-process side of scripts/fuzz.mjs: receives { id, bytes } over IPC, runs one input (run-one.ts) and sends
 * back the outcome plus this process's V8 heap use. The parent enforces the bounds: --max-old-space-size on this
 * process (a V8 OOM kills only it), a wall-clock timeout that kills it (hang) and an RSS watch on its pid (typed
 * arrays live outside the V8 heap). A child process rather than a worker thread: a worker that hits its
 * resourceLimits while growing one large array can take the whole process down with a FATAL OOM.
 */

import { getHeapStatistics } from 'node:v8';

import { prepareFuzzHost, runOne } from './run-one.js';

prepareFuzzHost();
process.on('message', async (msg: { id: number; bytes: Uint8Array }) => {
  const outcome = await runOne(msg.bytes);
  const heap = getHeapStatistics();
  process.send!({ id: msg.id, outcome, heapMb: heap.used_heap_size / 2 ** 20 });
});
process.send!({ ready: true });
