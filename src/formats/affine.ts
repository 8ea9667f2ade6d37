/**
 * 2-D affine maps as the output formats write them.
 * In/out: six numbers [a, b, c, d, e, f] mapping (x, y) to (a·x + c·y + e, b·x + d·y + f) — the
 * order of SVG's matrix(), PDF's /Matrix and `cm`, PostScript matrices and canvas setTransform.
 * Pure functions; no I/O.
 */

export type Affine = readonly [number, number, number, number, number, number];

/** The map that applies `inner` first, then `outer`. */
export function composeAffine(outer: Affine, inner: Affine): Affine {
  const [a, b, c, d, e, f] = outer;
  const [a2, b2, c2, d2, e2, f2] = inner;
  return [a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2, a * e2 + c * f2 + e, b * e2 + d * f2 + f];
}

/** The inverse map; undefined when the map is singular (or not finite). */
export function invertAffine(m: Affine): Affine | undefined {
  const [a, b, c, d, e, f] = m;
  const det = a * d - b * c;
  if (!(det !== 0) || !Number.isFinite(det)) return undefined;
  return [d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det];
}

/** The axis-aligned map x' = ox + sx·x, y' = oy + sy·y (the page and device maps). */
export function axisAffine(sx: number, sy: number, ox: number, oy: number): Affine {
  return [sx, 0, 0, sy, ox, oy];
}
