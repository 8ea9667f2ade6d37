/**
 * Curve flattening: a chain's segments as straight lines within a tolerance (px). Used where
 * only lines are wanted (gap-filler strokes now; DXF lines_only, line_fit_tolerance later).
 * Béziers are subdivided uniformly with the segment count from the control polygon's second
 * differences (a standard bound on the flattening error); arcs by angle.
 */
import type { Chain, Segment } from '../engine/types.js';

export function flattenChain(chain: Chain, tolerance: number): Chain {
  const out: Segment[] = [];
  let x = chain.startX;
  let y = chain.startY;
  for (const s of chain.segments) {
    switch (s.kind) {
      case 'line':
        out.push(s);
        break;
      case 'quad': {
        const dd = Math.hypot(x - 2 * s.cx + s.x, y - 2 * s.cy + s.y);
        const n = Math.max(1, Math.ceil(Math.sqrt(dd / (4 * tolerance))));
        for (let i = 1; i <= n; i++) {
          const t = i / n;
          const mt = 1 - t;
          out.push({ kind: 'line', x: mt * mt * x + 2 * mt * t * s.cx + t * t * s.x, y: mt * mt * y + 2 * mt * t * s.cy + t * t * s.y });
        }
        break;
      }
      case 'cubic': {
        const d1 = Math.hypot(x - 2 * s.c1x + s.c2x, y - 2 * s.c1y + s.c2y);
        const d2 = Math.hypot(s.c1x - 2 * s.c2x + s.x, s.c1y - 2 * s.c2y + s.y);
        const n = Math.max(1, Math.ceil(Math.sqrt((3 * Math.max(d1, d2)) / (4 * tolerance))));
        for (let i = 1; i <= n; i++) {
          const t = i / n;
          const mt = 1 - t;
          out.push({
            kind: 'line',
            x: mt * mt * mt * x + 3 * mt * mt * t * s.c1x + 3 * mt * t * t * s.c2x + t * t * t * s.x,
            y: mt * mt * mt * y + 3 * mt * mt * t * s.c1y + 3 * mt * t * t * s.c2y + t * t * t * s.y,
          });
        }
        break;
      }
      case 'arc':
        for (const p of flattenArc(x, y, s, tolerance)) out.push({ kind: 'line', x: p[0], y: p[1] });
        break;
    }
    x = s.x;
    y = s.y;
  }
  return { ...chain, segments: out };
}

/** SVG arc (endpoint parameterisation, F.6.5 of the SVG spec) to points, end included. */
function flattenArc(x0: number, y0: number, s: Extract<Segment, { kind: 'arc' }>, tolerance: number): [number, number][] {
  const phi = (s.rotationDeg * Math.PI) / 180;
  const cos = Math.cos(phi);
  const sin = Math.sin(phi);
  const dx = (x0 - s.x) / 2;
  const dy = (y0 - s.y) / 2;
  const x1p = cos * dx + sin * dy;
  const y1p = -sin * dx + cos * dy;
  let rx = Math.abs(s.rx);
  let ry = Math.abs(s.ry);
  if (rx < 1e-9 || ry < 1e-9) return [[s.x, s.y]];
  const lambda = (x1p * x1p) / (rx * rx) + (y1p * y1p) / (ry * ry);
  if (lambda > 1) {
    rx *= Math.sqrt(lambda);
    ry *= Math.sqrt(lambda);
  }
  const num = rx * rx * ry * ry - rx * rx * y1p * y1p - ry * ry * x1p * x1p;
  const den = rx * rx * y1p * y1p + ry * ry * x1p * x1p;
  let coef = den === 0 ? 0 : Math.sqrt(Math.max(0, num / den));
  if (s.largeArc === s.sweep) coef = -coef;
  const cxp = (coef * rx * y1p) / ry;
  const cyp = (-coef * ry * x1p) / rx;
  const cx = cos * cxp - sin * cyp + (x0 + s.x) / 2;
  const cy = sin * cxp + cos * cyp + (y0 + s.y) / 2;
  const angle = (ux: number, uy: number, vx: number, vy: number): number => Math.atan2(ux * vy - uy * vx, ux * vx + uy * vy);
  const theta1 = angle(1, 0, (x1p - cxp) / rx, (y1p - cyp) / ry);
  let delta = angle((x1p - cxp) / rx, (y1p - cyp) / ry, (-x1p - cxp) / rx, (-y1p - cyp) / ry);
  if (!s.sweep && delta > 0) delta -= 2 * Math.PI;
  if (s.sweep && delta < 0) delta += 2 * Math.PI;
  const r = Math.max(rx, ry);
  const step = 2 * Math.acos(Math.max(-1, Math.min(1, 1 - tolerance / r)));
  const n = Math.max(1, Math.ceil(Math.abs(delta) / Math.max(step, 1e-3)));
  const pts: [number, number][] = [];
  for (let i = 1; i <= n; i++) {
    const t = theta1 + (delta * i) / n;
    const px = rx * Math.cos(t);
    const py = ry * Math.sin(t);
    pts.push(i === n ? [s.x, s.y] : [cos * px - sin * py + cx, sin * px + cos * py + cy]);
  }
  return pts;
}
