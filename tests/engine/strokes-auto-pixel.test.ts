/**
 * tracelab.strokes=auto on pixel art (src/engine/index.ts): pixel art's lines are its cells, so
 * auto draws it as the default does — on its lattice when shown larger than its pixels, and
 * without strokes at 1:1. (Read as pen lines, a sprite's 1-cell outlines came back as round-capped
 * strokes over blurred cells: SSIM 0.76–0.84 on crawl sprites, against 0.99 by default.)
 */
import { describe, expect, it } from 'vitest';

import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import type { EngineParams, RgbaImage } from '../../src/engine/types.js';
import { writeSvg } from '../../src/formats/svg.js';

type Rgba = readonly [number, number, number, number];

const PAPER: Rgba = [250, 248, 240, 255];
const OUTLINE: Rgba = [20, 16, 24, 255];
const BODY: Rgba = [200, 60, 40, 255];
const SHINE: Rgba = [250, 190, 90, 255];

/**
 * A 24×24-cell sprite: a 1-cell dark outline around a red diamond with a light patch, the kind of
 * thin line of constant width auto turns into a stroke elsewhere; each cell `scale` px square.
 */
function outlinedSprite(scale: number): RgbaImage {
  const cells = 24;
  const cellColor = (cx: number, cy: number): Rgba => {
    const d = Math.abs(cx - 11.5) + Math.abs(cy - 11.5);
    if (d > 10) return PAPER;
    if (d > 9) return OUTLINE;
    return cx < 10 && cy < 10 ? SHINE : BODY;
  };
  const size = cells * scale;
  const data = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) data.set(cellColor(Math.floor(x / scale), Math.floor(y / scale)), (y * size + x) * 4);
  return { width: size, height: size, data };
}

const params = (strokes: EngineParams['strokes']): EngineParams => ({ ...DEFAULT_ENGINE_PARAMS, strokes });

describe('tracelab.strokes=auto on pixel art', () => {
  it.each([
    ['shown ×4 (traced on its lattice)', 4],
    ['at 1:1', 1],
  ])('%s: traced as by default, no strokes', (_name, scale) => {
    const sprite = outlinedSprite(scale);
    const byDefault = traceImage(sprite, params('none'));
    const auto = traceImage(sprite, params('auto'));
    expect(byDefault.stats.profile).toBe('pixel');
    expect(auto.stats.profile).toBe('pixel');
    expect(auto.strokes ?? []).toHaveLength(0);
    expect(writeSvg(auto)).toBe(writeSvg(byDefault));
  });


  it('ink on paper at sprite size (a 1-bit ring, 40 px) is still read as a pen line', () => {
    for (const scale of [1]) {
      const cells = 40;
      const size = cells * scale;
      const data = new Uint8Array(size * size * 4);
      for (let y = 0; y < size; y++) {
        for (let x = 0; x < size; x++) {
          const [cx, cy] = [Math.floor(x / scale) + 0.5, Math.floor(y / scale) + 0.5];
          const ink = Math.abs(Math.hypot(cx - 20, cy - 20) - 14) <= 1;
          data.set(ink ? OUTLINE : PAPER, (y * size + x) * 4);
        }
      }
      const ring = { width: size, height: size, data };
      expect(traceImage(ring, params('none')).stats.profile, `×${scale}`).toBe('pixel');
      expect(traceImage(ring, params('auto')).strokes, `×${scale}`).toHaveLength(1);
    }
  });
});
