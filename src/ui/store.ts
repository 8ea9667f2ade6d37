/**
 * Playground state: one zustand vanilla store (no React) built from slices — source, options,
 * preview job, viewer, local service and remote service. The store holds state and plain setters
 * only; work with side effects lives in controllers that take the store (tracing.ts for the
 * preview worker, service-flow.ts for the local service and downloads, remote-flow.ts for the
 * real service). Option defaults, ranges and validation come from the API schema
 * (src/api/options.ts), so the page accepts exactly what the API accepts, with its messages.
 */

import { createStore, type StateCreator, type StoreApi } from 'zustand/vanilla';

import { checkFieldValue, DEFAULT_OPTIONS, OPTION_BY_NAME, OPTION_SCHEMA, parseOptionValue, toFields, type OptionSpec, type VectorizeOptions } from '../api/index.js';
import type { Mode } from '../api/pricing.js';
import { ERROR_CODES, parameterError, TracelabError } from '../engine/errors.js';
import type { AccountInfo, RetainedImage, TraceDraft, TraceProgress, VectorizeStats } from '../worker/protocol.js';

export type OptionName = keyof VectorizeOptions & string;

/** Fields the options panel does not show: the service panel owns mode and retention. */
export const SERVICE_FIELDS: ReadonlySet<string> = new Set(['mode', 'policy.retention_days', 'receipt']);

/** Every option the panel edits: all processing.*, input.* and output.* parameters of the schema. */
export const PANEL_OPTIONS: readonly OptionSpec[] = OPTION_SCHEMA.filter((s) => !SERVICE_FIELDS.has(s.name));

/** The schema entry of an option (kind, range or values, default, hint). */
export function optionSpec(name: string): OptionSpec {
  const spec = OPTION_BY_NAME.get(name);
  if (!spec) throw new Error(`unknown option ${name}`);
  return spec;
}

/**
 * The value of a field's text, as the tracer will take it: the schema's parse (type, range) and
 * the tracer's own rule of that field (checkFieldValue: output.size.scale=0, …), so every value
 * the tracer would refuse is refused here, beside its field. Throws TracelabError 1019.
 */
function parseField(spec: OptionSpec, text: string): VectorizeOptions[OptionName] {
  const value = parseOptionValue(spec, text);
  checkFieldValue(spec.name, value);
  return value;
}

/** The API's 1019 message for `text` as a value of `name`, or undefined when it is valid. */
export function validateOption(name: string, text: string): string | undefined {
  try {
    parseField(optionSpec(name), text);
    return undefined;
  } catch (err) {
    if (err instanceof TracelabError) return err.message;
    throw err;
  }
}

/** The API fields of `options` for a trace: values that differ from the defaults, no service fields. */
export function fieldsFor(options: VectorizeOptions): [string, string][] {
  return toFields(options, 'vectorize').filter(([name]) => !SERVICE_FIELDS.has(name));
}

// ---------------------------------------------------------------------------------------------
// Slices

export interface Source {
  readonly name: string;
  readonly bytes: Uint8Array;
  /** Byte size of the file. */
  readonly size: number;
  /** MIME type reported by the browser ('' when unknown); the tracer sniffs the bytes anyway. */
  readonly type: string;
  /**
   * The file as chosen, dropped or pasted, when there is one: the viewer shows it without copying
   * its bytes into a new Blob (for a 2-MP PNG that copy and its object URL were ~19 ms of the
   * drop's main-thread task, measured).
   */
  readonly blob?: Blob;
}

export interface SourceSlice {
  readonly source: Source | null;
  /** Increases with every new input begun (startInput); the ticket of the newest one. */
  readonly inputId: number;
  /**
   * A new input is on its way (a file being read, a sample or URL being fetched, text decoded):
   * the previous picture and everything made from it leave the screen at once and the status says
   * an image is loading (issue 29: for 0.2–0.5 s after a new file the old result still said
   * "Done"). Returns the input's ticket for setSource / reportError.
   */
  startInput(): number;
  /**
   * New image: clears the previous result. With a `ticket` (from startInput), nothing happens
   * when a newer input has begun since: the later choice wins, whichever loads first.
   */
  setSource(source: Source | null, ticket?: number): void;
}

export type OptionsEdit = 'typing' | 'settled';

export interface OptionsSlice {
  /** Every option, always valid. */
  readonly options: VectorizeOptions;
  /** Text typed into a field that the schema rejects, with the API's message; cleared when fixed. */
  readonly optionErrors: Readonly<Record<string, { readonly text: string; readonly message: string }>>;
  /**
   * How the last option change was made: 'typing' (a text or number field, more keys may follow:
   * the re-trace waits for a pause) or 'settled' (a checkbox, a list, a preset: traced at once).
   */
  readonly optionsEdit: OptionsEdit;
  /** Sets one option from its text form; an invalid text is kept in optionErrors. Returns validity. */
  setOptionText(name: string, text: string, edit?: OptionsEdit): boolean;
  /** Sets one option from a typed value; throws TracelabError 1019 for a value the schema rejects. */
  setOption<N extends OptionName>(name: N, value: VectorizeOptions[N]): void;
  /**
   * Sets several options at once (presets, share links) on top of `base`: the current options
   * (default), the defaults, or given options (presets.ts presetBase). Invalid entries throw 1019,
   * nothing changes.
   */
  applyOptions(values: Readonly<Record<string, string>>, base?: 'current' | 'defaults' | VectorizeOptions): void;
  resetOptions(): void;
}

/** 'loading': a new input is being read or fetched (startInput); 'running': it is being traced. */
export type JobStatus = 'idle' | 'loading' | 'running' | 'done' | 'error';

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
  /** `svg` as the file's bytes, when the worker sent them (saved and shown without encoding the text). */
  readonly svgBytes: Uint8Array | null;
  /** Large results: the worker's PNG rendering, shown instead of the SVG (see LARGE_SVG_BYTES). */
  readonly previewPng: Uint8Array | null;
  readonly stats: VectorizeStats | null;
  readonly ms: number | null;
  /** Input size in pixels. */
  readonly width: number | null;
  readonly height: number | null;
  /** The running trace's last progress report (null when none is running). */
  readonly progress: TraceProgress | null;
  /** The running trace's draft (large images), shown until its result arrives; null otherwise. */
  readonly draft: TraceDraft | null;
}

export interface TraceOutcome {
  readonly svg: string;
  readonly svgBytes?: Uint8Array;
  readonly previewPng: Uint8Array | null;
  readonly stats: VectorizeStats;
  readonly ms: number;
  readonly width: number;
  readonly height: number;
}

export interface JobSlice {
  readonly job: Job;
  /** Marks a new trace as running and returns its id. */
  startJob(): number;
  /** A progress report of trace `id` (ignored for any other trace). */
  setProgress(id: number, progress: TraceProgress): void;
  finishJob(id: number, outcome: TraceOutcome): void;
  failJob(id: number, error: JobError): void;
  /**
   * A new input could not be loaded (file unreadable, URL or sample not fetched, bad share link):
   * clears the source and its results, then shows the error. With a `ticket` (from startInput),
   * nothing happens when a newer input has begun since.
   */
  reportError(error: JobError, ticket?: number): void;
}

export type ViewMode = 'side' | 'overlay' | 'outline';

export interface ViewerState {
  readonly mode: ViewMode;
  /** Screen pixels per image pixel; 0 = fit to the pane. */
  readonly zoom: number;
  /** Image pixel at the centre of the pane (when zoomed). */
  readonly centerX: number;
  readonly centerY: number;
  /** Overlay divider position, 0 (all result) … 1 (all input). */
  readonly divider: number;
}

export interface ViewerSlice {
  readonly viewer: ViewerState;
  setViewer(patch: Partial<ViewerState>): void;
}

/** One call to a service (local or remote), as the cost line and the token list show it. */
export interface ServiceCall {
  readonly endpoint: 'vectorize' | 'download' | 'delete' | 'account';
  /** The mode of the call (for /download: the mode of the token). */
  readonly mode: Mode | null;
  readonly status: number;
  readonly contentType: string | null;
  /** X-Credits-Charged / X-Credits-Calculated, as numbers; null when absent. */
  readonly charged: number | null;
  readonly calculated: number | null;
  readonly token: string | null;
  readonly receipt: string | null;
  readonly error: JobError | null;
  readonly ms: number;
  /** Increases with every call; viewers key object URLs on it. */
  readonly id: number;
}

export interface ServiceResultFile {
  readonly body: Uint8Array;
  readonly contentType: string;
  readonly extension: string;
}

export interface ServiceState {
  readonly mode: Mode;
  readonly retentionDays: number;
  readonly busy: boolean;
  readonly last: ServiceCall | null;
  /** The file of the last successful call (shown in the viewer when it is an image). */
  readonly file: ServiceResultFile | null;
  readonly retained: readonly RetainedImage[];
  /** Receipts by token, as issued by upgrade downloads (kept for further formats). */
  readonly receipts: Readonly<Record<string, string>>;
  readonly account: AccountInfo | null;
}

export interface ServiceSlice {
  readonly service: ServiceState;
  setService(patch: Partial<ServiceState>): void;
}

export interface RemoteState {
  /** Held in memory only, unless `remember` (sessionStorage, with a warning in the page). */
  readonly apiId: string;
  readonly apiSecret: string;
  readonly remember: boolean;
  /** Base URL of a user-run proxy to the real service ('' = call the service directly). */
  readonly proxyUrl: string;
  readonly busy: boolean;
  readonly last: ServiceCall | null;
  readonly file: ServiceResultFile | null;
}

export interface RemoteSlice {
  readonly remote: RemoteState;
  setRemote(patch: Partial<RemoteState>): void;
  /** Clears the credentials everywhere (memory and sessionStorage via the remote flow). */
  forgetCredentials(): void;
}

export type TracelabState = SourceSlice & OptionsSlice & JobSlice & ViewerSlice & ServiceSlice & RemoteSlice;
export type TracelabStore = StoreApi<TracelabState>;
type Slice<T> = StateCreator<TracelabState, [], [], T>;

export const IDLE_JOB: Job = Object.freeze({
  status: 'idle',
  id: 0,
  error: null,
  resultId: null,
  svg: null,
  svgBytes: null,
  previewPng: null,
  stats: null,
  ms: null,
  width: null,
  height: null,
  progress: null,
  draft: null,
});

export const DEFAULT_VIEWER: ViewerState = Object.freeze({ mode: 'side', zoom: 0, centerX: 0, centerY: 0, divider: 0.5 });

export const DEFAULT_SERVICE: ServiceState = Object.freeze({
  mode: 'test',
  retentionDays: 0,
  busy: false,
  last: null,
  file: null,
  retained: [],
  receipts: {},
  account: null,
});

export const DEFAULT_REMOTE: RemoteState = Object.freeze({
  apiId: '',
  apiSecret: '',
  remember: false,
  proxyUrl: '',
  busy: false,
  last: null,
  file: null,
});

/** Whether `ticket` (from startInput) is no longer the newest input. */
function superseded(state: TracelabState, ticket: number | undefined): boolean {
  return ticket !== undefined && ticket !== state.inputId;
}

const sourceSlice: Slice<SourceSlice> = (set, get) => ({
  source: null,
  inputId: 0,
  startInput() {
    const inputId = get().inputId + 1;
    // No source: the tracer stops the old picture's trace (tracing.ts). A new job id: an answer
    // for the old picture still on its way is dropped (finishJob).
    get().setSource(null);
    set({ inputId, job: { ...IDLE_JOB, status: 'loading', id: get().job.id + 1 } });
    return inputId;
  },
  setSource(source, ticket) {
    if (superseded(get(), ticket)) return;
    // Results of the local service belong to the image they were made from: a new image (or
    // none) drops the last call's file, so nothing on screen is saved for the wrong picture.
    const service = get().service;
    set({ source, job: { ...IDLE_JOB, id: get().job.id }, ...(service.file ? { service: { ...service, file: null } } : {}) });
  },
});

function parseAll(values: Readonly<Record<string, string>>, base: VectorizeOptions): VectorizeOptions {
  const next: Record<string, unknown> = { ...base };
  for (const [name, text] of Object.entries(values)) {
    const spec = OPTION_BY_NAME.get(name);
    if (!spec || SERVICE_FIELDS.has(name)) throw parameterError(`Unknown option ${JSON.stringify(name)} for the playground.`);
    next[name] = parseField(spec, text);
  }
  return next as VectorizeOptions;
}

const optionsSlice =
  (initial: Readonly<Record<string, string>>): Slice<OptionsSlice> =>
  (set, get) => ({
    options: parseAll(initial, DEFAULT_OPTIONS),
    optionErrors: {},
    optionsEdit: 'settled',
    setOptionText(name, text, edit = 'typing') {
      const { [name]: _dropped, ...otherErrors } = get().optionErrors;
      // An empty text is the option's default (as a request without the field is): an optional
      // option without one (output.size.width, …) is unset, any other takes its default value.
      if (text.trim() === '') {
        set({ options: { ...(get().options as Record<string, unknown>), [name]: optionSpec(name).default } as VectorizeOptions, optionErrors: otherErrors, optionsEdit: edit });
        return true;
      }
      const message = validateOption(name, text);
      if (message !== undefined) {
        set({ optionErrors: { ...otherErrors, [name]: { text, message } } });
        return false;
      }
      const value = parseField(optionSpec(name), text);
      const options = get().options as Record<string, unknown>;
      if (options[name] === value && !(name in get().optionErrors)) return true;
      set({ options: { ...options, [name]: value } as VectorizeOptions, optionErrors: otherErrors, optionsEdit: edit });
      return true;
    },
    setOption(name, value) {
      const text = typeof value === 'string' ? value : String(value);
      const message = validateOption(name, text);
      if (message !== undefined) throw parameterError(message);
      if (get().options[name] === value) return;
      set({ options: { ...get().options, [name]: value }, optionsEdit: 'settled' });
    },
    applyOptions(values, base = 'current') {
      const options = parseAll(values, base === 'defaults' ? DEFAULT_OPTIONS : base === 'current' ? get().options : base);
      set({ options, optionErrors: {}, optionsEdit: 'settled' });
    },
    resetOptions() {
      set({ options: DEFAULT_OPTIONS, optionErrors: {}, optionsEdit: 'settled' });
    },
  });

const jobSlice: Slice<JobSlice> = (set, get) => ({
  job: IDLE_JOB,
  startJob() {
    const id = get().job.id + 1;
    set({ job: { ...get().job, status: 'running', id, error: null, progress: { step: 'start', fraction: 0 }, draft: null } });
    return id;
  },
  setProgress(id, progress) {
    const job = get().job;
    if (job.id !== id || job.status !== 'running') return;
    // The draft's pixels stay in `draft` only: later reports (the full trace's stages) keep it.
    const { draft, ...report } = progress;
    set({ job: { ...job, progress: report, ...(draft ? { draft } : {}) } });
  },
  finishJob(id, outcome) {
    if (get().job.id !== id) return;
    set({ job: { status: 'done', id, error: null, resultId: id, progress: null, draft: null, svgBytes: null, ...outcome } });
  },
  failJob(id, error) {
    if (get().job.id !== id) return;
    set({ job: { ...IDLE_JOB, status: 'error', id, error } });
  },
  reportError(error, ticket) {
    if (superseded(get(), ticket)) return;
    // A new input could not be loaded: it is the current input now, so the previous picture and
    // everything made from it leave the screen (issue 17: a failed URL left the old image up while
    // "Download as SVG" still saved its file).
    get().setSource(null);
    set({ job: { ...IDLE_JOB, status: 'error', id: get().job.id + 1, error } });
  },
});

const viewerSlice: Slice<ViewerSlice> = (set, get) => ({
  viewer: DEFAULT_VIEWER,
  setViewer(patch) {
    set({ viewer: { ...get().viewer, ...patch } });
  },
});

const serviceSlice: Slice<ServiceSlice> = (set, get) => ({
  service: DEFAULT_SERVICE,
  setService(patch) {
    set({ service: { ...get().service, ...patch } });
  },
});

const remoteSlice: Slice<RemoteSlice> = (set, get) => ({
  remote: DEFAULT_REMOTE,
  setRemote(patch) {
    set({ remote: { ...get().remote, ...patch } });
  },
  forgetCredentials() {
    set({ remote: { ...get().remote, apiId: '', apiSecret: '', remember: false } });
  },
});

/** The store; `initialOptions` are API field values (e.g. from a share link), validated. */
export function createTracelabStore(initialOptions: Readonly<Record<string, string>> = {}): TracelabStore {
  return createStore<TracelabState>()((...a) => ({
    ...sourceSlice(...a),
    ...optionsSlice(initialOptions)(...a),
    ...jobSlice(...a),
    ...viewerSlice(...a),
    ...serviceSlice(...a),
    ...remoteSlice(...a),
  }));
}

/**
 * Whether the viewer shows the running trace's draft (a large picture's quick trace, shrunk): only
 * for the first trace of a picture, while no result of it is on screen. Re-traced after an option
 * change, the current result stays (dimmed) until the new one is ready: swapping the sharp result
 * for a blurry draft for ~2.5 s at each change made tuning a 2-MP picture hard (issue 41 item 5).
 */
export function showsDraft(job: Job): job is Job & { readonly draft: TraceDraft } {
  return job.status === 'running' && job.draft !== null && job.svg === null;
}

/** The text of the aria-live status region. */
export function statusText(job: Job, hasSource: boolean): string {
  switch (job.status) {
    case 'loading':
      return 'Loading the image…';
    case 'running':
      return 'Tracing…';
    case 'done':
      return 'Done';
    case 'error': {
      const { code, message } = job.error ?? { code: ERROR_CODES.none, message: 'Unknown error' };
      return code > 0 ? `Error ${code}: ${message}` : `Error: ${message}`;
    }
    case 'idle':
      return hasSource ? 'Ready' : 'Choose an image to trace.';
  }
}

/**
 * A note under a finished trace that looks like a mistake: the whole picture came out as one
 * colour (e.g. the Line art preset's black-and-white palette on a colour picture whose colours are
 * all light: every colour snaps to white and the result is blank). Says which options did it.
 * Null when there is nothing to say.
 */
export function resultHint(job: Job, options: VectorizeOptions): string | null {
  if (job.status !== 'done' || !job.stats) return null;
  const colors = new Set(job.stats.palette.map((p) => p.hex));
  // Gradient fills (tracelab.gradients) are colours too: one flat colour beside them is no mistake.
  if (colors.size !== 1 || job.stats.gradientFills !== undefined) return null;
  const [only] = colors;
  const causes: string[] = [];
  if (options['processing.palette']) causes.push('processing.palette maps each colour to the nearest listed one');
  if (options['processing.max_colors'] > 0) causes.push(`processing.max_colors=${options['processing.max_colors']} keeps only the most common colours`);
  const why = causes.length > 0 ? ` (${causes.join('; ')})` : '';
  return (
    `The result is a single colour, ${only}: every colour of this picture became it${why}. ` +
    'A black-and-white palette (the Line art preset) suits dark ink on a light ground; for a colour picture choose another preset or more colours.'
  );
}
