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

/**
 * CIEDE2000 colour difference between Lab entries i of `lab` and j of `other` (packed L, a, b),
 * with kL = kC = kH = 1 (Sharma, Wu & Dalal 2005, "The CIEDE2000 color-difference formula").
 * ΔE76 overstates differences among saturated colours (two JPEG tones of pure blue are 3.4 ΔE76
 * but 1.0 ΔE00 apart); this is the measure of "a person sees two colours".
 */
export function deltaE2000(lab: ArrayLike<number>, i: number, other: ArrayLike<number>, j: number): number {
  const l1 = lab[i * 3]!;
  const a1 = lab[i * 3 + 1]!;
  const b1 = lab[i * 3 + 2]!;
  const l2 = other[j * 3]!;
  const a2 = other[j * 3 + 1]!;
  const b2 = other[j * 3 + 2]!;
  const meanChroma = (Math.hypot(a1, b1) + Math.hypot(a2, b2)) / 2;
  const chroma7 = meanChroma ** 7;
  const aScale = 1 + 0.5 * (1 - Math.sqrt(chroma7 / (chroma7 + 25 ** 7)));
  const a1p = a1 * aScale;
  const a2p = a2 * aScale;
  const c1 = Math.hypot(a1p, b1);
  const c2 = Math.hypot(a2p, b2);
  const h1 = hueDegrees(b1, a1p);
  const h2 = hueDegrees(b2, a2p);
  const dL = l2 - l1;
  const dC = c2 - c1;
  let dh = 0;
  if (c1 * c2 !== 0) {
    dh = h2 - h1;
    if (dh > 180) dh -= 360;
    else if (dh < -180) dh += 360;
  }
  const dH = 2 * Math.sqrt(c1 * c2) * Math.sin(toRadians(dh / 2));
  const meanL = (l1 + l2) / 2;
  const meanC = (c1 + c2) / 2;
  let meanH = h1 + h2;
  if (c1 * c2 !== 0) {
    if (Math.abs(h1 - h2) <= 180) meanH /= 2;
    else meanH = h1 + h2 < 360 ? (h1 + h2 + 360) / 2 : (h1 + h2 - 360) / 2;
  }
  const t =
    1 - 0.17 * Math.cos(toRadians(meanH - 30)) + 0.24 * Math.cos(toRadians(2 * meanH)) + 0.32 * Math.cos(toRadians(3 * meanH + 6)) - 0.2 * Math.cos(toRadians(4 * meanH - 63));
  const lightOffset = (meanL - 50) ** 2;
  const sL = 1 + (0.015 * lightOffset) / Math.sqrt(20 + lightOffset);
  const sC = 1 + 0.045 * meanC;
  const sH = 1 + 0.015 * meanC * t;
  const meanC7 = meanC ** 7;
  const rotation = -2 * Math.sqrt(meanC7 / (meanC7 + 25 ** 7)) * Math.sin(toRadians(60 * Math.exp(-(((meanH - 275) / 25) ** 2))));
  const termL = dL / sL;
  const termC = dC / sC;
  const termH = dH / sH;
  return Math.sqrt(termL * termL + termC * termC + termH * termH + rotation * termC * termH);
}

function hueDegrees(b: number, a: number): number {
  if (a === 0 && b === 0) return 0;
  const h = (Math.atan2(b, a) * 180) / Math.PI;
  return h < 0 ? h + 360 : h;
}

function toRadians(degrees: number): number {
  return (degrees * Math.PI) / 180;
}
