/**
 * The one blend rule (src/engine/blend.ts): colour c as t·a + (1 − t)·b, the share t of a and how
 * far c lies from that blend, with each caller's smallest span passed by name.
 */
import { describe, expect, it } from 'vitest';
import { blendResidualSq, blendResidualSqFromB, blendShare, blendSpanSq } from '../../src/engine/blend.js';

describe('blendShare and blendResidualSq', () => {
  it('a pixel a quarter of the way from white to red is a blend with a quarter of red, on the line', () => {
    // 0.25·red + 0.75·white = (255, 191.25, 191.25).
    const t = blendShare(255, 191.25, 191.25, 255, 0, 0, 255, 255, 255, 1);
    expect(t).toBe(0.25);
    expect(blendResidualSq(255, 191.25, 191.25, 255, 0, 0, 255, 255, 255, t)).toBe(0);
  });

  it('the share is the projection, not clamped: beyond a it exceeds 1, beyond b it is negative', () => {
    expect(blendShare(20, 20, 20, 10, 10, 10, 0, 0, 0, 1)).toBe(2);
    expect(blendShare(-10, -10, -10, 10, 10, 10, 0, 0, 0, 1)).toBe(-1);
  });

  it('off the line the residual is the squared distance to the blend at t (either side measured)', () => {
    // c = (50, 50, 10) against black → (100, 100, 0): t = 0.5, off by 10 in blue.
    const t = blendShare(50, 50, 10, 100, 100, 0, 0, 0, 0, 1);
    expect(t).toBe(0.5);
    expect(blendResidualSq(50, 50, 10, 100, 100, 0, 0, 0, 0, t)).toBe(100);
    expect(blendResidualSqFromB(50, 50, 10, 100, 100, 0, 0, 0, 0, t)).toBe(100);
  });

  it('colours closer than the caller’s smallest span have no share (NaN), and the span is |a − b|²', () => {
    expect(blendSpanSq(100, 100, 100, 100, 100, 130)).toBe(900);
    expect(blendShare(100, 100, 110, 100, 100, 100, 100, 100, 130, 48 * 48)).toBeNaN();
    expect(blendShare(100, 100, 110, 100, 100, 100, 100, 100, 130, 1)).toBeCloseTo(2 / 3, 12);
  });
});
