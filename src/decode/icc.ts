/**
 * ICC profiles (ICC.1:2010, v2 and v4) read far enough to convert pixels to sRGB
 * (processing.color_profile.input = preserve).
 * In: a profile's bytes. Out: its description (data colour space, class) and, for the profiles a matrix and
 * curves describe, the conversion of 8-bit RGBA pixels to sRGB.
 * Algorithm: header (size, data colour space, PCS XYZ) and tag table; RGB matrix/TRC profiles — colorants
 * rXYZ/gXYZ/bXYZ (the columns of device RGB → PCS XYZ D50) and curves rTRC/gTRC/bTRC (`curv`: identity, gamma or
 * table; `para`: function types 0–4) — and grey profiles (kTRC). Device values go through their curve to linear
 * light, through the colorant matrix to XYZ D50, through the inverse of sRGB's own D50 matrix (sRGB's primaries
 * Bradford-adapted from D65, as the ICC's sRGB profile has them) to linear sRGB, clipped to the gamut, and through
 * the sRGB transfer function. Colorants of old v2 profiles that were not adapted to D50 (their sum is another
 * white) are Bradford-adapted to D50 first. RGB profiles without those tags go through their A2B0 table — an
 * `mft1`/`mft2` lookup table (icc-lut.ts) or an `mAB` chain of curves, colour table and matrix (readMab) — into
 * PCS XYZ or Lab, then on as above. CMYK and Lab profiles have no conversion here (`toSrgb` undefined): their
 * pixels stay as they are.
 */

import { readLut, tetrahedral, type LutTransform } from './icc-lut.js';

/** What the pipeline needs to know of a profile. */
export interface IccProfile {
  /** Data colour space signature, trimmed: 'RGB', 'GRAY', 'CMYK', 'Lab'… */
  readonly colorSpace: string;
  /** Converts straight-alpha RGBA to sRGB (a new array; alpha kept); absent when this profile cannot be applied. */
  readonly toSrgb?: (rgba: Uint8Array) => Uint8Array;
  /** True when the conversion changes no 8-bit value by more than half a level (an sRGB profile): skip it. */
  readonly isSrgb: boolean;
}

type Matrix3 = readonly [number, number, number, number, number, number, number, number, number];
/** A tone curve: device value 0–1 → linear 0–1. */
type Curve = (x: number) => number;

const D50: readonly [number, number, number] = [0.9642, 1, 0.8249];
const D65: readonly [number, number, number] = [0.95047, 1, 1.08883];
/** Linear sRGB → XYZ D65 (IEC 61966-2-1). */
const SRGB_TO_XYZ_D65: Matrix3 = [0.4124, 0.3576, 0.1805, 0.2126, 0.7152, 0.0722, 0.0193, 0.1192, 0.9505];
/** Bradford cone response matrix. */
const BRADFORD: Matrix3 = [0.8951, 0.2664, -0.1614, -0.7502, 1.7135, 0.0367, 0.0389, -0.0685, 1.0296];

function multiply(a: Matrix3, b: Matrix3): Matrix3 {
  const m = new Array<number>(9);
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) m[r * 3 + c] = a[r * 3] * b[c] + a[r * 3 + 1] * b[3 + c] + a[r * 3 + 2] * b[6 + c];
  return m as unknown as Matrix3;
}

function apply(m: Matrix3, v: readonly [number, number, number]): [number, number, number] {
  return [m[0] * v[0] + m[1] * v[1] + m[2] * v[2], m[3] * v[0] + m[4] * v[1] + m[5] * v[2], m[6] * v[0] + m[7] * v[1] + m[8] * v[2]];
}

function invert(m: Matrix3): Matrix3 | undefined {
  const [a, b, c, d, e, f, g, h, i] = m;
  const det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
  if (!Number.isFinite(det) || Math.abs(det) < 1e-12) return undefined;
  const k = 1 / det;
  return [(e * i - f * h) * k, (c * h - b * i) * k, (b * f - c * e) * k, (f * g - d * i) * k, (a * i - c * g) * k, (c * d - a * f) * k, (d * h - e * g) * k, (b * g - a * h) * k, (a * e - b * d) * k];
}

/** Bradford chromatic adaptation from white `from` to white `to` (XYZ). */
function bradford(from: readonly [number, number, number], to: readonly [number, number, number]): Matrix3 {
  const src = apply(BRADFORD, from);
  const dst = apply(BRADFORD, to);
  const scale: Matrix3 = [dst[0] / src[0], 0, 0, 0, dst[1] / src[1], 0, 0, 0, dst[2] / src[2]];
  return multiply(invert(BRADFORD)!, multiply(scale, BRADFORD));
}

/** XYZ D50 → linear sRGB: the inverse of sRGB's Bradford-adapted D50 matrix. */
const XYZ_D50_TO_LINEAR_SRGB: Matrix3 = invert(multiply(bradford(D65, D50), SRGB_TO_XYZ_D65))!;

/** Linear 0–1 → sRGB-encoded 0–255, rounded and clipped. */
export function encodeSrgb(linear: number): number {
  const v = linear <= 0 ? 0 : linear >= 1 ? 1 : linear <= 0.0031308 ? 12.92 * linear : 1.055 * Math.pow(linear, 1 / 2.4) - 0.055;
  return Math.round(v * 255);
}

// ---------------------------------------------------------------------------------------------
// Reading

interface Tag {
  readonly at: number;
  readonly size: number;
}

const u16 = (b: Uint8Array, o: number) => (b[o] << 8) | b[o + 1];
const u32 = (b: Uint8Array, o: number) => ((b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]) >>> 0;
const s15f16 = (b: Uint8Array, o: number) => ((b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]) / 65536;
const sig = (b: Uint8Array, o: number) => String.fromCharCode(b[o], b[o + 1], b[o + 2], b[o + 3]);

function readTags(bytes: Uint8Array): Map<string, Tag> {
  const tags = new Map<string, Tag>();
  const count = u32(bytes, 128);
  for (let i = 0; i < count && 132 + i * 12 + 12 <= bytes.length; i++) {
    const e = 132 + i * 12;
    const at = u32(bytes, e + 4);
    const size = u32(bytes, e + 8);
    if (at + size <= bytes.length && size >= 8) tags.set(sig(bytes, e), { at, size });
  }
  return tags;
}

/** An `XYZ ` tag's first value. */
function readXyz(bytes: Uint8Array, tag: Tag | undefined): [number, number, number] | undefined {
  if (!tag || tag.size < 20 || sig(bytes, tag.at) !== 'XYZ ') return undefined;
  return [s15f16(bytes, tag.at + 8), s15f16(bytes, tag.at + 12), s15f16(bytes, tag.at + 16)];
}

/** Parameters each `para` function type has (ICC.1 table 68). */
const PARA_COUNTS = [1, 3, 4, 5, 7];

/** A `curv` or `para` tag as a function, or undefined when it is neither or is damaged. */
function readCurve(bytes: Uint8Array, tag: Tag | undefined): Curve | undefined {
  if (!tag) return undefined;
  const type = sig(bytes, tag.at);
  if (type === 'curv') {
    const n = u32(bytes, tag.at + 8);
    if (tag.size < 12 + 2 * n) return undefined;
    if (n === 0) return (x) => x;
    if (n === 1) {
      const gamma = u16(bytes, tag.at + 12) / 256;
      return (x) => Math.pow(x, gamma);
    }
    const table = new Float64Array(n);
    for (let i = 0; i < n; i++) table[i] = u16(bytes, tag.at + 12 + 2 * i) / 65535;
    return (x) => {
      const p = Math.min(Math.max(x, 0), 1) * (n - 1);
      const i = Math.min(Math.floor(p), n - 2);
      return table[i] + (table[i + 1] - table[i]) * (p - i);
    };
  }
  if (type === 'para') {
    const kind = u16(bytes, tag.at + 8);
    const count = PARA_COUNTS[kind];
    if (count === undefined || tag.size < 12 + 4 * count) return undefined;
    const p = Array.from({ length: 7 }, (_, i) => (i < count ? s15f16(bytes, tag.at + 12 + 4 * i) : 0));
    const [g, a, b, c, d, e, f] = p;
    const pow = (v: number) => (v > 0 ? Math.pow(v, g) : 0);
    switch (kind) {
      case 0:
        return (x) => pow(x);
      case 1:
        return (x) => (x >= -b / a ? pow(a * x + b) : 0);
      case 2:
        return (x) => (x >= -b / a ? pow(a * x + b) + c : c);
      case 3:
        return (x) => (x >= d ? pow(a * x + b) : c * x);
      default:
        return (x) => (x >= d ? pow(a * x + b) + e : c * x + f);
    }
  }
  return undefined;
}

/** 256 device levels through `curve`, as linear light. */
function levels(curve: Curve): Float64Array {
  const out = new Float64Array(256);
  for (let v = 0; v < 256; v++) out[v] = curve(v / 255);
  return out;
}

/** Reads `bytes` as an ICC profile; undefined when it is not one (wrong size, no 'acsp' signature). */
export function parseIccProfile(bytes: Uint8Array): IccProfile | undefined {
  if (bytes.length < 132 || u32(bytes, 0) > bytes.length || sig(bytes, 36) !== 'acsp') return undefined;
  const colorSpace = sig(bytes, 16).trim();
  const pcs = sig(bytes, 20).trim();
  const tags = readTags(bytes);
  if (colorSpace === 'RGB') return (pcs === 'XYZ' ? matrixProfile(bytes, tags) : undefined) ?? lutProfile(bytes, tags, pcs);
  if (colorSpace === 'GRAY') return greyProfile(bytes, tags);
  return { colorSpace, isSrgb: false };
}

/** Sets `toSrgb` (and whether it is the identity) on an RGB profile. */
function rgbConversion(colour: SrgbOf): IccProfile {
  const toSrgb = (rgba: Uint8Array) => convertRgb(rgba, colour);
  return { colorSpace: 'RGB', toSrgb, isSrgb: isIdentity(toSrgb) };
}

/** The colorants-and-curves profile, or undefined when a tag is missing or damaged (then the A2B0 table is tried). */
function matrixProfile(bytes: Uint8Array, tags: Map<string, Tag>): IccProfile | undefined {
  const columns = ['rXYZ', 'gXYZ', 'bXYZ'].map((name) => readXyz(bytes, tags.get(name)));
  const curves = ['rTRC', 'gTRC', 'bTRC'].map((name) => readCurve(bytes, tags.get(name)));
  if (columns.some((c) => !c) || curves.some((c) => !c)) return undefined;
  const [r, g, b] = columns as [number, number, number][];
  let toXyzD50: Matrix3 = [r[0], g[0], b[0], r[1], g[1], b[1], r[2], g[2], b[2]];
  // The colorants of a v2 profile sum to its white; one left unadapted (not D50) is adapted here.
  const white: [number, number, number] = [r[0] + g[0] + b[0], r[1] + g[1] + b[1], r[2] + g[2] + b[2]];
  if (Math.abs(white[0] - D50[0]) > 0.01 || Math.abs(white[1] - D50[1]) > 0.01 || Math.abs(white[2] - D50[2]) > 0.01) {
    if (white.every((v) => v > 0)) toXyzD50 = multiply(bradford(white, D50), toXyzD50);
  }
  const m = multiply(XYZ_D50_TO_LINEAR_SRGB, toXyzD50);
  if (!invert(m)) return undefined;
  const [lr, lg, lb] = (curves as Curve[]).map(levels) as [Float64Array, Float64Array, Float64Array];
  const encode = srgbEncoder();
  return rgbConversion((r8, g8, b8) => {
    const r = lr[r8]!, g = lg[g8]!, b = lb[b8]!;
    return [encode(m[0] * r + m[1] * g + m[2] * b), encode(m[3] * r + m[4] * g + m[5] * b), encode(m[6] * r + m[7] * g + m[8] * b)];
  });
}

/**
 * An A2B0 table — `mft1`/`mft2` (icc-lut.ts) or `mAB` (readMab) — into PCS XYZ or Lab (D50), then as matrix profiles
 * go on. A profile without one it can read gets no conversion.
 */
function lutProfile(bytes: Uint8Array, tags: Map<string, Tag>, pcs: string): IccProfile {
  const tag = tags.get('A2B0');
  const table = tag ? (readLut(bytes, tag) ?? readMab(bytes, tag)) : undefined;
  if (!table || (pcs !== 'XYZ' && pcs !== 'Lab')) return { colorSpace: 'RGB', isSrgb: false };
  const { transform, labEncoding } = table;
  // PCS encodings: XYZ as u1Fixed15 (1.0 = 32768/65535 of the range) in every type; Lab in mft2's legacy 16-bit
  // encoding (L 100 and a, b +127 at 65280) or the 8-bit and v4 one (L 100 and a, b +127 at full scale).
  const labScale = labEncoding === 'legacy16' ? 65535 / 65280 : 1;
  const toXyz = (v: [number, number, number]): [number, number, number] =>
    pcs === 'XYZ' ? [v[0] * XYZ_SCALE, v[1] * XYZ_SCALE, v[2] * XYZ_SCALE] : labToXyz(v[0] * labScale * 100, v[1] * labScale * 255 - 128, v[2] * labScale * 255 - 128);
  const encode = srgbEncoder();
  return rgbConversion((r8, g8, b8) => {
    const [r, g, b] = apply(XYZ_D50_TO_LINEAR_SRGB, toXyz(transform(r8, g8, b8)));
    return [encode(r), encode(g), encode(b)];
  });
}

/**
 * A 3-in, 3-out `mAB` (lutAtoBType, ICC.1:2010 §10.10) table: A curves, colour table, M curves, matrix and B curves,
 * each optional but the B curves, applied in that order; undefined when the tag is another type or is damaged.
 */
function readMab(bytes: Uint8Array, tag: Tag): { transform: LutTransform; labEncoding: 'full' } | undefined {
  const at = tag.at;
  const end = at + tag.size;
  if (sig(bytes, at) !== 'mAB ' || bytes[at + 8] !== 3 || bytes[at + 9] !== 3 || tag.size < 32) return undefined;
  const offset = (k: number) => u32(bytes, at + 12 + 4 * k);
  const [bAt, matrixAt, mAt, clutAt, aAt] = [0, 1, 2, 3, 4].map(offset) as [number, number, number, number, number];
  const curves = (from: number) => (from ? readCurveList(bytes, at + from, end) : undefined);
  const b = curves(bAt);
  if (!b) return undefined;
  const m = curves(mAt);
  const a = curves(aAt);
  const matrix = matrixAt && at + matrixAt + 48 <= end ? Array.from({ length: 12 }, (_, i) => s15f16(bytes, at + matrixAt + 4 * i)) : undefined;
  const clut = clutAt ? readClut(bytes, at + clutAt, end) : undefined;
  if ((mAt && !m) || (aAt && !a) || (clutAt && !clut) || (matrixAt && !matrix)) return undefined;
  const through = (list: Curve[] | undefined, v: [number, number, number]): [number, number, number] => (list ? [list[0]!(v[0]), list[1]!(v[1]), list[2]!(v[2])] : v);
  const transform: LutTransform = (r8, g8, b8) => {
    let v: [number, number, number] = through(a, [r8 / 255, g8 / 255, b8 / 255]);
    if (clut) v = tetrahedral(clut.values, clut.grid, v[0], v[1], v[2]);
    v = through(m, v);
    if (matrix) {
      const mx = matrix;
      v = [0, 1, 2].map((r) => mx[r * 3]! * v[0] + mx[r * 3 + 1]! * v[1] + mx[r * 3 + 2]! * v[2] + mx[9 + r]!) as [number, number, number];
    }
    return through(b, v);
  };
  return { transform, labEncoding: 'full' };
}

/** Three curves (`curv` or `para`) one after the other, each padded to 4 bytes. */
function readCurveList(bytes: Uint8Array, from: number, end: number): Curve[] | undefined {
  const list: Curve[] = [];
  let at = from;
  for (let i = 0; i < 3; i++) {
    if (at + 12 > end) return undefined;
    const type = sig(bytes, at);
    const size = type === 'curv' ? 12 + 2 * u32(bytes, at + 8) : type === 'para' ? 12 + 4 * (PARA_COUNTS[u16(bytes, at + 8)] ?? 0) : 0;
    const curve = size > 0 && at + size <= end ? readCurve(bytes, { at, size }) : undefined;
    if (!curve) return undefined;
    list.push(curve);
    at += (size + 3) & ~3;
  }
  return list;
}

/** An `mAB` colour table: grid points per input (16 bytes, 3 used), precision (1 or 2 bytes), values 0–1. */
function readClut(bytes: Uint8Array, at: number, end: number): { grid: [number, number, number]; values: Float64Array } | undefined {
  const grid: [number, number, number] = [bytes[at]!, bytes[at + 1]!, bytes[at + 2]!];
  const precision = bytes[at + 16];
  if (grid.some((g) => g < 2) || (precision !== 1 && precision !== 2)) return undefined;
  const count = grid[0] * grid[1] * grid[2] * 3;
  if (at + 20 + count * precision > end) return undefined;
  const values = new Float64Array(count);
  for (let i = 0; i < count; i++) values[i] = precision === 2 ? u16(bytes, at + 20 + 2 * i) / 65535 : bytes[at + 20 + i]! / 255;
  return { grid, values };
}

/** An XYZ value of an `mft2` table's output, normalised to 0–1, is this many times that. */
const XYZ_SCALE = 65535 / 32768;

/** CIELAB (D50) → XYZ (D50). */
function labToXyz(l: number, a: number, b: number): [number, number, number] {
  const fy = (l + 16) / 116;
  const inverse = (t: number) => (t > 6 / 29 ? t * t * t : 3 * (6 / 29) ** 2 * (t - 4 / 29));
  return [D50[0] * inverse(fy + a / 500), D50[1] * inverse(fy), D50[2] * inverse(fy - b / 200)];
}

/** Linear steps of the sRGB encoding table: one step moves the encoded value by at most 0.05 of a level. */
const ENCODE_STEPS = 65535;

/**
 * encodeSrgb by table (one power per pixel channel cost a 2-MP photo about a second): linear light rounded to
 * 1/65535 first, which changes the 8-bit result only where the exact value is within 0.05 of a rounding edge.
 */
function srgbEncoder(): (linear: number) => number {
  const table = new Uint8Array(ENCODE_STEPS + 1);
  for (let i = 0; i <= ENCODE_STEPS; i++) table[i] = encodeSrgb(i / ENCODE_STEPS);
  return (linear) => (linear <= 0 ? 0 : linear >= 1 ? 255 : table[Math.round(linear * ENCODE_STEPS)]!);
}

function greyProfile(bytes: Uint8Array, tags: Map<string, Tag>): IccProfile {
  const curve = readCurve(bytes, tags.get('kTRC'));
  if (!curve) return { colorSpace: 'GRAY', isSrgb: false };
  // Grey's white is D50 in the PCS, sRGB's white in relative colorimetry: a grey level maps to the sRGB grey of
  // the same luminance. Decoders hand grey pictures over as R = G = B, so each channel goes through the curve.
  const table = new Uint8Array(256);
  for (let v = 0; v < 256; v++) table[v] = encodeSrgb(curve(v / 255));
  const toSrgb = (rgba: Uint8Array) => {
    const out = new Uint8Array(rgba.length);
    for (let o = 0; o < rgba.length; o += 4) {
      out[o] = table[rgba[o]];
      out[o + 1] = table[rgba[o + 1]];
      out[o + 2] = table[rgba[o + 2]];
      out[o + 3] = rgba[o + 3];
    }
    return out;
  };
  return { colorSpace: 'GRAY', toSrgb, isSrgb: isIdentity(toSrgb) };
}

/** One device colour (8-bit RGB) as sRGB (8-bit). */
type SrgbOf = (r8: number, g8: number, b8: number) => [number, number, number];

/** Device RGBA → sRGB RGBA through `colour`, alpha kept. */
function convertRgb(rgba: Uint8Array, colour: SrgbOf): Uint8Array {
  const out = new Uint8Array(rgba.length);
  let lastKey = -1;
  let last: [number, number, number] = [0, 0, 0];
  for (let o = 0; o < rgba.length; o += 4) {
    // Runs of one colour (flat art) convert once.
    const key = (rgba[o]! << 16) | (rgba[o + 1]! << 8) | rgba[o + 2]!;
    if (key !== lastKey) {
      lastKey = key;
      last = colour(rgba[o]!, rgba[o + 1]!, rgba[o + 2]!);
    }
    out[o] = last[0];
    out[o + 1] = last[1];
    out[o + 2] = last[2];
    out[o + 3] = rgba[o + 3]!;
  }
  return out;
}

/** True when `toSrgb` keeps every grey level and the primaries and secondaries at full and half strength. */
function isIdentity(toSrgb: (rgba: Uint8Array) => Uint8Array): boolean {
  const probe: number[] = [];
  for (let v = 0; v < 256; v++) probe.push(v, v, v, 255);
  for (const level of [128, 255]) {
    for (let mask = 1; mask < 7; mask++) probe.push(mask & 1 ? level : 0, mask & 2 ? level : 0, mask & 4 ? level : 0, 255);
  }
  const input = new Uint8Array(probe);
  const output = toSrgb(input);
  for (let i = 0; i < input.length; i++) if (Math.abs(output[i] - input[i]) > 1) return false;
  return true;
}
