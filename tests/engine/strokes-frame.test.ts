/**
 * tracelab.strokes=centerline on a picture framed by a thin line along its border (a flag with a
 * 1-px outline; src/engine/strokes/index.ts, paperInsideFrame): the frame's colour holds the
 * border, but the paper is the white inside it. Taken for the paper, the frame made the white
 * ink: every white area came back as outline strokes along its neighbours' (drawn twice), and the
 * frame was lost.
 */
import { describe, expect, it } from 'vitest';

import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import type { RgbaImage, TraceResult } from '../../src/engine/types.js';
import { drawShape, rect } from '../helpers/raster.js';

const WIDTH = 200;
const HEIGHT = 120;

/** White paper, two wide blue blocks (outlined: wider than a line) and a 6-px black bar, inside a `framePx` grey frame on the border. */
function framed(framePx: number): RgbaImage {
  const frame = (x: number, y: number): boolean => x < framePx || y < framePx || x >= WIDTH - framePx || y >= HEIGHT - framePx;
  return drawShape(WIDTH, HEIGHT, [255, 255, 255], [
    { color: [150, 150, 150], inside: frame },
    { color: [30, 30, 160], inside: rect(20, 20, 90, 100) },
    { color: [30, 30, 160], inside: rect(110, 20, 180, 60) },
    { color: [0, 0, 0], inside: rect(110, 80, 180, 86) },
  ]);
}

function centerline(image: RgbaImage): TraceResult {
  return traceImage(image, { ...DEFAULT_ENGINE_PARAMS, strokes: 'centerline' });
}

const isWhite = (s: { color: { r: number; g: number; b: number } }): boolean => s.color.r > 240 && s.color.g > 240 && s.color.b > 240;
const isGrey = (s: { color: { r: number; g: number; b: number } }): boolean => Math.abs(s.color.r - 150) < 30 && Math.abs(s.color.b - 150) < 30;

describe('tracelab.strokes=centerline: a picture framed by a thin line', () => {
  it('a 2-px frame: the white inside it is the paper (no white strokes) and the frame is drawn, a centre-line 2 px wide', () => {
    const strokes = centerline(framed(2)).strokes!;
    // Taken for the paper, the frame left the white as ink: outlined, along the blue blocks' outlines.
    expect(strokes.filter(isWhite)).toHaveLength(0);
    const frame = strokes.filter(isGrey);
    expect(frame.length).toBeGreaterThanOrEqual(1);
    for (const s of frame) expect(s.widthPx).toBeCloseTo(2, 0);
    // The blocks' two outlines and the bar's centre-line.
    expect(strokes.filter((s) => s.color.b > 120 && s.color.r < 80 && s.outline)).toHaveLength(2);
    expect(strokes.filter((s) => s.color.r < 40 && s.color.b < 40 && !s.outline)).toHaveLength(1);
  });

  it('a border 5 px wide (over 3 px, a band, not a frame) is still taken for the paper: the white is ink', () => {
    const strokes = centerline(framed(5)).strokes!;
    expect(strokes.filter(isGrey)).toHaveLength(0);
    expect(strokes.filter(isWhite).length).toBeGreaterThanOrEqual(1);
  });
});
