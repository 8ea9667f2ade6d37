import { describe, expect, it } from 'vitest';

import { DEFAULT_VIEWER, type ViewerState } from './store.js';
import { actualSize, fitScale, MAX_SHARP_VIEW_PIXELS, MAX_ZOOM, panBy, placement, sharpWindow, stepZoom, wheelFactor, zoomAt } from './viewer-geometry.js';

const image = { width: 100, height: 50 };
const pane = { width: 400, height: 400 };
const view = (patch: Partial<ViewerState> = {}): ViewerState => ({ ...DEFAULT_VIEWER, ...patch });

describe('viewer geometry', () => {
  it('fits the whole image, centred', () => {
    expect(fitScale(image, pane)).toBe(4);
    expect(placement(view(), image, pane)).toEqual({ x: 0, y: 100, scale: 4 });
    expect(fitScale({ width: 0, height: 0 }, pane)).toBe(1);
  });

  it('steps through powers of two up to at least 32 px per pixel, and back', () => {
    let v = view();
    const levels: number[] = [];
    for (let i = 0; i < 6; i++) {
      v = { ...v, ...stepZoom(v, image, pane, 1) };
      levels.push(v.zoom);
    }
    expect(levels).toEqual([8, 16, 32, 64, MAX_ZOOM, MAX_ZOOM]);
    expect(stepZoom(view({ zoom: 32, centerX: 10, centerY: 10 }), image, pane, -1)).toEqual({ zoom: 16, centerX: 10, centerY: 10 });
    expect(stepZoom(view({ zoom: 3 }), image, pane, -1).zoom).toBe(2);
  });

  it('1:1 keeps the centre', () => {
    expect(actualSize(view(), image)).toEqual({ zoom: 1, centerX: 50, centerY: 25 });
  });

  it('zooms around the cursor: the image point under it stays put', () => {
    const before = view({ zoom: 4, centerX: 50, centerY: 25 });
    const after = { ...before, ...zoomAt(before, image, pane, 2, 100, 150) };
    const p0 = placement(before, image, pane);
    const p1 = placement(after, image, pane);
    expect((100 - p0.x) / p0.scale).toBeCloseTo((100 - p1.x) / p1.scale);
    expect((150 - p0.y) / p0.scale).toBeCloseTo((150 - p1.y) / p1.scale);
    expect(after.zoom).toBe(8);
  });

  it('pans with the pointer and keeps the centre on the image', () => {
    const moved = panBy(view({ zoom: 10, centerX: 50, centerY: 25 }), image, pane, 40, -20);
    expect(moved).toEqual({ zoom: 10, centerX: 46, centerY: 27 });
    // A fitted view pins the fit scale.
    expect(panBy(view(), image, pane, 0, 0)).toEqual({ zoom: 4, centerX: 50, centerY: 25 });
    expect(panBy(view({ zoom: 10, centerX: 50, centerY: 25 }), image, pane, 10_000, -10_000)).toEqual({ zoom: 10, centerX: 0, centerY: 50 });
  });

  it('turns wheel deltas into zoom factors (down = out)', () => {
    expect(wheelFactor(-100, 0)).toBeGreaterThan(1);
    expect(wheelFactor(100, 0)).toBeLessThan(1);
    expect(wheelFactor(3, 1)).toBeCloseTo(wheelFactor(48, 0));
  });
});

describe('sharpWindow (a zoomed large result is re-rendered, not a 1× bitmap blown up)', () => {
  const image = { width: 1000, height: 800 };
  const pane = { width: 500, height: 400 };

  it('none while a 1× bitmap is sharp enough (fitted below one device pixel per image pixel)', () => {
    expect(sharpWindow({ x: 0, y: 0, scale: 0.5 }, image, pane, 1)).toBeNull();
    expect(sharpWindow({ x: 0, y: 0, scale: 1 }, image, pane, 1)).toBeNull();
  });

  it('the visible image pixels at the screen resolution, padded out to whole pixels', () => {
    // 16×, image point (300, 200) at the pane's centre.
    const place = placement({ ...DEFAULT_VIEWER, zoom: 16, centerX: 300, centerY: 200 }, image, pane);
    const w = sharpWindow(place, image, pane, 2)!;
    expect(w).toMatchObject({ zoom: 32 });
    expect(w.left).toBeLessThanOrEqual(300 - 250 / 16);
    expect(w.left + w.width).toBeGreaterThanOrEqual(300 + 250 / 16);
    expect(w.top).toBeLessThanOrEqual(200 - 200 / 16);
    expect(w.top + w.height).toBeGreaterThanOrEqual(200 + 200 / 16);
    expect(w.width).toBeLessThanOrEqual(500 / 16 + 2);
  });

  it('stays inside the image at its edges, and under the pixel budget on a huge pane', () => {
    const atCorner = sharpWindow({ x: 100, y: 50, scale: 4 }, image, pane, 1)!;
    expect(atCorner).toMatchObject({ left: 0, top: 0, zoom: 4 });
    const huge = sharpWindow({ x: 0, y: 0, scale: 2 }, image, { width: 4000, height: 4000 }, 2)!;
    expect(huge.width * huge.height * huge.zoom ** 2).toBeLessThanOrEqual(MAX_SHARP_VIEW_PIXELS + 1);
    expect(sharpWindow({ x: 5000, y: 0, scale: 4 }, image, pane, 1)).toBeNull();
  });
});
