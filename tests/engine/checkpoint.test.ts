/**
 * Checkpoints (hooks.checkpoint, awaited by traceImageWith; inLineRunner for a thread-less
 * driver): a trace with them gives the same bytes as traceImage, a large picture gets a
 * checkpoint between the parts of every data-parallel step (the playground's stale trace stops
 * there), and whatever a checkpoint throws ends the trace, keeping the finished stages in the memo.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_PARAMS, ENGINE_STAGES, inLineRunner, PARALLEL_MIN_PIXELS, traceImage, traceImageWith, TraceMemo } from '../../src/engine/index.js';
import type { RgbaImage } from '../../src/engine/types.js';
import { writeSvg } from '../../src/formats/svg.js';
import { DEFAULT_OUTPUT_OPTIONS } from '../../src/formats/types.js';

/** Bars and rings in four colours, anti-aliased, of about `pixels` pixels. */
function rings(pixels: number): RgbaImage {
  const width = Math.ceil(Math.sqrt(pixels * 1.25));
  const height = Math.ceil(pixels / width);
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const d = Math.hypot(x - width * 0.4, y - height * 0.5);
      const ring = Math.floor(d / 37) % 3;
      const rgb = x > width * 0.8 ? [30, 60, 200] : [[250, 245, 235], [200, 40, 50], [40, 150, 80]][ring]!;
      data.set([...rgb, 255], (y * width + x) * 4);
    }
  }
  return { width, height, data };
}

const svgOf = (result: ReturnType<typeof traceImage>) => writeSvg(result, DEFAULT_OUTPUT_OPTIONS);

describe('trace checkpoints', () => {
  it('small and large pictures: the same SVG as traceImage; a large one is checkpointed between the parts of each step', async () => {
    for (const pixels of [40_000, PARALLEL_MIN_PIXELS + 20_000]) {
      const image = rings(pixels);
      let checkpoints = 0;
      const checkpoint = async () => {
        checkpoints++;
      };
      const checked = await traceImageWith(inLineRunner(checkpoint), image, DEFAULT_ENGINE_PARAMS, { checkpoint });
      expect(svgOf(checked)).toBe(svgOf(traceImage(image, DEFAULT_ENGINE_PARAMS)));
      // Small: one per step (about two per data-parallel job); large: one per part besides.
      if (pixels < PARALLEL_MIN_PIXELS) expect(checkpoints).toBeLessThan(16);
      else expect(checkpoints).toBeGreaterThan(40);
    }
  });

  it('a checkpoint that throws ends the trace with its error; the stages finished stay in the memo', async () => {
    const image = rings(60_000);
    const memo = new TraceMemo();
    const stages: string[] = [];
    const stop = new Error('superseded');
    const trace = traceImageWith(inLineRunner(async () => undefined), image, DEFAULT_ENGINE_PARAMS, {
      memo,
      onStage: (stage) => stages.push(stage),
      checkpoint: async () => {
        if (stages.includes('regions')) throw stop;
      },
    });
    await expect(trace).rejects.toBe(stop);
    expect(stages).not.toContain('shapes');
    // The next trace of the picture (another stacking) reuses what the stopped one finished.
    const next = traceImage(image, { ...DEFAULT_ENGINE_PARAMS, shapeStacking: 'stacked' }, { memo });
    expect(next.stats.reusedStages).toEqual(ENGINE_STAGES.slice(0, 4));
    expect(svgOf(next)).toBe(svgOf(traceImage(image, { ...DEFAULT_ENGINE_PARAMS, shapeStacking: 'stacked' })));
  });
});
