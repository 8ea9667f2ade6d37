/**
 * The data-parallel stages (jobs.ts) split into any number of parts give the same trace as the
 * in-line pipeline: results compared as JSON and as SVG bytes, over flat art, anti-aliased art,
 * pixel art, a noisy photo-like picture, 1-bit line art, transparency and a shrink to
 * input.max_pixels.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_PARAMS, runJob, traceImage, traceImageWith, type EngineJob, type JobPart, type JobRunner } from '../../src/engine/index.js';
import { splitRange } from '../../src/engine/jobs.js';
import type { EngineParams, RgbaImage, TraceResult } from '../../src/engine/types.js';
import { writeSvg } from '../../src/formats/svg.js';
import { DEFAULT_OUTPUT_OPTIONS } from '../../src/formats/types.js';

/** Runs every part in line on a structured clone of the job, as a thread would receive it. */
function cloningRunner(threads: number): JobRunner & { calls: { kind: string; parts: number }[] } {
  const calls: { kind: string; parts: number }[] = [];
  return {
    threads,
    minPixels: 0,
    calls,
    run(job: EngineJob, parts: readonly JobPart[]) {
      calls.push({ kind: job.kind, parts: parts.length });
      // Parts answered out of order on purpose: the pipeline must place them by index.
      const outputs = parts.map(() => undefined as unknown);
      for (let i = parts.length - 1; i >= 0; i--) outputs[i] = runJob(structuredClone(job), parts[i]!);
      return Promise.resolve(outputs as ReturnType<typeof runJob>[]);
    },
  };
}

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/** Discs and bars with anti-aliased edges, optional noise and a transparent corner. */
function picture(width: number, height: number, opts: { noise?: number; aliased?: boolean; transparent?: boolean; seed?: number }): RgbaImage {
  const rnd = seeded(opts.seed ?? 1);
  const data = new Uint8Array(width * height * 4);
  const discs = Array.from({ length: 6 }, () => ({ x: rnd() * width, y: rnd() * height, r: 4 + rnd() * width * 0.2, c: [rnd() * 255, rnd() * 255, rnd() * 255] }));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let rgb = [245, 240, 230];
      if ((x + 2 * y) % 97 < 9) rgb = [30, 60, 140];
      for (const d of discs) {
        const dist = Math.hypot(x + 0.5 - d.x, y + 0.5 - d.y) - d.r;
        const cover = opts.aliased ? (dist < 0 ? 1 : 0) : Math.max(0, Math.min(1, 0.5 - dist));
        rgb = rgb.map((v, k) => v * (1 - cover) + d.c[k]! * cover);
      }
      const o = (y * width + x) * 4;
      for (let k = 0; k < 3; k++) data[o + k] = Math.max(0, Math.min(255, Math.round(rgb[k]! + (rnd() - 0.5) * (opts.noise ?? 0))));
      data[o + 3] = opts.transparent && x + y < width / 4 ? 0 : 255;
    }
  }
  return { width, height, data };
}

/** Black discs and a one-pixel diagonal on white, one sample per pixel (a 1-bit drawing). */
function bilevel(width: number, height: number): RgbaImage {
  const rnd = seeded(11);
  const discs = Array.from({ length: 5 }, () => ({ x: rnd() * width, y: rnd() * height, r: 6 + rnd() * width * 0.15 }));
  const data = new Uint8Array(width * height * 4).fill(255);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let ink = x === y + 7;
      for (const d of discs) if (Math.hypot(x + 0.5 - d.x, y + 0.5 - d.y) < d.r) ink = !ink;
      if (ink) data.fill(0, (y * width + x) * 4, (y * width + x) * 4 + 3);
    }
  }
  return { width, height, data };
}

function comparable(result: TraceResult): string {
  return JSON.stringify({ ...result, stats: { ...result.stats, stageMs: {} } });
}

const CASES: [string, RgbaImage, Partial<EngineParams>][] = [
  ['anti-aliased art', picture(160, 120, {}), {}],
  ['pixel art', picture(90, 70, { aliased: true }), {}],
  ['noisy photo-like picture', picture(150, 110, { noise: 60, seed: 7 }), {}],
  ['transparency, stacked', picture(130, 100, { transparent: true, seed: 3 }), { shapeStacking: 'stacked' }],
  ['shrunk to input.max_pixels', picture(211, 157, { seed: 5 }), { maxPixels: 12_000 }],
  ['1-bit line art', bilevel(180, 140), {}],
];

describe('traces split across threads', () => {
  for (const [name, image, overrides] of CASES) {
    it(`${name}: identical result and SVG bytes with 2, 3 and 7 threads`, async () => {
      const params = { ...DEFAULT_ENGINE_PARAMS, ...overrides };
      const inline = traceImage(image, params);
      const expected = comparable(inline);
      for (const threads of [2, 3, 7]) {
        const runner = cloningRunner(threads);
        const split = await traceImageWith(runner, image, params);
        expect(comparable(split)).toBe(expected);
        expect(writeSvg(split, DEFAULT_OUTPUT_OPTIONS)).toBe(writeSvg(inline, DEFAULT_OUTPUT_OPTIONS));
        // The stages really were split (so this test can fail when a split changes the result).
        const shrunk = params.maxPixels < image.width * image.height;
        const linked = inline.stats.profile !== 'pixel';
        expect(runner.calls.map((c) => c.kind)).toEqual([...(shrunk ? ['shrink'] : []), 'spread', 'label', ...(linked ? ['links'] : []), 'fit']);
        for (const call of runner.calls) expect(call.parts).toBeGreaterThan(1);
      }
    });
  }

  it('small images stay in line (no thread round trip below minPixels)', async () => {
    const runner = { ...cloningRunner(4), minPixels: 1_000_000 };
    await traceImageWith(runner, picture(60, 40, {}), DEFAULT_ENGINE_PARAMS);
    expect(runner.calls).toEqual([]);
  });

  it('a failing runner fails the trace with its error', async () => {
    const runner: JobRunner = { threads: 2, minPixels: 0, run: () => Promise.reject(new Error('thread died')) };
    await expect(traceImageWith(runner, picture(60, 40, {}), DEFAULT_ENGINE_PARAMS)).rejects.toThrow('thread died');
  });
});

describe('splitRange', () => {
  it('covers [0, total) with contiguous non-empty ranges', () => {
    for (const [total, parts] of [[1, 4], [10, 3], [100, 7], [5, 5], [3, 10]] as const) {
      const ranges = splitRange(total, parts);
      expect(ranges[0]!.from).toBe(0);
      expect(ranges[ranges.length - 1]!.to).toBe(total);
      for (let i = 1; i < ranges.length; i++) expect(ranges[i]!.from).toBe(ranges[i - 1]!.to);
      for (const r of ranges) expect(r.to).toBeGreaterThan(r.from);
      expect(ranges.length).toBeLessThanOrEqual(parts);
    }
  });

  it('balances by weight: one heavy item gets a part of its own', () => {
    const weights = [1, 1, 1, 100, 1, 1, 1, 1];
    const prefix = [0];
    for (const w of weights) prefix.push(prefix[prefix.length - 1]! + w);
    const ranges = splitRange(weights.length, 3, (i) => prefix[i]!);
    expect(ranges.some((r) => r.from <= 3 && r.to === 4)).toBe(true);
  });
});

describe('test pictures cover every profile', () => {
  it('flat, pixel, photo and line art', () => {
    const profiles = CASES.map(([, image, overrides]) => traceImage(image, { ...DEFAULT_ENGINE_PARAMS, ...overrides }).stats.profile);
    expect(new Set(profiles)).toEqual(new Set(['flat', 'pixel', 'photo', 'lineart']));
  });
});
