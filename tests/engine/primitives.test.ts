/**
 * Parameterized shapes (processing.parameterizedShapes.*): anti-aliased, rotated fixtures come
 * back as one shape annotated with the right primitive, parameters within 1 % of the truth;
 * each family switch turns its family off; a shape that is no primitive gets no annotation.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import type { EngineParams, ParameterizedShapeSwitches, Shape, ShapePrimitive, TraceResult } from '../../src/engine/types.js';
import { drawShape, type Rgb } from '../helpers/raster.js';

const WHITE: Rgb = [255, 255, 255];
const RED: Rgb = [210, 30, 40];

const params = (off: Partial<ParameterizedShapeSwitches> = {}): EngineParams => ({
  ...DEFAULT_ENGINE_PARAMS,
  parameterizedShapes: { ...DEFAULT_ENGINE_PARAMS.parameterizedShapes, ...off },
});

const DEG = Math.PI / 180;

/** Point-in-polygon (even-odd) for fixture polygons. */
function polygon(vertices: readonly (readonly [number, number])[]) {
  return (x: number, y: number): boolean => {
    let hit = false;
    for (let i = 0, j = vertices.length - 1; i < vertices.length; j = i++) {
      const [xi, yi] = vertices[i]!;
      const [xj, yj] = vertices[j]!;
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) hit = !hit;
    }
    return hit;
  };
}

/** Local frame of a shape turned by `deg` about (cx, cy). */
function local(cx: number, cy: number, deg: number, x: number, y: number): [number, number] {
  const c = Math.cos(deg * DEG);
  const s = Math.sin(deg * DEG);
  return [(x - cx) * c + (y - cy) * s, -(x - cx) * s + (y - cy) * c];
}

function turned(cx: number, cy: number, deg: number, u: number, v: number): [number, number] {
  const c = Math.cos(deg * DEG);
  const s = Math.sin(deg * DEG);
  return [cx + u * c - v * s, cy + u * s + v * c];
}

function redShapes(result: TraceResult): Shape[] {
  return result.shapes.filter((s) => Math.abs(s.color.r - RED[0]) + Math.abs(s.color.g - RED[1]) + Math.abs(s.color.b - RED[2]) < 40);
}

function only(result: TraceResult): Shape {
  const shapes = redShapes(result);
  expect(shapes).toHaveLength(1);
  return shapes[0]!;
}

/** Rotation difference in degrees modulo `period`. */
function angleGap(a: number, b: number, period: number): number {
  const d = (((a - b) % period) + period) % period;
  return Math.min(d, period - d);
}

const rel = (got: number, want: number): number => Math.abs(got - want) / want;

// --- fixtures ------------------------------------------------------------------------------

const circle = { cx: 70.3, cy: 66.8, r: 41.6 };
const circleImage = drawShape(140, 136, WHITE, [{ color: RED, inside: (x, y) => Math.hypot(x - circle.cx, y - circle.cy) <= circle.r }]);

const ellipse = { cx: 100.4, cy: 80.2, rx: 70, ry: 38, deg: 33 };
const ellipseImage = drawShape(200, 160, WHITE, [
  {
    color: RED,
    inside: (x, y) => {
      const [u, v] = local(ellipse.cx, ellipse.cy, ellipse.deg, x, y);
      return (u / ellipse.rx) ** 2 + (v / ellipse.ry) ** 2 <= 1;
    },
  },
]);

const rrect = { cx: 120.6, cy: 100.3, w: 150, h: 90, r: 16, deg: 17 };
const rrectImage = drawShape(240, 200, WHITE, [
  {
    color: RED,
    inside: (x, y) => {
      const [u, v] = local(rrect.cx, rrect.cy, rrect.deg, x, y);
      const qx = Math.abs(u) - (rrect.w / 2 - rrect.r);
      const qy = Math.abs(v) - (rrect.h / 2 - rrect.r);
      return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) <= rrect.r;
    },
  },
]);

const sharp = { cx: 80.2, cy: 70.7, w: 100, h: 60, deg: 33 };
const sharpImage = drawShape(160, 140, WHITE, [
  {
    color: RED,
    inside: (x, y) => {
      const [u, v] = local(sharp.cx, sharp.cy, sharp.deg, x, y);
      return Math.abs(u) <= sharp.w / 2 && Math.abs(v) <= sharp.h / 2;
    },
  },
]);

/** Isosceles: apex 80 px from the base, base 90 px, axis turned 17° from straight up. */
const isoVertices = [turned(90.4, 92.1, 17, 0, -50), turned(90.4, 92.1, 17, 45, 30), turned(90.4, 92.1, 17, -45, 30)] as const;
const isoImage = drawShape(180, 180, WHITE, [{ color: RED, inside: polygon(isoVertices) }]);

const generalVertices = [turned(100.2, 90.6, 33, -60, -40), turned(100.2, 90.6, 33, 70, -10), turned(100.2, 90.6, 33, -20, 55)] as const;
const generalImage = drawShape(200, 190, WHITE, [{ color: RED, inside: polygon(generalVertices) }]);

const star = { cx: 110.3, cy: 104.6, outer: 80, inner: 40, deg: 17, points: 5 };
const starVertices = Array.from({ length: 10 }, (_, k) => {
  const r = k % 2 === 0 ? star.outer : star.inner;
  const a = star.deg * DEG + (k * Math.PI) / 5;
  return [star.cx + r * Math.cos(a), star.cy + r * Math.sin(a)] as const;
});
const starImage = drawShape(220, 210, WHITE, [{ color: RED, inside: polygon(starVertices) }]);

/** A smooth blob (three and five lobes): round, but no circle, ellipse, rectangle or star. */
const blobImage = drawShape(160, 160, WHITE, [
  {
    color: RED,
    inside: (x, y) => {
      const a = Math.atan2(y - 80.3, x - 79.6);
      return Math.hypot(x - 79.6, y - 80.3) <= 50 + 7 * Math.sin(3 * a) + 4 * Math.cos(5 * a + 0.4);
    },
  },
]);
/** An L: straight sides and right angles, but six corners. */
const lImage = drawShape(140, 140, WHITE, [{ color: RED, inside: polygon([turned(70, 70, 17, -40, -45), turned(70, 70, 17, -5, -45), turned(70, 70, 17, -5, 10), turned(70, 70, 17, 40, 10), turned(70, 70, 17, 40, 45), turned(70, 70, 17, -40, 45)]) }]);

/** Every side of `got` matches a side of `want` (same vertex order up to rotation/reflection). */
function expectTriangle(p: ShapePrimitive | undefined, want: readonly (readonly [number, number])[], isosceles: boolean): void {
  expect(p?.family).toBe('triangle');
  if (p?.family !== 'triangle') return;
  expect(p.isosceles).toBe(isosceles);
  const size = Math.max(...want.map(([x, y]) => Math.hypot(x - want[0]![0], y - want[0]![1])));
  // Nearest fitted vertex to each true vertex: within 1 % of the size, and all distinct.
  const match = want.map(([x, y]) => {
    let best = 0;
    for (let i = 1; i < 3; i++) if (Math.hypot(p.vertices[i]![0] - x, p.vertices[i]![1] - y) < Math.hypot(p.vertices[best]![0] - x, p.vertices[best]![1] - y)) best = i;
    return best;
  });
  expect(new Set(match).size).toBe(3);
  want.forEach(([x, y], k) => expect(Math.hypot(p.vertices[match[k]!]![0] - x, p.vertices[match[k]!]![1] - y) / size).toBeLessThan(0.01));
  for (let k = 0; k < 3; k++) {
    const [ax, ay] = want[k]!;
    const [bx, by] = want[(k + 1) % 3]!;
    const [fx, fy] = p.vertices[match[k]!]!;
    const [gx, gy] = p.vertices[match[(k + 1) % 3]!]!;
    expect(rel(Math.hypot(gx - fx, gy - fy), Math.hypot(bx - ax, by - ay))).toBeLessThan(0.01);
    expect(angleGap(Math.atan2(gy - fy, gx - fx) / DEG, Math.atan2(by - ay, bx - ax) / DEG, 360)).toBeLessThan(1);
  }
  const cx = (want[0]![0] + want[1]![0] + want[2]![0]) / 3;
  const cy = (want[0]![1] + want[1]![1] + want[2]![1]) / 3;
  expect(Math.hypot(p.cx - cx, p.cy - cy) / size).toBeLessThan(0.01);
}

describe('parameterized shapes: detection', () => {
  it('a rotated anti-aliased disc is one circle', () => {
    const p = only(traceImage(circleImage, params())).primitive;
    expect(p?.family).toBe('circle');
    if (p?.family !== 'circle') return;
    expect(Math.hypot(p.cx - circle.cx, p.cy - circle.cy) / (2 * circle.r)).toBeLessThan(0.01);
    expect(rel(p.r, circle.r)).toBeLessThan(0.01);
  });

  it('an ellipse turned 33° is one ellipse with its axes and rotation', () => {
    const p = only(traceImage(ellipseImage, params())).primitive;
    expect(p?.family).toBe('ellipse');
    if (p?.family !== 'ellipse') return;
    expect(Math.hypot(p.cx - ellipse.cx, p.cy - ellipse.cy) / (2 * ellipse.rx)).toBeLessThan(0.01);
    expect(rel(p.rx, ellipse.rx)).toBeLessThan(0.01);
    expect(rel(p.ry, ellipse.ry)).toBeLessThan(0.01);
    expect(angleGap(p.rotationDeg, ellipse.deg, 180)).toBeLessThan(1);
  });

  it('a rounded rectangle turned 17° is one rectangle with its sides and corner radius, drawn as lines and arcs', () => {
    const result = traceImage(rrectImage, params());
    const shape = only(result);
    const p = shape.primitive;
    expect(p?.family).toBe('rectangle');
    if (p?.family !== 'rectangle') return;
    expect(Math.hypot(p.cx - rrect.cx, p.cy - rrect.cy) / rrect.w).toBeLessThan(0.01);
    expect(rel(p.width, rrect.w)).toBeLessThan(0.01);
    expect(rel(p.height, rrect.h)).toBeLessThan(0.01);
    expect(rel(p.cornerRadius, rrect.r)).toBeLessThan(0.01);
    expect(angleGap(p.rotationDeg, rrect.deg, 90)).toBeLessThan(1);
    expect(shape.outer).toHaveLength(1);
    const segments = result.chains[shape.outer[0]!.chain]!.segments;
    expect(segments.filter((s) => s.kind === 'line')).toHaveLength(4);
    const arcs = segments.filter((s) => s.kind === 'arc');
    expect(arcs).toHaveLength(4);
    for (const a of arcs) if (a.kind === 'arc') expect(a.rx).toBe(p.cornerRadius);
  });

  it('a sharp rectangle turned 33° is one rectangle with square corners', () => {
    const result = traceImage(sharpImage, params());
    const shape = only(result);
    const p = shape.primitive;
    expect(p?.family).toBe('rectangle');
    if (p?.family !== 'rectangle') return;
    expect(Math.hypot(p.cx - sharp.cx, p.cy - sharp.cy) / sharp.w).toBeLessThan(0.01);
    expect(rel(p.width, sharp.w)).toBeLessThan(0.01);
    expect(rel(p.height, sharp.h)).toBeLessThan(0.01);
    expect(p.cornerRadius).toBe(0);
    expect(angleGap(p.rotationDeg, sharp.deg, 90)).toBeLessThan(1);
    expect(result.chains[shape.outer[0]!.chain]!.segments.every((s) => s.kind === 'line')).toBe(true);
  });

  it('an isosceles triangle turned 17° is one isosceles triangle', () => {
    const p = only(traceImage(isoImage, params())).primitive;
    expectTriangle(p, isoVertices, true);
    // Vertex 0 is the apex; the rotation points from the centroid to it.
    if (p?.family !== 'triangle') return;
    expect(Math.hypot(p.vertices[0]![0] - isoVertices[0][0], p.vertices[0]![1] - isoVertices[0][1])).toBeLessThan(0.8);
    const cx = (isoVertices[0][0] + isoVertices[1][0] + isoVertices[2][0]) / 3;
    const cy = (isoVertices[0][1] + isoVertices[1][1] + isoVertices[2][1]) / 3;
    expect(angleGap(p.rotationDeg, Math.atan2(isoVertices[0][1] - cy, isoVertices[0][0] - cx) / DEG, 360)).toBeLessThan(1);
  });

  it('a general triangle turned 33° is one general triangle', () => {
    expectTriangle(only(traceImage(generalImage, params())).primitive, generalVertices, false);
  });

  it('a five-pointed star turned 17° is one star with its radii, drawn through its exact vertices', () => {
    const result = traceImage(starImage, params());
    const shape = only(result);
    const p = shape.primitive;
    expect(p?.family).toBe('star');
    if (p?.family !== 'star') return;
    expect(p.points).toBe(5);
    expect(Math.hypot(p.cx - star.cx, p.cy - star.cy) / (2 * star.outer)).toBeLessThan(0.01);
    expect(rel(p.outerRadius, star.outer)).toBeLessThan(0.01);
    expect(rel(p.innerRadius, star.inner)).toBeLessThan(0.01);
    expect(angleGap(p.rotationDeg, star.deg, 72)).toBeLessThan(1);
    const segments = result.chains[shape.outer[0]!.chain]!.segments;
    expect(segments).toHaveLength(10);
    for (const s of segments) {
      const r = Math.hypot(s.x - p.cx, s.y - p.cy);
      expect(Math.min(Math.abs(r - p.outerRadius), Math.abs(r - p.innerRadius))).toBeLessThan(1e-9);
    }
  });

  it('the background keeps sharing the primitive chain as its hole', () => {
    const result = traceImage(rrectImage, params());
    const shape = only(result);
    const chain = shape.outer[0]!.chain;
    expect(result.shapes.some((s) => s !== shape && s.holes.some((h) => h.some((u) => u.chain === chain)))).toBe(true);
  });

  it('shapes that are no primitive get no annotation', () => {
    expect(only(traceImage(blobImage, params())).primitive).toBeUndefined();
    expect(only(traceImage(lImage, params())).primitive).toBeUndefined();
  });
});

describe('parameterized shapes: switches', () => {
  const familyOf = (image: typeof circleImage, off: Partial<ParameterizedShapeSwitches>) => only(traceImage(image, params(off))).primitive?.family;

  it('ellipse.circle.enabled=false: a disc is no circle', () => {
    expect(familyOf(circleImage, { ellipseCircle: false })).toBeUndefined();
  });

  it('ellipse.general.enabled=false: an ellipse is no ellipse', () => {
    expect(familyOf(ellipseImage, { ellipseGeneral: false })).toBeUndefined();
  });

  it('quadrilateral.rectangle.enabled=false: rectangles, rounded or not, are no rectangles', () => {
    expect(familyOf(rrectImage, { quadrilateralRectangle: false })).toBeUndefined();
    expect(familyOf(sharpImage, { quadrilateralRectangle: false })).toBeUndefined();
  });

  it('triangle.isosceles and triangle.general switch their own triangles off', () => {
    expect(familyOf(isoImage, { triangleIsosceles: false })).toBeUndefined();
    expect(familyOf(generalImage, { triangleGeneral: false })).toBeUndefined();
    expect(familyOf(generalImage, { triangleIsosceles: false })).toBe('triangle');
    expect(familyOf(isoImage, { triangleGeneral: false })).toBe('triangle');
  });

  it('star.N5.enabled=false: a five-pointed star is no star', () => {
    expect(familyOf(starImage, { starN5: false })).toBeUndefined();
    expect(familyOf(starImage, { starN3: false, starN4: false, starN6: false })).toBe('star');
  });
});
