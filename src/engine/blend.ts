/**
 * The one rule "colour c is a blend of colours a and b": c ≈ t·a + (1 − t)·b, the way
 * anti-aliasing, a blur or a JPEG edge mixes two colours. Every stage that asks it calls this
 * module (label.ts's edge pixels and ridges, palette.ts's blend clusters and ink shades,
 * profile.ts's anti-aliasing evidence, shading.ts's shade shares, subpixel.ts's coverage).
 * In: the three colours as numbers in one colour space (sRGB channel units 0–255, or linear
 * light 0–1 for profile.ts's linear test). Out: t, the share of a in c (the projection of c − b
 * on a − b, not clamped: callers clamp or bound it), and how far c lies from the blend at a given
 * t, as a squared distance in the same units.
 * Each caller keeps its own tolerances, passed by name: the smallest |a − b|² it measures a blend
 * over (minSpanSq: below it a and b are one colour and no share is defined), the range of t it
 * accepts and the residual it allows.
 */

/**
 * The share t of a in c, the projection of c − b on a − b over |a − b|² (not clamped), or NaN
 * when |a − b|² < minSpanSq (units²).
 */
export function blendShare(cr: number, cg: number, cb: number, ar: number, ag: number, ab: number, br: number, bg: number, bb: number, minSpanSq: number): number {
  const dr = ar - br;
  const dg = ag - bg;
  const db = ab - bb;
  const len2 = dr * dr + dg * dg + db * db;
  if (len2 < minSpanSq) return NaN;
  return ((cr - br) * dr + (cg - bg) * dg + (cb - bb) * db) / len2;
}

/** |c − (b + t·(a − b))|²: how far c lies from the blend at t (units²). */
export function blendResidualSq(cr: number, cg: number, cb: number, ar: number, ag: number, ab: number, br: number, bg: number, bb: number, t: number): number {
  const er = cr - (br + t * (ar - br));
  const eg = cg - (bg + t * (ag - bg));
  const eb = cb - (bb + t * (ab - bb));
  return er * er + eg * eg + eb * eb;
}

/**
 * The same distance taken from b's side, |(c − b) − t·(a − b)|²: equal to blendResidualSq in exact
 * arithmetic, rounded differently in the last bits. palette.ts and profile.ts measure it this way;
 * kept so their output stays byte for byte what it was (one form is a measured change for later).
 */
export function blendResidualSqFromB(cr: number, cg: number, cb: number, ar: number, ag: number, ab: number, br: number, bg: number, bb: number, t: number): number {
  const er = cr - br - t * (ar - br);
  const eg = cg - bg - t * (ag - bg);
  const eb = cb - bb - t * (ab - bb);
  return er * er + eg * eg + eb * eb;
}

/** |a − b|² (units²): the span a blend of a and b is measured over. */
export function blendSpanSq(ar: number, ag: number, ab: number, br: number, bg: number, bb: number): number {
  const dr = ar - br;
  const dg = ag - bg;
  const db = ab - bb;
  return dr * dr + dg * dg + db * db;
}
