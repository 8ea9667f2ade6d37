/**
 * Fast retrace (issue 14, src/engine/memo.ts): a trace that reuses the stages of an earlier trace
 * of the same picture gives exactly what a fresh trace gives, and reuses only the stages the
 * changed parameter does not affect: a colour change re-runs from the palette on, a speckle size
 * from the regions on, a shape switch only the fit, a stacking change only the shapes.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_PARAMS, runJob, traceImage, traceImageWith, TraceMemo, type JobRunner } from '../../src/engine/index.js';
import { ENGINE_STAGES, MEMO_SLOTS, type MemoSlotName } from '../../src/engine/stages.js';
import type { EngineParams, RgbaImage, TraceResult } from '../../src/engine/types.js';
import { linearScene } from '../helpers/gradient-scenes.js';

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/** Anti-aliased discs on a tinted ground with a stripe pattern; `holes` punches transparent dots. */
function flatArt(width: number, height: number, seed: number, holes = false): RgbaImage {
  const rnd = seeded(seed);
  const data = new Uint8Array(width * height * 4);
  const discs = Array.from({ length: 7 }, () => ({ x: rnd() * width, y: rnd() * height, r: 3 + rnd() * width * 0.18, c: [rnd() * 255, rnd() * 255, rnd() * 255] }));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let rgb = [240, 236, 220];
      if ((x + 2 * y) % 53 < 6) rgb = [40, 70, 150];
      for (const d of discs) {
        const cover = Math.max(0, Math.min(1, 0.5 - (Math.hypot(x + 0.5 - d.x, y + 0.5 - d.y) - d.r)));
        rgb = rgb.map((v, k) => v * (1 - cover) + d.c[k]! * cover);
      }
      const o = (y * width + x) * 4;
      for (let k = 0; k < 3; k++) data[o + k] = Math.round(rgb[k]!);
      data[o + 3] = holes && x % 30 > 12 && x % 30 < 18 && y % 30 > 12 && y % 30 < 18 ? 0 : 255;
    }
  }
  return { width, height, data };
}

/** A random 6-colour sprite shown ×3 (nearest neighbour): traced on its lattice. */
function upscaledSprite(cells: number, seed: number): RgbaImage {
  const rnd = seeded(seed);
  const colors = Array.from({ length: 6 }, () => [rnd() * 255, rnd() * 255, rnd() * 255, 255].map(Math.floor));
  const cell = Array.from({ length: cells * cells }, () => colors[Math.floor(rnd() * rnd() * 6)]!);
  const size = cells * 3;
  const data = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) data.set(cell[Math.floor(y / 3) * cells + Math.floor(x / 3)]!, (y * size + x) * 4);
  return { width: size, height: size, data };
}

/** Random 64-colour noise: too many regions, traced as photo texture (the engine's fallback). */
function noise(size: number): RgbaImage {
  const rnd = seeded(11);
  const colors = Array.from({ length: 64 }, () => [rnd() * 255, rnd() * 255, rnd() * 255, 255].map(Math.floor));
  const data = new Uint8Array(size * size * 4);
  for (let i = 0; i < size * size; i++) data.set(colors[Math.floor(rnd() * 64)]!, i * 4);
  return { width: size, height: size, data };
}

/** The result without its timings and reuse notes (which say how, not what). */
function comparable(result: TraceResult): string {
  // Timings and memo hits left out (wherever the stats hold them, so key order cannot differ).
  const { stageMs: _ms, reusedStages: _reused, ...stats } = result.stats;
  return JSON.stringify({ ...result, stats });
}

const PREPARE = ['resize', 'profile'];
const LABEL = [...PREPARE, 'palette', 'label'];
const OUTLINE = [...LABEL, 'regions', 'shading', 'boundary'];
const FIT = [...OUTLINE, 'fit'];

/** Each step changes one more parameter and names the stages it may reuse from the step before. */
const STEPS: [string, Partial<EngineParams>, string[]][] = [
  ['first trace', {}, []],
  ['the same parameters', {}, FIT],
  ['processing.max_colors', { maxColors: 4 }, PREPARE],
  ['processing.shapes.min_area_px', { maxColors: 4, minAreaPx: 40 }, LABEL],
  ['a parameterized-shape switch', { maxColors: 4, minAreaPx: 40, parameterizedShapes: { ...DEFAULT_ENGINE_PARAMS.parameterizedShapes, ellipseCircle: false } }, OUTLINE],
  ['processing.shapes.stacking', { maxColors: 4, minAreaPx: 40, parameterizedShapes: { ...DEFAULT_ENGINE_PARAMS.parameterizedShapes, ellipseCircle: false }, shapeStacking: 'stacked' }, FIT],
  ['back to the defaults', {}, PREPARE],
  ['processing.palette', { palette: [{ color: { r: 240, g: 236, b: 220, a: 255 }, tolerance: 0.2 }] }, PREPARE],
  ['input.max_pixels', { maxPixels: 5_000 }, []],
];

/** Pictures, with what the max_pixels step reuses: pixel art is traced on its cells whatever the size. */
const PICTURES: [string, () => RgbaImage, string[]][] = [
  ['flat art with transparent holes', () => flatArt(150, 110, 5, true), []],
  ['pixel art on a lattice', () => upscaledSprite(40, 9), PREPARE],
];

describe('a trace with a memo of earlier traces of the same picture', () => {
  for (const [name, make, maxPixelsReuse] of PICTURES) {
    it(`${name}: every step equals a fresh trace and reuses only the stages its change does not affect`, () => {
      const image = make();
      const memo = new TraceMemo();
      for (const [step, overrides, reusable] of STEPS) {
        const params = { ...DEFAULT_ENGINE_PARAMS, ...overrides };
        const again = traceImage(image, params, { memo });
        expect(comparable(again), step).toBe(comparable(traceImage(image, params)));
        expect(again.stats.reusedStages ?? [], step).toEqual(overrides.maxPixels ? maxPixelsReuse : reusable);
      }
    });
  }

  it('noise that falls back to photo texture: a repeat reuses the photo trace, a colour change the resize and profile', () => {
    const image = noise(400);
    const memo = new TraceMemo();
    const first = traceImage(image, DEFAULT_ENGINE_PARAMS, { memo });
    expect(first.stats.profile).toBe('photo');
    const repeat = traceImage(image, DEFAULT_ENGINE_PARAMS, { memo });
    expect(repeat.stats.reusedStages).toEqual(FIT);
    const params = { ...DEFAULT_ENGINE_PARAMS, maxColors: 12 };
    const changed = traceImage(image, params, { memo });
    expect(comparable(changed)).toBe(comparable(traceImage(image, params)));
    expect(changed.stats.reusedStages).toEqual(PREPARE);
  });

  it('another picture (even the same array read at another size, or new pixels) reuses nothing', () => {
    const memo = new TraceMemo();
    const image = flatArt(120, 90, 2);
    traceImage(image, DEFAULT_ENGINE_PARAMS, { memo });
    const other = flatArt(120, 90, 3);
    const fresh = traceImage(other, DEFAULT_ENGINE_PARAMS, { memo });
    expect(fresh.stats.reusedStages).toBeUndefined();
    expect(comparable(fresh)).toBe(comparable(traceImage(other, DEFAULT_ENGINE_PARAMS)));
    const turned = { width: 90, height: 120, data: other.data };
    expect(traceImage(turned, DEFAULT_ENGINE_PARAMS, { memo }).stats.reusedStages).toBeUndefined();
  });

  it('two interleaved traces of different pictures never store into each other', async () => {
    const memo = new TraceMemo();
    const a = flatArt(140, 100, 21);
    const b = flatArt(140, 100, 22);
    // A runner that lets the other trace run between every parallel stage.
    const yielding: JobRunner = {
      threads: 2,
      minPixels: 0,
      run: async (job, parts) => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        return parts.map((part) => runJob(job, part));
      },
    };
    const params = { ...DEFAULT_ENGINE_PARAMS, maxColors: 5 };
    await Promise.all([traceImageWith(yielding, a, params, { memo }), traceImageWith(yielding, b, params, { memo })]);
    // Whatever the memo kept, a's next trace is a's.
    const again = await traceImageWith(yielding, a, params, { memo });
    expect(comparable(again)).toBe(comparable(traceImage(a, params)));
    const changed = traceImage(a, DEFAULT_ENGINE_PARAMS, { memo });
    expect(comparable(changed)).toBe(comparable(traceImage(a, DEFAULT_ENGINE_PARAMS)));
  });
});

/**
 * Memo keys derived, not written (issue 40 item 4): every engine parameter, toggled alone from
 * the defaults, misses exactly the slots that declare it (MEMO_SLOTS, stages.ts) and the slots
 * after them, reuses every other, and gives what a fresh trace gives. The picture has a smooth
 * ramp, a disc, flat colours and speckles, so each toggle changes its output.
 */
describe("memo keys come from each slot's declared parameters", () => {
  /** A value other than the default for every engine parameter: a new parameter must be added here. */
  const TOGGLES: { readonly [K in keyof EngineParams]-?: EngineParams[K] } = {
    maxColors: 4,
    palette: [{ color: { r: 255, g: 255, b: 255, a: 255 }, tolerance: 0.2 }],
    minAreaPx: 2_000, // the disc (1,257 px) joins the paper
    maxPixels: 8_000,
    shapeStacking: 'stacked',
    parameterizedShapes: { ...DEFAULT_ENGINE_PARAMS.parameterizedShapes, ellipseCircle: false },
    gradients: true,
    layers: true,
    profile: 'photo',
    strokes: 'centerline',
    maxStrokeWidthPx: 12,
  };

  /** The stages a trace with `param` changed may reuse, from the schema alone. */
  function reusableStages(param: keyof EngineParams): string[] {
    const misses = new Set<MemoSlotName>();
    for (const [name, slot] of Object.entries(MEMO_SLOTS) as [MemoSlotName, (typeof MEMO_SLOTS)[MemoSlotName]][]) {
      if (slot.params.includes(param) || slot.through.includes(param) || (slot.after !== null && misses.has(slot.after))) misses.add(name);
    }
    const reused = new Set((Object.keys(MEMO_SLOTS) as MemoSlotName[]).filter((name) => !misses.has(name)).flatMap((name) => MEMO_SLOTS[name].stages));
    return ENGINE_STAGES.filter((stage) => reused.has(stage));
  }

  it('every parameter of the engine has a toggle here', () => {
    expect(Object.keys(TOGGLES).sort()).toEqual(Object.keys(DEFAULT_ENGINE_PARAMS).sort());
  });

  for (const param of Object.keys(TOGGLES) as (keyof EngineParams)[]) {
    it(`${param}: misses the slots that declare it and those after them, reuses the others, and gives a fresh trace's result`, () => {
      const { image } = linearScene();
      const memo = new TraceMemo();
      traceImage(image, DEFAULT_ENGINE_PARAMS, { memo });
      const params = { ...DEFAULT_ENGINE_PARAMS, [param]: TOGGLES[param] };
      const again = traceImage(image, params, { memo });
      const fresh = traceImage(image, params);
      expect(comparable(again)).toBe(comparable(fresh));
      // The toggle changes what comes out (else a missing key would go unseen), except stacking,
      // which changes only stages that are never kept, the stroke width limit, which only
      // centre-lines read, and layers, which only stacked shapes have.
      if (param !== 'shapeStacking' && param !== 'maxStrokeWidthPx' && param !== 'layers') expect(comparable(fresh)).not.toBe(comparable(traceImage(image, DEFAULT_ENGINE_PARAMS)));
      expect(again.stats.reusedStages ?? []).toEqual(reusableStages(param));
    });
  }
});

describe('tracelab.strokes=auto and the memo', () => {
  it('under auto the line limit decides which regions are lines: changing it misses the outline slot and gives a fresh trace', () => {
    // Black lines 3 and 6 px wide on white: a limit of 4 px makes one a stroke, 8 px both.
    const width = 80;
    const data = new Uint8Array(width * width * 4).fill(255);
    for (let y = 0; y < width; y++) {
      for (let x = 0; x < width; x++) {
        if ((x >= 10 && x < 70 && y >= 20 && y < 23) || (x >= 10 && x < 70 && y >= 50 && y < 56)) data.fill(0, (y * width + x) * 4, (y * width + x) * 4 + 3);
      }
    }
    const image = { width, height: width, data };
    const memo = new TraceMemo();
    const wide = { ...DEFAULT_ENGINE_PARAMS, strokes: 'auto' as const, maxStrokeWidthPx: 8 };
    const narrow = { ...wide, maxStrokeWidthPx: 4 };
    expect(traceImage(image, wide, { memo }).strokes).toHaveLength(2);
    const again = traceImage(image, narrow, { memo });
    expect(again.strokes).toHaveLength(1);
    expect(comparable(again)).toBe(comparable(traceImage(image, narrow)));
    expect(again.stats.reusedStages).toEqual(['resize', 'profile', 'palette', 'label']);
  });
});
