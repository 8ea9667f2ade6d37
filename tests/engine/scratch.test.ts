/**
 * The trace's scratch pool (src/engine/scratch.ts): a caller that hands every trace the same pool
 * gets the same bytes as fresh traces, whatever the pool's arrays last held and whatever size the
 * picture before was — on pictures the tests draw: a linear ramp (shading's bands, or a gradient
 * with tracelab.gradients), a smaller radial ramp, and small flat art with anti-aliased edges.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_PARAMS, TraceScratch, traceImage, traceImageWith, type JobRunner } from '../../src/engine/index.js';
import { runJob } from '../../src/engine/index.js';
import type { EngineParams, RgbaImage } from '../../src/engine/types.js';
import { writeSvg } from '../../src/formats/svg.js';
import { disc, drawPainted, linearScene, radialScene, turnedRect } from '../helpers/gradient-scenes.js';

const GRADIENTS_ON: EngineParams = { ...DEFAULT_ENGINE_PARAMS, gradients: true };

function flatArt(): RgbaImage {
  return drawPainted(64, 48, [250, 250, 245], [
    { paint: [200, 30, 40], inside: disc(22, 24, 14) },
    { paint: [30, 60, 170], inside: turnedRect(44, 22, 26, 12, 20) },
  ]);
}

const PICTURES: Record<string, RgbaImage> = { linear: linearScene().image, radial: radialScene().image, flat: flatArt() };

/**
 * A pool whose arrays, when lent without a fill, hold junk (as if an earlier trace left it), and
 * which counts what it lends per slot.
 */
class DirtyScratch extends TraceScratch {
  readonly lent = new Map<string, number>();
  override int32(slot: Parameters<TraceScratch['int32']>[0], length: number, fill?: number): Int32Array {
    return this.dirty(slot, super.int32(slot, length, fill), fill);
  }
  override int16(slot: Parameters<TraceScratch['int16']>[0], length: number, fill?: number): Int16Array {
    return this.dirty(slot, super.int16(slot, length, fill), fill);
  }
  override uint16(slot: Parameters<TraceScratch['uint16']>[0], length: number, fill?: number): Uint16Array {
    return this.dirty(slot, super.uint16(slot, length, fill), fill);
  }
  override float64(slot: Parameters<TraceScratch['float64']>[0], length: number, fill?: number): Float64Array {
    return this.dirty(slot, super.float64(slot, length, fill), fill);
  }
  private dirty<T extends Int32Array | Int16Array | Uint16Array | Float64Array>(slot: string, array: T, fill: number | undefined): T {
    this.lent.set(slot, (this.lent.get(slot) ?? 0) + 1);
    if (fill === undefined) array.fill(7);
    return array;
  }
}

const svgOf = (image: RgbaImage, params: EngineParams, scratch?: TraceScratch): string => writeSvg(traceImage(image, params, scratch ? { scratch } : {}));

describe('trace scratch pool', () => {
  for (const [label, params] of [['defaults', DEFAULT_ENGINE_PARAMS], ['tracelab.gradients', GRADIENTS_ON]] as const) {
    it(`traces A, B, C, A with one pool as fresh traces do (${label})`, () => {
      const fresh = Object.fromEntries(Object.entries(PICTURES).map(([name, image]) => [name, svgOf(image, params)]));
      const pool = new TraceScratch();
      for (const name of ['linear', 'radial', 'flat', 'linear', 'flat', 'radial']) expect(svgOf(PICTURES[name]!, params, pool), name).toBe(fresh[name]);
    });
  }

  it('does not depend on what the pool’s arrays held before', () => {
    const pool = new DirtyScratch();
    for (const name of ['linear', 'flat', 'radial']) expect(svgOf(PICTURES[name]!, DEFAULT_ENGINE_PARAMS, pool), name).toBe(svgOf(PICTURES[name]!, DEFAULT_ENGINE_PARAMS));
    // The palette's histograms, the label stage's and shading's per-pixel arrays were all lent.
    for (const slot of ['palette.histogramCount', 'palette.candidateOfBin', 'label.nearest', 'label.colourCache', 'shading.owner', 'shading.keyOf', 'shading.areaBand', 'shading.bandParent']) {
      expect(pool.lent.get(slot) ?? 0, slot).toBeGreaterThan(0);
    }
  });

  it('lends a slot’s array again instead of a new one', () => {
    const pool = new TraceScratch();
    const first = pool.uint16('label.colourCache', 1 << 18, 0);
    first[5] = 9;
    const again = pool.uint16('label.colourCache', 1 << 18, 0);
    expect(again.buffer).toBe(first.buffer);
    expect(again[5]).toBe(0);
    const shorter = pool.int32('label.nearest', 10, -1);
    const longer = pool.int32('label.nearest', 20);
    expect(longer.length).toBe(20);
    const view = pool.int32('label.nearest', 12);
    expect(view.length).toBe(12);
    expect(view.buffer).toBe(longer.buffer);
    expect(shorter.buffer).not.toBe(longer.buffer);
  });

  it('serves the in-line parts and the threads’ parts the same bytes', async () => {
    const pool = new TraceScratch();
    const partPool = new TraceScratch();
    // A runner whose "threads" share one pool of their own, as an engine thread does part after part.
    const runner: JobRunner = { threads: 2, minPixels: 0, run: (job, parts) => Promise.resolve(parts.map((part) => runJob(structuredClone(job), part, false, partPool))) };
    for (const name of ['linear', 'flat', 'linear']) {
      const threaded = await traceImageWith(runner, PICTURES[name]!, DEFAULT_ENGINE_PARAMS, { scratch: pool });
      expect(writeSvg(threaded), name).toBe(svgOf(PICTURES[name]!, DEFAULT_ENGINE_PARAMS));
    }
  });
});
