/**
 * Node worker-thread entry of the engine job pool (bundled as dist-cli/job-thread.mjs).
 * In: pool requests on parentPort. Out: answers (job-server.ts).
 */
import { parentPort } from 'node:worker_threads';
import { serveJobs } from './job-server.js';
import type { PoolRequest } from './job-pool.js';

if (parentPort) {
  const port = parentPort;
  const handle = serveJobs((answer, transfer) => port.postMessage(answer, transfer));
  port.on('message', (request: PoolRequest) => handle(request));
}
