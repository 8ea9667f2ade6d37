/**
 * Translucent areas (issue 41: a logo drawn 75 % opaque came out opaque). In: RGBA pixels at the traced size.
 * Out: the plateaus — connected areas whose alpha is one value between TRANSLUCENT_ALPHA_MIN and
 * TRANSLUCENT_ALPHA_MAX, so not the alpha ramp of an anti-aliased edge — with each pixel's plateau alpha, and the
 * picture the later stages trace: plateau pixels made opaque (their straight-alpha colour is the area's colour)
 * and the anti-aliased rim around a plateau given the alpha it has relative to the plateau (its coverage, which
 * places the border at sub-pixel precision as for an opaque shape). After the shapes are built, each shape made
 * mostly of plateau pixels takes the plateau's alpha (withPlateauAlpha). A picture without plateaus is traced
 * unchanged (no copy).
 * Algorithm: flood fill over pixels of translucent alpha where 4-neighbours differ by at most PLATEAU_STEP; a
 * component is a plateau when its alpha spans at most PLATEAU_SPREAD levels and it has at least
 * PLATEAU_MIN_INTERIOR pixels whose four neighbours belong to it (a one- or two-pixel ramp along an edge has none).
 */

import type { Rgba, Shape } from './types.js';

/** ≈ 0.06: fainter areas stay transparent (the existing rule for alpha below OPAQUE_ALPHA_MIN). */
export const TRANSLUCENT_ALPHA_MIN = 16;
/** ≈ 0.94: more opaque areas are traced opaque, as before. */
export const TRANSLUCENT_ALPHA_MAX = 240;
/** Alpha difference of 4-neighbours within one plateau (8-bit rounding of one alpha, dithering). */
const PLATEAU_STEP = 2;
/** Largest alpha range of a plateau: a smooth alpha ramp (a soft shadow) spans more and is not one. */
const PLATEAU_SPREAD = 6;
/** Interior pixels a plateau needs (a 5 × 5 square has 9). */
const PLATEAU_MIN_INTERIOR = 9;

export interface Translucency {
  /** Per pixel: the alpha of the plateau it belongs to, else 0. */
  readonly plateauAlpha: Uint8Array;
  /** The pixels to trace: plateaus opaque, their rims' alpha as coverage of the plateau. */
  readonly data: Uint8Array;
}

const isTranslucent = (a: number): boolean => a >= TRANSLUCENT_ALPHA_MIN && a <= TRANSLUCENT_ALPHA_MAX;

/** The picture's translucent plateaus, or undefined when it has none (opaque pictures, anti-aliased edges only). */
export function findTranslucency(data: Uint8Array | Uint8ClampedArray, width: number, height: number): Translucency | undefined {
  const n = width * height;
  let any = false;
  for (let i = 0; i < n && !any; i++) any = isTranslucent(data[i * 4 + 3]!);
  if (!any) return undefined;
  const plateauAlpha = markPlateaus(data, width, height);
  if (!plateauAlpha) return undefined;
  return { plateauAlpha, data: opaquePlateaus(data, width, height, plateauAlpha) };
}

/** Per pixel the alpha of its plateau (0 elsewhere), or undefined when no component qualifies. */
function markPlateaus(data: Uint8Array | Uint8ClampedArray, width: number, height: number): Uint8Array | undefined {
  const n = width * height;
  const component = new Int32Array(n).fill(-1);
  // Each component's pixels, in the order the flood fill reached them (one buffer for all components).
  const members = new Int32Array(n);
  let result: Uint8Array | undefined;
  let id = 0;
  for (let seed = 0; seed < n; seed++) {
    if (component[seed] !== -1 || !isTranslucent(data[seed * 4 + 3]!)) continue;
    // members[first … count) is this component; members[next] is the next pixel whose neighbours are visited.
    const first = 0;
    let count = 0;
    members[count++] = seed;
    component[seed] = id;
    let low = 255, high = 0, sum = 0;
    const visit = (q: number, a: number): void => {
      if (component[q] !== -1) return;
      const b = data[q * 4 + 3]!;
      if (isTranslucent(b) && Math.abs(b - a) <= PLATEAU_STEP) {
        component[q] = id;
        members[count++] = q;
      }
    };
    for (let next = first; next < count; next++) {
      const p = members[next]!;
      const a = data[p * 4 + 3]!;
      if (a < low) low = a;
      if (a > high) high = a;
      sum += a;
      const x = p % width;
      if (x > 0) visit(p - 1, a);
      if (x < width - 1) visit(p + 1, a);
      if (p >= width) visit(p - width, a);
      if (p + width < n) visit(p + width, a);
    }
    if (high - low <= PLATEAU_SPREAD && interiorCount(members, count, component, id, width, height) >= PLATEAU_MIN_INTERIOR) {
      result ??= new Uint8Array(n);
      const mean = Math.round(sum / count);
      for (let k = 0; k < count; k++) result[members[k]!] = mean;
    }
    id++;
  }
  return result;
}

function interiorCount(members: Int32Array, count: number, component: Int32Array, id: number, width: number, height: number): number {
  let interior = 0;
  for (let k = 0; k < count; k++) {
    const p = members[k]!;
    const x = p % width;
    const y = (p - x) / width;
    if (x > 0 && x < width - 1 && y > 0 && y < height - 1 && component[p - 1] === id && component[p + 1] === id && component[p - width] === id && component[p + width] === id) interior++;
  }
  return interior;
}

/** A copy of `data` with plateau pixels opaque and each rim pixel's alpha divided by its plateau's. */
function opaquePlateaus(data: Uint8Array | Uint8ClampedArray, width: number, height: number, plateauAlpha: Uint8Array): Uint8Array {
  const out = new Uint8Array(data);
  // The rim: pixels beside a plateau (8-neighbours) outside every plateau; the most opaque plateau beside a
  // pixel is the one its edge belongs to.
  const rimOf = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const plateau = plateauAlpha[y * width + x]!;
      if (!plateau) continue;
      out[(y * width + x) * 4 + 3] = 255;
      for (let ny = Math.max(0, y - 1); ny <= Math.min(height - 1, y + 1); ny++) {
        for (let nx = Math.max(0, x - 1); nx <= Math.min(width - 1, x + 1); nx++) {
          const q = ny * width + nx;
          if (!plateauAlpha[q] && rimOf[q]! < plateau) rimOf[q] = plateau;
        }
      }
    }
  }
  for (let p = 0; p < rimOf.length; p++) {
    const plateau = rimOf[p]!;
    const a = data[p * 4 + 3]!;
    if (plateau && a < plateau) out[p * 4 + 3] = Math.round((a * 255) / plateau);
  }
  return out;
}

/**
 * The shapes with the alpha of the plateau most of their pixels lie on (more than half of their region's pixels),
 * times the alpha their colour already has (a processing.palette entry's). Others are returned as they are.
 */
export function withPlateauAlpha(shapes: Shape[], regionOf: Int32Array, regionCount: number, plateauAlpha: Uint8Array): Shape[] {
  const pixels = new Int32Array(regionCount);
  const onPlateau = new Int32Array(regionCount);
  const alphaSum = new Float64Array(regionCount);
  for (let p = 0; p < regionOf.length; p++) {
    const r = regionOf[p]!;
    if (r < 0 || r >= regionCount) continue;
    pixels[r]!++;
    const a = plateauAlpha[p]!;
    if (a) {
      onPlateau[r]!++;
      alphaSum[r]! += a;
    }
  }
  return shapes.map((shape) => {
    const r = shape.region;
    if (!(onPlateau[r]! * 2 > pixels[r]!)) return shape;
    const plateau = Math.round(alphaSum[r]! / onPlateau[r]!);
    const color: Rgba = { ...shape.color, a: Math.round((shape.color.a * plateau) / 255) };
    return { ...shape, color };
  });
}
