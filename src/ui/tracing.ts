/**
 * Connects the store to the trace worker: a new source is traced at once, a settled option change
 * (a checkbox, a list, a preset) at once, a typed one after a short pause (debounced: the next key
 * may follow), and every new trace aborts the one still running.
 */

import { ERROR_CODES, TracelabError } from '../engine/errors.js';
import type { TraceProgress, VectorizeResult } from '../worker/protocol.js';
import { fieldsFor, type JobError, type TracelabStore } from './store.js';

/** What the controller needs from src/worker/client.ts (a fake in tests). */
export interface Tracer {
  vectorize(bytes: Uint8Array, fields: [string, string][], onProgress?: (progress: TraceProgress) => void): Promise<VectorizeResult>;
  abort(): void;
  dispose(): void;
}

export const RETRACE_DEBOUNCE_MS = 150;

export function toJobError(err: unknown): JobError {
  if (err instanceof TracelabError) return { code: err.code, message: err.message };
  return { code: ERROR_CODES.none, message: err instanceof Error ? err.message : String(err) };
}

function isAbort(err: unknown): boolean {
  return err instanceof Error && err.name === 'AbortError';
}

/** Starts tracing on store changes. Returns a function that disconnects and stops the worker. */
export function connectTracer(
  store: TracelabStore,
  tracer: Tracer,
  { debounceMs = RETRACE_DEBOUNCE_MS }: { debounceMs?: number } = {},
): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;

  const cancelTimer = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };

  const run = (): void => {
    cancelTimer();
    const { source, options, startJob } = store.getState();
    if (!source) return;
    const id = startJob();
    // The client transfers (detaches) what it is given; the store keeps the original for re-traces.
    tracer.vectorize(source.bytes.slice(), fieldsFor(options), (p) => store.getState().setProgress(id, p)).then(
      (result) => store.getState().finishJob(id, result),
      (err: unknown) => {
        if (isAbort(err)) return; // superseded by a newer trace
        store.getState().failJob(id, toJobError(err));
      },
    );
  };

  const unsubscribe = store.subscribe((state, previous) => {
    if (state.source !== previous.source) {
      if (state.source) run();
      else {
        cancelTimer();
        tracer.abort();
      }
    } else if (state.options !== previous.options && state.source) {
      cancelTimer();
      if (state.optionsEdit === 'settled') run();
      else timer = setTimeout(run, debounceMs);
    }
  });

  return () => {
    unsubscribe();
    cancelTimer();
    tracer.dispose();
  };
}
