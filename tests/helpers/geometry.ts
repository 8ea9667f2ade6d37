/** Walks fitted chains and samples points along every segment (for geometric assertions). */
import type { Chain, Segment, TraceResult } from '../../src/engine/types.js';

export function sampleChain(chain: Chain, perSegment = 16): [number, number][] {
  const pts: [number, number][] = [[chain.startX, chain.startY]];
  let x = chain.startX;
  let y = chain.startY;
  for (const s of chain.segments) {
    for (let i = 1; i <= perSegment; i++) pts.push(pointOn(s, x, y, i / perSegment));
    x = s.x;
    y = s.y;
  }
  return pts;
}

function pointOn(s: Segment, x0: number, y0: number, t: number): [number, number] {
  const mt = 1 - t;
  switch (s.kind) {
    case 'line':
      return [x0 + (s.x - x0) * t, y0 + (s.y - y0) * t];
    case 'quad':
      return [mt * mt * x0 + 2 * mt * t * s.cx + t * t * s.x, mt * mt * y0 + 2 * mt * t * s.cy + t * t * s.y];
    case 'cubic':
      return [
        mt ** 3 * x0 + 3 * mt * mt * t * s.c1x + 3 * mt * t * t * s.c2x + t ** 3 * s.x,
        mt ** 3 * y0 + 3 * mt * mt * t * s.c1y + 3 * mt * t * t * s.c2y + t ** 3 * s.y,
      ];
    case 'arc': {
      // Only circular arcs of up to 180° with rotation 0 are produced by the engine today.
      const mx = (x0 + s.x) / 2;
      const my = (y0 + s.y) / 2;
      const dx = s.x - x0;
      const dy = s.y - y0;
      const half = Math.hypot(dx, dy) / 2;
      const h = Math.sqrt(Math.max(0, s.rx * s.rx - half * half));
      const sign = s.sweep === s.largeArc ? -1 : 1;
      const cx = mx + (sign * h * -dy) / (2 * half);
      const cy = my + (sign * h * dx) / (2 * half);
      const a0 = Math.atan2(y0 - cy, x0 - cx);
      let a1 = Math.atan2(s.y - cy, s.x - cx);
      if (s.sweep && a1 < a0) a1 += 2 * Math.PI;
      if (!s.sweep && a1 > a0) a1 -= 2 * Math.PI;
      const a = a0 + (a1 - a0) * t;
      return [cx + s.rx * Math.cos(a), cy + s.rx * Math.sin(a)];
    }
  }
}

/** Points along stroke `stroke` of a trace, in its drawing direction (sampleChain's per segment). */
export function strokePoints(result: TraceResult, stroke: number): [number, number][] {
  return result.strokes![stroke]!.uses.flatMap((use) => {
    const points = sampleChain(result.chains[use.chain]!);
    return use.reversed ? points.reverse() : points;
  });
}

/** Distance from (x, y) to the segment (x1, y1)–(x2, y2) (a zero-length segment: to its point). */
export function distanceToSegment(x: number, y: number, x1: number, y1: number, x2: number, y2: number): number {
  const dx = x2 - x1;
  const dy = y2 - y1;
  const length2 = dx * dx + dy * dy;
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((x - x1) * dx + (y - y1) * dy) / length2));
  return Math.hypot(x - x1 - t * dx, y - y1 - t * dy);
}
