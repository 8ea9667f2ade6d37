/**
 * Playground state (zustand vanilla store, no React): the source image, the four options the page
 * shows, and the trace job. Option defaults, ranges and validation come from the API schema
 * (src/api/options.ts), so the page accepts exactly what the API accepts.
 */

import { createStore, type StoreApi } from 'zustand/vanilla';

import {
  DEFAULT_OPTIONS,
  OPTION_SCHEMA,
  parseOptionValue,
  toFields,
  type VectorizeOptions,
} from '../api/index.js';
import { TracelabError } from '../engine/errors.js';
import type { VectorizeStats } from '../worker/protocol.js';

/** The options this page exposes, in display order. */
export const UI_OPTION_NAMES = [
  'processing.max_colors',
  'output.shape_stacking',
  'output.gap_filler.enabled',
  'processing.shapes.min_area_px',
] as const;
export type UiOptionName = (typeof UI_OPTION_NAMES)[number];
export type UiOptions = { readonly [K in UiOptionName]: VectorizeOptions[K] };

type SchemaEntry = (typeof OPTION_SCHEMA)[number];
export type UiOptionSpec<N extends UiOptionName> = Extract<SchemaEntry, { name: N }>;

/** The schema entry of one of the page's options (kind, range or values, default, hint). */
export function uiOptionSpec<N extends UiOptionName>(name: N): UiOptionSpec<N> {
  const spec = OPTION_SCHEMA.find((s): s is UiOptionSpec<N> => s.name === name);
  if (!spec) throw new Error(`unknown option ${name}`);
  return spec;
}

export const DEFAULT_UI_OPTIONS: UiOptions = Object.freeze(
  Object.fromEntries(UI_OPTION_NAMES.map((name) => [name, DEFAULT_OPTIONS[name]])),
) as UiOptions;

/**
 * Checks a value against the schema (type, range, enum). Returns the API's 1019 message, or
 * undefined when the value is valid.
 */
export function validateUiOption<N extends UiOptionName>(name: N, value: UiOptions[N]): string | undefined {
  try {
    parseOptionValue(uiOptionSpec(name), String(value));
    return undefined;
  } catch (err) {
    if (err instanceof TracelabError) return err.message;
    throw err;
  }
}

/** The API fields for `options`: only values that differ from the defaults. */
export function fieldsFor(options: UiOptions): [string, string][] {
  return toFields({ ...DEFAULT_OPTIONS, ...options }, 'vectorize');
}

export interface Source {
  readonly name: string;
  readonly bytes: Uint8Array;
  /** Byte size of the file. */
  readonly size: number;
  /** MIME type reported by the browser ('' when unknown); the tracer sniffs the bytes anyway. */
  readonly type: string;
}

export type JobStatus = 'idle' | 'running' | 'done' | 'error';

export interface JobError {
  /** API error code (1006, 1013, 1019, …); 0 when there is none. */
  readonly code: number;
  readonly message: string;
}

export interface Job {
  readonly status: JobStatus;
  /** Increases with every started trace; results of older traces are ignored. */
  readonly id: number;
  readonly error: JobError | null;
  /** Id of the trace that produced `svg` (it differs from `id` while a re-trace runs). */
  readonly resultId: number | null;
  /** The latest result; kept (stale) while a re-trace of the same source runs. */
  readonly svg: string | null;
  readonly stats: VectorizeStats | null;
  readonly ms: number | null;
  /** Input size in pixels. */
  readonly width: number | null;
  readonly height: number | null;
}

export interface TraceOutcome {
  readonly svg: string;
  readonly stats: VectorizeStats;
  readonly ms: number;
  readonly width: number;
  readonly height: number;
}

export interface TracelabState {
  readonly source: Source | null;
  readonly options: UiOptions;
  readonly job: Job;
  /** New image: clears the previous result. */
  setSource(source: Source | null): void;
  /** Sets one option; throws TracelabError 1019 for a value the schema rejects. */
  setOption<N extends UiOptionName>(name: N, value: UiOptions[N]): void;
  resetOptions(): void;
  /** Marks a new trace as running and returns its id. */
  startJob(): number;
  finishJob(id: number, outcome: TraceOutcome): void;
  failJob(id: number, error: JobError): void;
  /** An error outside a trace (file could not be read, sample could not be fetched). */
  reportError(error: JobError): void;
}

export const IDLE_JOB: Job = Object.freeze({
  status: 'idle',
  id: 0,
  error: null,
  resultId: null,
  svg: null,
  stats: null,
  ms: null,
  width: null,
  height: null,
});

export type TracelabStore = StoreApi<TracelabState>;

export function createTracelabStore(initialOptions: Partial<UiOptions> = {}): TracelabStore {
  return createStore<TracelabState>()((set, get) => ({
    source: null,
    options: { ...DEFAULT_UI_OPTIONS, ...initialOptions },
    job: IDLE_JOB,
    setSource(source) {
      set({ source, job: { ...IDLE_JOB, id: get().job.id } });
    },
    setOption(name, value) {
      const problem = validateUiOption(name, value);
      if (problem !== undefined) throw new TracelabError(1019, 400, problem);
      if (get().options[name] === value) return;
      set({ options: { ...get().options, [name]: value } });
    },
    resetOptions() {
      set({ options: DEFAULT_UI_OPTIONS });
    },
    startJob() {
      const id = get().job.id + 1;
      set({ job: { ...get().job, status: 'running', id, error: null } });
      return id;
    },
    finishJob(id, outcome) {
      if (get().job.id !== id) return;
      set({ job: { status: 'done', id, error: null, resultId: id, ...outcome } });
    },
    failJob(id, error) {
      if (get().job.id !== id) return;
      set({ job: { ...IDLE_JOB, status: 'error', id, error } });
    },
    reportError(error) {
      set({ job: { ...IDLE_JOB, status: 'error', id: get().job.id + 1, error } });
    },
  }));
}

/** The text of the aria-live status region. */
export function statusText(job: Job, hasSource: boolean): string {
  switch (job.status) {
    case 'running':
      return 'Tracing…';
    case 'done':
      return 'Done';
    case 'error': {
      const { code, message } = job.error ?? { code: 0, message: 'Unknown error' };
      return code > 0 ? `Error ${code}: ${message}` : `Error: ${message}`;
    }
    case 'idle':
      return hasSource ? 'Ready' : 'Choose an image to trace.';
  }
}
