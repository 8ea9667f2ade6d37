/**
 * Parameterized shapes (processing.parameterizedShapes.*): anti-aliased, rotated fixtures come
 * back as one shape annotated with the right primitive, parameters within 1 % of the truth;
 * each family switch turns its family on and off (one test per switch); a shape that is no
 * primitive (a blob, an L, a bitten, wavy or dented near-primitive, a triangle with a rounded
 * tip) gets no annotation.
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

/** An irregular convex 4-gon (no two sides parallel) turned 23°, about 150 px across. */
const quadVertices = [turned(110.3, 100.7, 23, -62, -48), turned(110.3, 100.7, 23, 58, -63), turned(110.3, 100.7, 23, 71, 38), turned(110.3, 100.7, 23, -43, 66)] as const;
const quadImage = drawShape(220, 210, WHITE, [{ color: RED, inside: polygon(quadVertices) }]);

/** A kite (one mirror axis, two pairs of equal sides) turned 23°, 70 px across, 120 px long. */
const kiteVertices = [turned(80.4, 85.2, 23, 0, -45), turned(80.4, 85.2, 23, 35, -20), turned(80.4, 85.2, 23, 0, 75), turned(80.4, 85.2, 23, -35, -20)] as const;
const kiteImage = drawShape(170, 180, WHITE, [{ color: RED, inside: polygon(kiteVertices) }]);

/**
 * Bullet fixture: straight side `height` long at local u = 0, straight body to u = width − depth,
 * then a half-ellipse back reaching u = width; (cx, cy) is the middle of the axis.
 */
interface BulletTruth {
  readonly cx: number;
  readonly cy: number;
  readonly width: number;
  readonly height: number;
  readonly depth: number;
  readonly deg: number;
}
function bulletInside(t: BulletTruth) {
  return (x: number, y: number): boolean => {
    const [u0, v] = local(t.cx, t.cy, t.deg, x, y);
    const u = u0 + t.width / 2;
    const body = t.width - t.depth;
    if (u < 0 || Math.abs(v) > t.height / 2) return false;
    return u <= body || ((u - body) / t.depth) ** 2 + (v / (t.height / 2)) ** 2 <= 1;
  };
}
/** Elongated bullet: 130 × 80 px, semicircular back, turned 29°. */
const bullet: BulletTruth = { cx: 110.6, cy: 100.3, width: 130, height: 80, depth: 40, deg: 29 };
const bulletImage = drawShape(220, 200, WHITE, [{ color: RED, inside: bulletInside(bullet) }]);
/** Pure "D": a half disc of radius 55 (no body), turned 200°. */
const halfDisc: BulletTruth = { cx: 90.2, cy: 85.7, width: 55, height: 110, depth: 55, deg: 200 };
const halfDiscImage = drawShape(180, 170, WHITE, [{ color: RED, inside: bulletInside(halfDisc) }]);
/** Half-ellipse back deeper than the breadth: 150 × 70 px, back 95 px deep, turned 29°. */
const deepBullet: BulletTruth = { cx: 105.1, cy: 95.4, width: 150, height: 70, depth: 95, deg: 29 };
const deepBulletImage = drawShape(210, 190, WHITE, [{ color: RED, inside: bulletInside(deepBullet) }]);

/** N-pointed star fixture (first tip at `deg`). */
function starImageOf(points: number, outer: number, inner: number, deg: number) {
  const vertices = Array.from({ length: 2 * points }, (_, k) => {
    const r = k % 2 === 0 ? outer : inner;
    const a = deg * DEG + (k * Math.PI) / points;
    return [100.4 + r * Math.cos(a), 98.7 + r * Math.sin(a)] as const;
  });
  return drawShape(200, 200, WHITE, [{ color: RED, inside: polygon(vertices) }]);
}
const star3Image = starImageOf(3, 80, 30, 11);
const star4Image = starImageOf(4, 80, 34, 11);
const star6Image = starImageOf(6, 80, 50, 11);

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

/** The 4-gon of quadVertices with a bite (6 px deep, radius 12) out of its first side: concave. */
const bite = (() => {
  const [[ax, ay], [bx, by]] = quadVertices;
  const len = Math.hypot(bx - ax, by - ay);
  // Outward normal of a clockwise-on-screen polygon's side: (dy, −dx) / len.
  return { x: (ax + bx) / 2 + (6 * (by - ay)) / len, y: (ay + by) / 2 - (6 * (bx - ax)) / len };
})();
const bittenQuadImage = drawShape(220, 210, WHITE, [{ color: RED, inside: (x, y) => polygon(quadVertices)(x, y) && Math.hypot(x - bite.x, y - bite.y) > 12 }]);
/** The same 4-gon with wavy sides (±2.5 px): straight only on average. */
const wavyQuadImage = drawShape(220, 210, WHITE, [
  {
    color: RED,
    inside: (x, y) => {
      const a = Math.atan2(y - 100.7, x - 110.3);
      const [sx, sy] = [x + 2.5 * Math.cos(9 * a) * Math.cos(a), y + 2.5 * Math.cos(9 * a) * Math.sin(a)];
      return polygon(quadVertices)(sx, sy);
    },
  },
]);
/** generalVertices with its sharpest tip rounded (radius 6 px): neither a triangle nor a 4-gon. */
const roundedTipImage = (() => {
  const [a, tip, b] = [generalVertices[0], generalVertices[1], generalVertices[2]];
  const ua = [a[0] - tip[0], a[1] - tip[1]];
  const ub = [b[0] - tip[0], b[1] - tip[1]];
  const la = Math.hypot(ua[0]!, ua[1]!);
  const lb = Math.hypot(ub[0]!, ub[1]!);
  const bis = [ua[0]! / la + ub[0]! / lb, ua[1]! / la + ub[1]! / lb];
  const lbis = Math.hypot(bis[0]!, bis[1]!);
  const half = Math.acos((ua[0]! * ub[0]! + ua[1]! * ub[1]!) / (la * lb)) / 2;
  const r = 6;
  const centre = r / Math.sin(half);
  const [cx, cy] = [tip[0] + (bis[0]! / lbis) * centre, tip[1] + (bis[1]! / lbis) * centre];
  const inTriangle = polygon(generalVertices);
  return drawShape(200, 190, WHITE, [
    {
      color: RED,
      inside: (x, y) => {
        if (!inTriangle(x, y)) return false;
        // Beyond the tangent points (along the bisector), only the disc remains.
        const along = ((x - tip[0]) * bis[0]! + (y - tip[1]) * bis[1]!) / lbis;
        return along >= centre * Math.cos(half) ** 2 || Math.hypot(x - cx, y - cy) <= r;
      },
    },
  ]);
})();
/** A bullet with a dent in its round back (a 6 px deep, 30 px wide notch at the tip). */
const dentedBulletImage = drawShape(220, 200, WHITE, [
  {
    color: RED,
    inside: (x, y) => {
      const [u, v] = local(bullet.cx, bullet.cy, bullet.deg, x, y);
      return bulletInside(bullet)(x, y) && !(u > bullet.width / 2 - 6 && Math.abs(v) < 15);
    },
  },
]);

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

/** Each true vertex has its own fitted vertex within 1 % of the size; order clockwise on screen. */
function expectQuadrilateral(p: ShapePrimitive | undefined, want: readonly (readonly [number, number])[]): void {
  expect(p?.family).toBe('quadrilateral');
  if (p?.family !== 'quadrilateral') return;
  expect(p.vertices).toHaveLength(4);
  let size = 0;
  for (const [ax, ay] of want) for (const [bx, by] of want) size = Math.max(size, Math.hypot(bx - ax, by - ay));
  const match = want.map(([x, y]) => {
    let best = 0;
    for (let i = 1; i < 4; i++) if (Math.hypot(p.vertices[i]![0] - x, p.vertices[i]![1] - y) < Math.hypot(p.vertices[best]![0] - x, p.vertices[best]![1] - y)) best = i;
    return best;
  });
  expect(new Set(match).size).toBe(4);
  want.forEach(([x, y], k) => expect(Math.hypot(p.vertices[match[k]!]![0] - x, p.vertices[match[k]!]![1] - y) / size).toBeLessThan(0.01));
  // Same cyclic order as the (clockwise) truth.
  for (let k = 0; k < 4; k++) expect(match[(k + 1) % 4]).toBe((match[k]! + 1) % 4);
  const cx = want.reduce((a, [x]) => a + x, 0) / 4;
  const cy = want.reduce((a, [, y]) => a + y, 0) / 4;
  expect(Math.hypot(p.cx - cx, p.cy - cy) / size).toBeLessThan(0.01);
  expect(angleGap(p.rotationDeg, Math.atan2(p.vertices[0]![1] - p.cy, p.vertices[0]![0] - p.cx) / DEG, 360)).toBeLessThan(1e-6);
}

function expectBullet(result: TraceResult, want: BulletTruth): void {
  const shape = only(result);
  const p = shape.primitive;
  expect(p?.family).toBe('bullet');
  if (p?.family !== 'bullet') return;
  const size = Math.max(want.width, want.height);
  expect(Math.hypot(p.cx - want.cx, p.cy - want.cy) / size).toBeLessThan(0.01);
  expect(rel(p.width, want.width)).toBeLessThan(0.01);
  expect(rel(p.height, want.height)).toBeLessThan(0.01);
  expect(rel(p.depth, want.depth)).toBeLessThan(0.01);
  expect(angleGap(p.rotationDeg, want.deg, 360)).toBeLessThan(1);
  // Straight pieces and the back as two elliptical quarter arcs (rx: depth along the axis).
  const segments = result.chains[shape.outer[0]!.chain]!.segments.toSegments();
  const arcs = segments.filter((s) => s.kind === 'arc');
  expect(arcs).toHaveLength(2);
  for (const a of arcs) if (a.kind === 'arc') expect([a.rx, a.ry, a.rotationDeg]).toEqual([p.depth, p.height / 2, p.rotationDeg]);
  expect(segments.filter((s) => s.kind === 'line')).toHaveLength(p.width - p.depth > 0 ? 3 : 1);
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
    const segments = result.chains[shape.outer[0]!.chain]!.segments.toSegments();
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
    expect(result.chains[shape.outer[0]!.chain]!.segments.toSegments().every((s) => s.kind === 'line')).toBe(true);
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
    const segments = result.chains[shape.outer[0]!.chain]!.segments.toSegments();
    expect(segments).toHaveLength(10);
    for (const s of segments) {
      const r = Math.hypot(s.x - p.cx, s.y - p.cy);
      expect(Math.min(Math.abs(r - p.outerRadius), Math.abs(r - p.innerRadius))).toBeLessThan(1e-9);
    }
  });

  it('an irregular convex 4-gon turned 23° is one quadrilateral through its four vertices', () => {
    const result = traceImage(quadImage, params());
    const shape = only(result);
    expectQuadrilateral(shape.primitive, quadVertices);
    if (shape.primitive?.family !== 'quadrilateral') return;
    // Written as four lines through the exact vertices.
    const chain = result.chains[shape.outer[0]!.chain]!;
    expect(chain.segments).toHaveLength(4);
    expect(chain.segments.toSegments().every((s) => s.kind === 'line')).toBe(true);
    const ends = chain.segments.toSegments().map((s) => [s.x, s.y]);
    for (const v of shape.primitive.vertices) expect(ends.some(([x, y]) => x === v[0] && y === v[1])).toBe(true);
  });

  it('a kite turned 23° is one quadrilateral', () => {
    expectQuadrilateral(only(traceImage(kiteImage, params())).primitive, kiteVertices);
  });

  it('a bullet (straight side, straight body, semicircular back) turned 29° is one bullet', () => {
    expectBullet(traceImage(bulletImage, params()), bullet);
  });

  it('a half disc "D" turned 200° is one bullet without a body', () => {
    const result = traceImage(halfDiscImage, params());
    expectBullet(result, halfDisc);
    const p = only(result).primitive;
    if (p?.family === 'bullet') expect(p.width).toBe(p.depth);
  });

  it('a bullet whose back is a deep half-ellipse, turned 29°, is one bullet with that depth', () => {
    expectBullet(traceImage(deepBulletImage, params()), deepBullet);
  });

  it('3-, 4- and 6-pointed stars are stars with their number of points', () => {
    for (const [image, points] of [[star3Image, 3], [star4Image, 4], [star6Image, 6]] as const) {
      const p = only(traceImage(image, params())).primitive;
      expect(p?.family).toBe('star');
      if (p?.family === 'star') expect(p.points).toBe(points);
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

  it('a 4-gon with a bite or wavy sides, a triangle with a rounded tip and a dented bullet stay curves', () => {
    expect(only(traceImage(bittenQuadImage, params())).primitive).toBeUndefined();
    expect(only(traceImage(roundedTipImage, params())).primitive).toBeUndefined();
    expect(only(traceImage(wavyQuadImage, params())).primitive).toBeUndefined();
    expect(only(traceImage(dentedBulletImage, params())).primitive).toBeUndefined();
  });
});

describe('parameterized shapes: switches', () => {
  const familyOf = (image: typeof circleImage, off: Partial<ParameterizedShapeSwitches> = {}) => only(traceImage(image, params(off))).primitive?.family;

  it('ellipse.circle.enabled: a disc is a circle only with it on', () => {
    expect(familyOf(circleImage)).toBe('circle');
    expect(familyOf(circleImage, { ellipseCircle: false })).toBeUndefined();
  });

  it('ellipse.general.enabled: an ellipse is an ellipse only with it on', () => {
    expect(familyOf(ellipseImage)).toBe('ellipse');
    expect(familyOf(ellipseImage, { ellipseGeneral: false })).toBeUndefined();
  });

  it('quadrilateral.rectangle.enabled: rectangles, rounded or not, are rectangles only with it on (never general quadrilaterals)', () => {
    expect(familyOf(rrectImage)).toBe('rectangle');
    expect(familyOf(sharpImage)).toBe('rectangle');
    expect(familyOf(rrectImage, { quadrilateralRectangle: false })).toBeUndefined();
    expect(familyOf(sharpImage, { quadrilateralRectangle: false })).toBeUndefined();
  });

  it('triangle.isosceles and triangle.general switch their own triangles off (and never give a quadrilateral)', () => {
    expect(familyOf(isoImage)).toBe('triangle');
    expect(familyOf(generalImage)).toBe('triangle');
    expect(familyOf(isoImage, { triangleIsosceles: false })).toBeUndefined();
    expect(familyOf(generalImage, { triangleGeneral: false })).toBeUndefined();
    expect(familyOf(generalImage, { triangleIsosceles: false })).toBe('triangle');
    expect(familyOf(isoImage, { triangleGeneral: false })).toBe('triangle');
  });

  it('quadrilateral.general.enabled: a 4-gon or a kite is a quadrilateral only with it on', () => {
    expect(familyOf(quadImage)).toBe('quadrilateral');
    expect(familyOf(kiteImage)).toBe('quadrilateral');
    expect(familyOf(quadImage, { quadrilateralGeneral: false })).toBeUndefined();
    expect(familyOf(kiteImage, { quadrilateralGeneral: false })).toBeUndefined();
    // The other quadrilateral switches do not touch it.
    expect(familyOf(quadImage, { quadrilateralRectangle: false, quadrilateralBullet: false })).toBe('quadrilateral');
  });

  it('quadrilateral.bullet.enabled: bullets and half discs are bullets only with it on', () => {
    expect(familyOf(bulletImage)).toBe('bullet');
    expect(familyOf(halfDiscImage)).toBe('bullet');
    expect(familyOf(bulletImage, { quadrilateralBullet: false })).toBeUndefined();
    expect(familyOf(halfDiscImage, { quadrilateralBullet: false })).toBeUndefined();
    expect(familyOf(bulletImage, { quadrilateralRectangle: false, quadrilateralGeneral: false })).toBe('bullet');
  });

  it('star.N3.enabled: a three-pointed star is a star only with it on', () => {
    expect(familyOf(star3Image, { starN4: false, starN5: false, starN6: false })).toBe('star');
    expect(familyOf(star3Image, { starN3: false })).toBeUndefined();
  });

  it('star.N4.enabled: a four-pointed star is a star only with it on', () => {
    expect(familyOf(star4Image, { starN3: false, starN5: false, starN6: false })).toBe('star');
    expect(familyOf(star4Image, { starN4: false })).toBeUndefined();
  });

  it('star.N5.enabled: a five-pointed star is a star only with it on', () => {
    expect(familyOf(starImage, { starN3: false, starN4: false, starN6: false })).toBe('star');
    expect(familyOf(starImage, { starN5: false })).toBeUndefined();
  });

  it('star.N6.enabled: a six-pointed star is a star only with it on', () => {
    expect(familyOf(star6Image, { starN3: false, starN4: false, starN5: false })).toBe('star');
    expect(familyOf(star6Image, { starN6: false })).toBeUndefined();
  });
});
