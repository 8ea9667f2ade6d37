/**
 * Web-worker entry of the engine job pool (spawned by web-pool.ts from the trace worker).
 * In: pool requests as messages. Out: answers (job-server.ts), typed arrays transferred.
 */
import { serveJobs } from './job-server.js';
import type { PoolRequest } from './job-pool.js';

const scope = self as unknown as {
  postMessage(message: unknown, transfer: Transferable[]): void;
  onmessage: ((event: MessageEvent<PoolRequest>) => void) | null;
};
const handle = serveJobs((answer, transfer) => scope.postMessage(answer, transfer));
scope.onmessage = (event) => handle(event.data);
