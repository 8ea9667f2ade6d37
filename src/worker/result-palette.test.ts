/**
 * What the worker tells the palette panel and the stats line about a result, from a synthetic
 * TraceResult (no engine): flat colours without the gradient shapes, gradient fills grouped by
 * ramp, and the engine's gradient counts carried only when above 0.
 */

import { describe, expect, it } from 'vitest';

import { gradientCounts } from '../api/pipeline.js';
import type { Gradient, Rgba, Shape, TraceResult } from '../engine/types.js';
import { resultGradients, resultPalette } from './vectorize.js';

const rgb = (r: number, g: number, b: number): Rgba => ({ r, g, b, a: 255 });
const ramp = (kind: 'linear' | 'radial', ...colors: Rgba[]): Gradient => {
  const stops = colors.map((color, i) => ({ offset: i / (colors.length - 1), color }));
  return kind === 'linear' ? { kind, x1: 0, y1: 0, x2: 10, y2: 0, stops } : { kind, cx: 5, cy: 5, r: 5, stops };
};

/** A result with just what the palette reads: each shape's colour, gradient and area. */
function result(shapes: { color: Rgba; areaPx: number; gradient?: Gradient }[]): TraceResult {
  return { shapes: shapes as unknown as Shape[] } as unknown as TraceResult;
}

describe('result palette and gradient fills', () => {
  const red = rgb(255, 0, 0);
  const blue = rgb(0, 0, 255);
  const shapes = [
    { color: rgb(0, 255, 0), areaPx: 50 },
    { color: rgb(128, 0, 128), areaPx: 40, gradient: ramp('linear', red, blue) },
    // Same ramp, another direction: the same fill for the panel.
    { color: rgb(128, 0, 128), areaPx: 30, gradient: { ...ramp('linear', red, blue), x2: 0, y2: 10 } as Gradient },
    { color: rgb(0, 255, 0), areaPx: 5 },
    { color: rgb(200, 200, 200), areaPx: 100, gradient: ramp('radial', rgb(255, 255, 255), rgb(128, 128, 128), rgb(0, 0, 0)) },
  ];

  it('flat colours leave the gradient shapes out (their mean colour is no colour of the picture)', () => {
    expect(resultPalette(result(shapes))).toEqual([{ hex: '#00FF00', areaPx: 55, shapes: 2 }]);
  });

  it('gradient fills: one entry per kind and ramp, largest area first, stops as #RRGGBB', () => {
    expect(resultGradients(result(shapes))).toEqual({
      gradientFills: [
        {
          kind: 'radial',
          stops: [
            { offset: 0, hex: '#FFFFFF' },
            { offset: 0.5, hex: '#808080' },
            { offset: 1, hex: '#000000' },
          ],
          areaPx: 100,
          shapes: 1,
        },
        { kind: 'linear', stops: [{ offset: 0, hex: '#FF0000' }, { offset: 1, hex: '#0000FF' }], areaPx: 70, shapes: 2 },
      ],
    });
    // No gradient shape (tracelab.gradients off, or nothing smooth): no field at all.
    expect(resultGradients(result(shapes.filter((s) => !s.gradient)))).toEqual({});
  });

  it('the gradient counts travel only when above 0', () => {
    expect(gradientCounts({ gradients: 3, smoothAreas: 4 })).toEqual({ gradients: 3, smoothAreas: 4 });
    expect(gradientCounts({ gradients: 0, smoothAreas: 2 })).toEqual({ smoothAreas: 2 });
    expect(gradientCounts({})).toEqual({});
  });
});
