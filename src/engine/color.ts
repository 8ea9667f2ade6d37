/**
 * Colour maths on 8-bit sRGB: CIE Lab (D65) through a byte lookup table, and squared distances.
 * Lab is used to cluster colours perceptually; coverage maths stays in sRGB because renderers
 * (browsers, resvg) blend anti-aliased edges in sRGB, so edge pixels are sRGB mixes.
 */

const SRGB_TO_LINEAR = new Float64Array(256);
for (let i = 0; i < 256; i++) {
  const c = i / 255;
  SRGB_TO_LINEAR[i] = c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
}

function labF(t: number): number {
  return t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116;
}

/** Writes L, a, b of an sRGB colour (0–255 floats allowed) into out[offset..offset+2]. */
export function rgbToLab(r: number, g: number, b: number, out: Float64Array, offset = 0): void {
  const lr = linearOf(r);
  const lg = linearOf(g);
  const lb = linearOf(b);
  const x = (0.4124564 * lr + 0.3575761 * lg + 0.1804375 * lb) / 0.95047;
  const y = 0.2126729 * lr + 0.7151522 * lg + 0.072175 * lb;
  const z = (0.0193339 * lr + 0.119192 * lg + 0.9503041 * lb) / 1.08883;
  const fx = labF(x);
  const fy = labF(y);
  const fz = labF(z);
  out[offset] = 116 * fy - 16;
  out[offset + 1] = 500 * (fx - fy);
  out[offset + 2] = 200 * (fy - fz);
}

function linearOf(v: number): number {
  if (Number.isInteger(v) && v >= 0 && v <= 255) return SRGB_TO_LINEAR[v]!;
  const c = Math.min(255, Math.max(0, v)) / 255;
  return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
}

/** Squared Euclidean distance in Lab (ΔE76²) between entries i and j of a packed Lab array. */
export function labDistanceSq(lab: Float64Array, i: number, j: number): number {
  const dl = lab[i * 3]! - lab[j * 3]!;
  const da = lab[i * 3 + 1]! - lab[j * 3 + 1]!;
  const db = lab[i * 3 + 2]! - lab[j * 3 + 2]!;
  return dl * dl + da * da + db * db;
}
