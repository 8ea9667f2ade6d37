/**
 * A hand-built trace with gradient shapes (tracelab.gradients) for the format tests, and the
 * gradient formula they check readers against (written here again, independently of
 * src/formats/gradient.ts, from the definition in src/engine/types.ts).
 *
 * Page 160 × 80 (traced = input pixels), paint order = shape index:
 *   0 background  flat #f0f0f0, the whole page (cutouts: with holes for 1–4)
 *   1 A  rect (10,10)–(60,40)   LINEAR_X: x 10 → 60, red → blue (2 stops)
 *   2 B  rect (10,40)–(60,70)   LINEAR_Y: y 40 → 70, orange → purple; shares the edge y = 40 with A
 *   3 C  disc (100,40) r 25     RADIAL: centre (100,40), r 25, white → yellow (0.5) → green
 *   4 E  rect (125,50)–(155,75) a separate object equal to LINEAR_X (padded: blue all over),
 *                               with a hole for D
 *   5 D  rect (135,57)–(145,67) flat #282828, inside E
 * A and B have the same mean colour, so only their gradients tell their paints apart. Every loop
 * runs clockwise on the y-down page (interior on the right of its chains), holes the other way.
 * ELLIPTICAL is C's gradient made elliptical (withGradient puts it on C): centre (100,40), r 40
 * along 30° clockwise from +x, ry 20 across it, C's stops — so the disc of radius 25 reaches
 * t = 0.625 along the first axis and t = 1.25 (padded green) along the second.
 */
import type { Chain, ChainUse, Gradient, Rgba, Segment, Shape, TraceResult } from '../../src/engine/types.js';
import { SegmentPath } from '../../src/engine/segment-path.js';

const rgba = (r: number, g: number, b: number): Rgba => ({ r, g, b, a: 255 });

export const RED = rgba(220, 30, 30);
export const BLUE = rgba(30, 30, 220);
export const ORANGE = rgba(240, 150, 20);
export const PURPLE = rgba(120, 20, 140);
export const WHITE = rgba(255, 255, 255);
export const YELLOW = rgba(240, 200, 40);
export const GREEN = rgba(30, 140, 60);
export const BACKGROUND = rgba(240, 240, 240);
export const DARK = rgba(40, 40, 40);
/** A's and B's mean colour (the same on purpose). */
export const MEAN = rgba(125, 30, 125);

export type LinearGradient = Extract<Gradient, { kind: 'linear' }>;

export const LINEAR_X: LinearGradient = { kind: 'linear', x1: 10, y1: 25, x2: 60, y2: 25, stops: [{ offset: 0, color: RED }, { offset: 1, color: BLUE }] };
export const LINEAR_Y: LinearGradient = { kind: 'linear', x1: 35, y1: 40, x2: 35, y2: 70, stops: [{ offset: 0, color: ORANGE }, { offset: 1, color: PURPLE }] };
export const RADIAL: Gradient = {
  kind: 'radial',
  cx: 100,
  cy: 40,
  r: 25,
  stops: [{ offset: 0, color: WHITE }, { offset: 0.5, color: YELLOW }, { offset: 1, color: GREEN }],
};

export const ELLIPTICAL: Gradient = { ...RADIAL, r: 40, ry: 20, rotationDeg: 30 };

export const SHAPE = { background: 0, A: 1, B: 2, C: 3, E: 4, D: 5 } as const;

/**
 * t of `g` at traced point (x, y). Radial: u, v are the coordinates of p − c along the first axis
 * (cos θ, sin θ) and the second (−sin θ, cos θ), θ clockwise on the y-down page; t = √((u/r)² + (v/ry)²).
 */
export function expectedT(g: Gradient, x: number, y: number): number {
  if (g.kind === 'linear') return ((x - g.x1) * (g.x2 - g.x1) + (y - g.y1) * (g.y2 - g.y1)) / ((g.x2 - g.x1) ** 2 + (g.y2 - g.y1) ** 2);
  const theta = ((g.rotationDeg ?? 0) * Math.PI) / 180;
  const u = (x - g.cx) * Math.cos(theta) + (y - g.cy) * Math.sin(theta);
  const v = -(x - g.cx) * Math.sin(theta) + (y - g.cy) * Math.cos(theta);
  return Math.sqrt((u / g.r) ** 2 + (v / (g.ry ?? g.r)) ** 2);
}

/** The point of a radial gradient at `s` times its first-axis radius along that axis and `w` times ry along the second. */
export function onAxes(g: Gradient, s: number, w: number): [number, number] {
  if (g.kind !== 'radial') throw new Error('onAxes: radial gradients only');
  const theta = ((g.rotationDeg ?? 0) * Math.PI) / 180;
  const ry = g.ry ?? g.r;
  return [g.cx + s * g.r * Math.cos(theta) - w * ry * Math.sin(theta), g.cy + s * g.r * Math.sin(theta) + w * ry * Math.cos(theta)];
}

/** The colour of `g` at traced point (x, y): the stops' ramp at t, padded (sRGB, unrounded). */
export function expectedColor(g: Gradient, x: number, y: number): [number, number, number] {
  const t = expectedT(g, x, y);
  const s = g.stops;
  if (t <= s[0]!.offset) return channels(s[0]!.color);
  if (t >= s[s.length - 1]!.offset) return channels(s[s.length - 1]!.color);
  let i = 1;
  while (s[i]!.offset <= t) i++;
  const u = (t - s[i - 1]!.offset) / (s[i]!.offset - s[i - 1]!.offset);
  const a = channels(s[i - 1]!.color);
  const b = channels(s[i]!.color);
  return [0, 1, 2].map((k) => a[k]! + (b[k]! - a[k]!) * u) as [number, number, number];
}

function channels(c: Rgba): [number, number, number] {
  return [c.r, c.g, c.b];
}

const line = (x: number, y: number): Segment => ({ kind: 'line', x, y });

function chain(startX: number, startY: number, segments: Segment[], right: number, left: number, closed: boolean): Chain {
  return { startX, startY, segments: SegmentPath.of(segments), rightRegion: right, leftRegion: left, closed };
}

/** A closed clockwise rectangle chain (y down): interior `inside` on its right, `outside` on its left. */
function rectChain(x0: number, y0: number, x1: number, y1: number, inside: number, outside: number): Chain {
  return chain(x0, y0, [line(x1, y0), line(x1, y1), line(x0, y1), line(x0, y0)], inside, outside, true);
}

const fwd = (c: number): ChainUse => ({ chain: c, reversed: false });
const rev = (c: number): ChainUse => ({ chain: c, reversed: true });

/** The fixture (see the module header); `stacked` lays shapes on the shapes they lie in instead of cutting holes. */
export function gradientTrace(stacking: 'cutouts' | 'stacked' = 'cutouts'): TraceResult {
  const stacked = stacking === 'stacked';
  const chains: Chain[] = [
    /* 0 */ rectChain(0, 0, 160, 80, 0, -1),
    /* 1 A without the shared edge: (10,40) ↑ (10,10) → (60,10) ↓ (60,40) */ chain(10, 40, [line(10, 10), line(60, 10), line(60, 40)], 1, 0, false),
    /* 2 A | B, A above: (60,40) ← (10,40) */ chain(60, 40, [line(10, 40)], 1, 2, false),
    /* 3 B without the shared edge: (60,40) ↓ (60,70) ← (10,70) ↑ (10,40) */ chain(60, 40, [line(60, 70), line(10, 70), line(10, 40)], 2, 0, false),
    /* 4 C: two half circles, clockwise */ chain(125, 40, [arc(75, 40), arc(125, 40)], 3, 0, true),
    /* 5 E */ rectChain(125, 50, 155, 75, 4, 0),
    /* 6 D */ rectChain(135, 57, 145, 67, 5, 4),
  ];
  const shape = (region: number, color: Rgba, outer: ChainUse[], holes: ChainUse[][], parent: number, gradient?: Gradient): Shape => ({
    region,
    color,
    ...(gradient ? { gradient } : {}),
    outer,
    holes: stacked ? [] : holes,
    areaPx: 0,
    parent,
  });
  const equalToLinearX: Gradient = { ...LINEAR_X, stops: LINEAR_X.stops.map((s) => ({ ...s, color: { ...s.color } })) };
  const shapes: Shape[] = [
    shape(0, BACKGROUND, [fwd(0)], [[rev(3), rev(1)], [rev(4)], [rev(5)]], -1),
    shape(1, MEAN, [fwd(1), fwd(2)], [], 0, LINEAR_X),
    shape(2, MEAN, [rev(2), fwd(3)], [], 0, LINEAR_Y),
    shape(3, YELLOW, [fwd(4)], [], 0, RADIAL),
    shape(4, BLUE, [fwd(5)], [[rev(6)]], 0, equalToLinearX),
    shape(5, DARK, [fwd(6)], [], 4),
  ];
  return {
    width: 160,
    height: 80,
    inputWidth: 160,
    inputHeight: 80,
    shapeStacking: stacking,
    chains,
    shapes,
    stats: { colors: 6, regions: 6, chains: chains.length, profile: 'flat', stageMs: {}, gradients: 4 },
  };
}

function arc(x: number, y: number): Segment {
  return { kind: 'arc', rx: 25, ry: 25, rotationDeg: 0, largeArc: false, sweep: true, x, y };
}

/** The same trace with `gradient` on shape `shape` (e.g. ELLIPTICAL on C). */
export function withGradient(result: TraceResult, shape: number, gradient: Gradient): TraceResult {
  return { ...result, shapes: result.shapes.map((s, i) => (i === shape ? { ...s, gradient } : s)) };
}

/** The same trace with every gradient removed (flat shapes in their mean colours). */
export function withoutGradients(result: TraceResult): TraceResult {
  return { ...result, shapes: result.shapes.map(({ gradient: _gradient, ...flat }) => flat) };
}
