/**
 * Messages between the trace pool (trace-pool.ts, the server's thread) and a trace worker thread
 * (trace-thread.ts). In: `JobMessage` (a TraceJob with an id). Out: `ReadyMessage` once the worker
 * has loaded, then per job any `ProgressMessage`s it asked for and one `ResultMessage`. Errors cross as plain data: a TracelabError keeps its
 * status, code and message; anything else becomes a plain Error (the service's 500 / −1).
 */

import { TracelabError } from '../engine/errors.js';
import type { JobProgress, TraceJob, TraceJobResult } from '../api/service-trace.js';

export interface JobMessage {
  readonly type: 'job';
  readonly id: number;
  readonly job: TraceJob;
  /** Post ProgressMessages while the job runs. */
  readonly progress?: boolean;
}

export interface ProgressMessage {
  readonly type: 'progress';
  readonly id: number;
  readonly progress: JobProgress;
}

export interface ReadyMessage {
  readonly type: 'ready';
}

export interface SerializedError {
  readonly name: string;
  readonly message: string;
  /** Set for a TracelabError. */
  readonly tracelab?: { readonly code: number; readonly status: number };
}

export type ResultMessage =
  | { readonly type: 'result'; readonly id: number; readonly ok: true; readonly result: TraceJobResult }
  | { readonly type: 'result'; readonly id: number; readonly ok: false; readonly error: SerializedError };

export type WorkerMessage = ReadyMessage | ProgressMessage | ResultMessage;

export function serializeError(error: unknown): SerializedError {
  if (error instanceof TracelabError) return { name: error.name, message: error.message, tracelab: { code: error.code, status: error.status } };
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

export function deserializeError(error: SerializedError): Error {
  if (error.tracelab) return new TracelabError(error.tracelab.code, error.tracelab.status, error.message);
  const e = new Error(`trace worker: ${error.message}`);
  e.name = error.name;
  return e;
}

export function isWorkerMessage(value: unknown): value is WorkerMessage {
  if (typeof value !== 'object' || value === null) return false;
  const type = (value as { type?: unknown }).type;
  return type === 'ready' || ((type === 'result' || type === 'progress') && typeof (value as { id?: unknown }).id === 'number');
}
