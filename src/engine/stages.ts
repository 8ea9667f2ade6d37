/**
 * The pipeline driver's plumbing (index.ts reads as its list of stages because this lives here):
 * - a stage clock: per-stage time (stats.stageMs), stages served from the memo (reusedStages),
 *   and the progress hook after each stage;
 * - stage groups looked up in the memo under a key naming everything they depend on;
 * - hand-offs of data-parallel jobs (jobs.ts) to the threads, and joining their row bands.
 * Timings only feed stats, never the output: the clock does not break determinism.
 */
import type { EngineJob, JobOutput, JobPart } from './jobs.js';
import type { MemoView } from './memo.js';
import type { EngineParams } from './types.js';

/** The engine's stages in order (progress reports name the stage just finished). */
export const ENGINE_STAGES = ['resize', 'profile', 'palette', 'label', 'regions', 'shading', 'boundary', 'fit', 'shapes'] as const;
export type EngineStage = (typeof ENGINE_STAGES)[number];

/**
 * One step the pipeline asks its driver for. `start` hands `job` on its parts to the threads and
 * resumes at once (the pipeline works on in the meantime); the next `finish` waits for those
 * outputs, in the parts' order.
 */
export type PipelineStep = { readonly type: 'start'; readonly job: EngineJob; readonly parts: readonly JobPart[] } | { readonly type: 'finish' };

/** A piece of the pipeline: yields its steps, resumes with each `finish`'s outputs, returns T. */
export type Pipeline<T> = Generator<PipelineStep, T, JobOutput[] | undefined>;

export function startJob(job: EngineJob, parts: readonly JobPart[]): PipelineStep {
  return { type: 'start', job, parts };
}

export const FINISH: PipelineStep = { type: 'finish' };

/** Runs `job` on its parts and joins their outputs (nothing else to do meanwhile). */
export function* inParallel<T>(job: EngineJob, parts: readonly JobPart[], join: (outputs: readonly JobOutput[]) => T): Pipeline<T> {
  yield startJob(job, parts);
  return join((yield FINISH)!);
}

export interface StageClock {
  /** Ends stage `name` now (served from the memo when `reused`) and reports it. */
  lap(name: EngineStage, reused?: boolean): void;
  readonly stageMs: Record<string, number>;
  readonly reusedStages: EngineStage[];
}

export function stageClock(onStage: ((stage: EngineStage, index: number) => void) | undefined): StageClock {
  const stageMs: Record<string, number> = {};
  const reusedStages: EngineStage[] = [];
  let t = now();
  return {
    stageMs,
    reusedStages,
    lap(name, reused = false) {
      const t2 = now();
      stageMs[name] = t2 - t;
      t = t2;
      if (reused) reusedStages.push(name);
      onStage?.(name, ENGINE_STAGES.indexOf(name));
    },
  };
}

/** What a memo slot's stage group depends on, and the stages it serves. */
export interface MemoSlotSchema {
  /** The slot whose value its stages read: its key extends that slot's key (null: the first). */
  readonly after: MemoSlotName | null;
  /** Engine parameters whose values are in the key as they are. */
  readonly params: readonly (keyof EngineParams)[];
  /**
   * Engine parameters that reach the stages only through a value derived from them (with the
   * picture's facts), which memoKey takes in their place: the traced size (maxPixels), the
   * profile decided (profile), the speckle floor (minAreaPx), the profile's shape families
   * (parameterizedShapes).
   */
  readonly through: readonly (keyof EngineParams)[];
  /** The stages a hit serves (reported as reused). */
  readonly stages: readonly EngineStage[];
}

export type MemoSlotName = 'prepared' | 'labels' | 'outline' | 'fit';

/**
 * The memo's slots in pipeline order, each declaring what it depends on: the one place a stage
 * group's reuse is decided (memoKey builds every key from it; tests/engine/memo.test.ts toggles
 * every engine parameter and checks that exactly the slots declaring it, and those after them,
 * miss). A parameter no slot declares (shapeStacking; layers, read by the layers stage after the
 * shapes; maxStrokeWidthPx, read by the centre-line pass after the kept stages) only changes stages that are never kept. tracelab.strokes=auto hands
 * the lines' pixels to the regions beside them before the boundary stage: `strokes` is in the
 * outline slot's key, and with `auto` the line limit (maxStrokeWidthPx) too, as a value derived
 * from both (a toggle of the limit alone, under `none`, changes nothing kept).
 */
export const MEMO_SLOTS: Readonly<Record<MemoSlotName, MemoSlotSchema>> = {
  prepared: { after: null, params: [], through: ['maxPixels'], stages: ['resize', 'profile'] },
  labels: { after: 'prepared', params: ['maxColors', 'palette'], through: ['profile'], stages: ['palette', 'label'] },
  outline: { after: 'labels', params: ['gradients', 'strokes'], through: ['minAreaPx'], stages: ['regions', 'shading', 'boundary'] },
  fit: { after: 'outline', params: [], through: ['parameterizedShapes'], stages: ['fit'] },
};

/**
 * The key of `slot`: the key of the slot it extends, then the values of the parameters it
 * declares and of the values derived from its `through` parameters (in that order), as JSON.
 */
export function memoKey(slot: MemoSlotName, afterKey: string, params: EngineParams, ...derived: unknown[]): string {
  return `${afterKey}|${slot}:${JSON.stringify([...MEMO_SLOTS[slot].params.map((name) => params[name] ?? null), ...derived])}`;
}

/**
 * A stage group through the memo: the value stored under (slot, key) when there is one — its
 * stages are then reported as reused — else `compute`'s (which laps its own stages), stored.
 */
export function* memoised<T>(memo: MemoView, slot: string, key: string, clock: StageClock, stages: readonly EngineStage[], compute: () => Pipeline<T>): Pipeline<T> {
  const stored = memo.get<T>(slot, key);
  if (stored !== undefined) {
    for (const stage of stages) clock.lap(stage, true);
    return stored;
  }
  return memo.set(slot, key, yield* compute());
}

/** Row bands joined in order into one array of `length` (no copy for a single band). */
export function joinRows<T extends Uint8Array | Int32Array>(parts: readonly JobOutput[], length: number, make: (length: number) => T): T {
  if (parts.length === 1) return parts[0] as T;
  const out = make(length);
  let at = 0;
  for (const part of parts as T[]) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export const bytes = (length: number): Uint8Array => new Uint8Array(length);
export const int32s = (length: number): Int32Array => new Int32Array(length);

/** Milliseconds from the host's monotonic clock (0 where there is none). */
export function now(): number {
  const clock = (globalThis as { performance?: { now(): number } }).performance;
  return clock ? clock.now() : 0;
}
