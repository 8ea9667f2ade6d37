/**
 * The shapes issue's logo fixture: a 500 px anti-aliased logo in two colours with a 1 px dark
 * outline, on white. It is flat art (curves, not the pixel lattice), keeps at most four fill
 * colours (no edge shades as colours) and its gap filler has one colour per pair of touching fills.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import type { TraceResult } from '../../src/engine/types.js';
import { buildPlan, type PlanItem, type StrokeItem } from '../../src/formats/plan.js';
import { DEFAULT_OUTPUT_OPTIONS } from '../../src/formats/types.js';
import { drawShape, type Rgb } from '../helpers/raster.js';

const WHITE: Rgb = [255, 255, 255];
const BLUE: Rgb = [21, 101, 192];
const ORANGE: Rgb = [245, 140, 20];
const OUTLINE: Rgb = [17, 17, 17];

/** Inside a blob (a wobbly disc) centred at (cx, cy); `grow` widens it (for the outline ring). */
const blob = (cx: number, cy: number, r: number, grow = 0) => (x: number, y: number) => {
  const a = Math.atan2(y - cy, x - cx);
  return Math.hypot(x - cx, y - cy) <= r * (1 + 0.12 * Math.sin(3 * a)) + grow;
};

function logo() {
  return drawShape(500, 500, WHITE, [
    // Each shape is drawn as a 1 px outline ring under its fill (outline = fill grown by 1 px).
    { color: OUTLINE, inside: blob(250, 240, 170, 1) },
    { color: BLUE, inside: blob(250, 240, 170) },
    { color: OUTLINE, inside: blob(250, 250, 70, 1) },
    { color: ORANGE, inside: blob(250, 250, 70) },
  ]);
}

function strokes(items: readonly PlanItem[]): StrokeItem[] {
  return items.flatMap((i) => (i.kind === 'group' ? strokes(i.items) : i.kind === 'stroke' ? [i] : []));
}

describe('anti-aliased two-colour logo with a 1 px outline', () => {
  const result: TraceResult = traceImage(logo(), DEFAULT_ENGINE_PARAMS);

  it('is traced with curves, not on the pixel lattice', () => {
    expect(result.stats.profile).toBe('flat');
    const curves = result.chains.flatMap((c) => c.segments.toSegments()).filter((s) => s.kind !== 'line').length;
    expect(curves).toBeGreaterThan(10);
  });

  it('has at most four fill colours', () => {
    const fills = new Set(result.shapes.map((s) => `${s.color.r},${s.color.g},${s.color.b}`));
    expect(fills.size).toBeLessThanOrEqual(4);
    expect(result.stats.colors).toBeLessThanOrEqual(4);
  });

  it('has at most one gap-filler colour per pair of neighbouring fills', () => {
    const colorOf = (region: number) => {
      const c = result.shapes.find((s) => s.region === region)!.color;
      return `${c.r},${c.g},${c.b}`;
    };
    const pairs = new Set<string>();
    for (const chain of result.chains) {
      if (chain.leftRegion < 0 || chain.rightRegion < 0) continue;
      const a = colorOf(chain.leftRegion);
      const b = colorOf(chain.rightRegion);
      if (a !== b) pairs.add([a, b].sort().join('|'));
    }
    const plan = buildPlan(result, DEFAULT_OUTPUT_OPTIONS);
    const fillerColors = new Set(strokes(plan.items).filter((s) => s.role === 'gap_filler').map((s) => `${s.color.r},${s.color.g},${s.color.b}`));
    expect(fillerColors.size).toBeGreaterThan(0);
    expect(fillerColors.size).toBeLessThanOrEqual(pairs.size);
  });
});
