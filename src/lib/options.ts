/**
 * The library's options: the API's /vectorize parameter names, nested (`{ output: { file_format:
 * 'pdf' } }`) or dotted (`{ 'output.file_format': 'pdf' }`), plus the call's `signal` and
 * `onProgress`. In: a user's options object. Out: the API form fields (`[name, text][]`) that the
 * one options schema (parseOptions / planVectorize) validates — so a bad value gets the same 400 /
 * 1019 message as from the HTTP API or the CLI.
 */
import { parameterError } from '../engine/errors.js';
import { IMAGE_SOURCE_FIELDS, OPTION_BY_NAME, describeAllowed } from '../api/options.js';
import type { JobProgress } from '../api/service-trace.js';
import type { DottedOptions, NestedOptions } from '../api/options.generated.js';

export type { DottedOptions, NestedOptions, LibraryOptionName } from '../api/options.generated.js';

/** A progress report: the step just finished (decode, an engine stage, write) and the share done (0–1). */
export type Progress = JobProgress;

/** Per-call settings that are not API parameters. */
export interface CallOptions {
  /** Aborting rejects the call with the signal's reason and stops its trace (its worker is replaced). */
  readonly signal?: AbortSignal;
  /** Called after each step (decode, each engine stage, write) with the share of the work done. */
  readonly onProgress?: (progress: Progress) => void;
}

/**
 * Options of `vectorize`: API parameters (nested or dotted, mixed as you like; each at most once)
 * and the call settings. A misspelt name is a type error (and a 1019 error at run time).
 */
export type TraceOptions = DottedOptions & NestedOptions & CallOptions;

/** API parameters only (what `vectorizeSync` and the formats helpers take). */
export type ParameterOptions = DottedOptions & NestedOptions;

/** The text of one leaf value as a form field carries it. */
function fieldText(name: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const spec = OPTION_BY_NAME.get(name);
  const expected = spec ? describeAllowed(spec) : 'a string, number or boolean';
  throw parameterError(`${name} must be ${expected}; received ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`);
}

/** What a received value is, for a message: `null`, `an array`, `a number (42)`, `a string`. */
function describeReceived(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return `a number (${value})`;
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * The call settings of `options`, checked (400 / 1019 for anything else): `signal` an AbortSignal,
 * `onProgress` a function. `options` itself must be an object or left out (not null).
 */
export function callSettings(options: unknown): CallOptions {
  checkOptionsObject(options);
  if (options === undefined) return {};
  const { signal, onProgress } = options as { signal?: unknown; onProgress?: unknown };
  if (signal !== undefined && !(typeof AbortSignal !== 'undefined' && signal instanceof AbortSignal)) {
    throw parameterError(`signal must be an AbortSignal (e.g. AbortSignal.timeout(ms) or an AbortController's signal); received ${describeReceived(signal)}`);
  }
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    throw parameterError(`onProgress must be a function (progress) => void; received ${describeReceived(onProgress)}`);
  }
  return { ...(signal !== undefined ? { signal } : {}), ...(onProgress !== undefined ? { onProgress: onProgress as NonNullable<CallOptions['onProgress']> } : {}) };
}

function checkOptionsObject(options: unknown): asserts options is object | undefined {
  if (options === undefined) return;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw parameterError(`options must be an object of API parameters (or left out); received ${describeReceived(options)}`);
  }
}

/**
 * API parameters that only mean something to the HTTP service's billing and storage: the library
 * makes the full (production) result and keeps nothing, so asking otherwise is refused rather
 * than silently ignored.
 */
function refuseServiceOnly(name: string, text: string): void {
  if (name === 'mode' && ['test', 'preview', 'test_preview'].includes(text)) {
    throw parameterError(
      `mode=${text} is a billing tier of the HTTP API (a watermarked or preview result there); the library has no account and always makes the full result: leave mode out, or call a service with tracelab/client`,
    );
  }
  if (name === 'policy.retention_days' && text.trim() !== '' && Number(text) !== 0) {
    throw parameterError(`policy.retention_days=${text} keeps an image token on the HTTP service; the library keeps nothing: leave it out, or call a service with tracelab/client`);
  }
}

/**
 * Flattens `options` (without `signal` / `onProgress`) to API fields in the order given. Unknown
 * names pass through: parseOptions rejects them with its "did you mean" message. `null` or a
 * non-object is 1019; so are the service-only `mode` (other than production) and
 * `policy.retention_days` (other than 0).
 */
export function optionFields(options: object | undefined): [string, string][] {
  const out: [string, string][] = [];
  checkOptionsObject(options);
  if (options === undefined) return out;
  const walk = (obj: object, prefix: string): void => {
    for (const [key, value] of Object.entries(obj)) {
      const name = prefix ? `${prefix}.${key}` : key;
      if (prefix === '' && (key === 'signal' || key === 'onProgress')) continue;
      if (value === undefined) continue;
      if (IMAGE_SOURCE_FIELDS.has(name)) {
        throw parameterError(`${name} is an image source of the HTTP API; pass the image as vectorize's first argument instead`);
      }
      // A plain object under a name that is not an option is a group (`output: { … }`).
      if (value !== null && typeof value === 'object' && !Array.isArray(value) && !OPTION_BY_NAME.has(name) && !ArrayBuffer.isView(value)) {
        walk(value, name);
        continue;
      }
      const text = fieldText(name, value);
      refuseServiceOnly(name, text);
      out.push([name, text]);
    }
  };
  walk(options, '');
  return out;
}
