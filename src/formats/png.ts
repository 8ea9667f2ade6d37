/**
 * PNG writer.
 * In: RGBA bytes (straight alpha), or an output plan (rendered by src/formats/raster-plan.ts).
 * Out: a PNG file (8-bit RGBA, non-interlaced). Each row's filter is the one whose filtered bytes have the smallest sum of
 * absolute values (read as signed bytes), the usual heuristic; the filtered data is compressed
 * once with fflate's zlib at a fixed level, so the same pixels always give the same bytes, in
 * Node and in the browser. An ICC profile to embed (processing.color_profile.output = preserve) is an `iCCP` chunk
 * before the image data: keyword "ICC profile", compression method 0, the profile zlib-compressed at the same level.
 */
import { zlibSync } from 'fflate';
import { crc32 } from '../decode/crc32.js';
import type { OutputPlan } from './plan.js';
import { renderPlan } from './raster-plan.js';

export { pngSize, renderPlan, type PngSize, type RenderPlanOptions, type RenderWindow } from './raster-plan.js';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const ZLIB_LEVEL = 6;

/** The PNG file of an output plan: its size, fills, strokes and gap filler (transparent background). */
export function writePlanPng(plan: OutputPlan): Uint8Array {
  const { rgba, width, height } = renderPlan(plan);
  return encodePng(rgba, width, height, plan.result.colorProfile);
}

export function encodePng(rgba: Uint8Array, width: number, height: number, iccProfile?: Uint8Array): Uint8Array {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width > 0x7fffffff || height > 0x7fffffff) {
    throw new RangeError(`PNG size must be positive integers, got ${width}×${height}`);
  }
  const stride = width * 4;
  if (rgba.length < stride * height) throw new RangeError(`PNG needs ${stride * height} bytes of RGBA, got ${rgba.length}`);
  const raw = new Uint8Array((stride + 1) * height);
  const candidate = new Uint8Array(stride);
  const zero = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const cur = rgba.subarray(y * stride, (y + 1) * stride);
    const prev = y > 0 ? rgba.subarray((y - 1) * stride, y * stride) : zero;
    const dst = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    let bestFilter = 0;
    let bestSum = Infinity;
    for (let f = 0; f <= 4; f++) {
      const sum = filterRow(f, cur, prev, candidate, bestSum);
      if (sum < bestSum) {
        bestSum = sum;
        bestFilter = f;
        dst.set(candidate);
      }
    }
    raw[y * (stride + 1)] = bestFilter;
  }
  const idat = zlibSync(raw, { level: ZLIB_LEVEL });
  const ihdr = new Uint8Array(13);
  writeU32(ihdr, 0, width);
  writeU32(ihdr, 4, height);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type RGBA
  ihdr[10] = 0; // deflate
  ihdr[11] = 0; // adaptive filtering
  ihdr[12] = 0; // no interlace
  const chunks = [chunk('IHDR', ihdr), ...(iccProfile ? [iccpChunk(iccProfile)] : []), chunk('IDAT', idat), chunk('IEND', new Uint8Array(0))];
  let total = SIGNATURE.length;
  for (const c of chunks) total += c.length;
  const out = new Uint8Array(total);
  out.set(SIGNATURE, 0);
  let pos = SIGNATURE.length;
  for (const c of chunks) {
    out.set(c, pos);
    pos += c.length;
  }
  return out;
}

/**
 * Writes row `cur` filtered with `filter` into `out`; returns the sum of |signed byte|, stopping
 * early (with a value ≥ `limit`) once it cannot beat the best so far.
 */
function filterRow(filter: number, cur: Uint8Array, prev: Uint8Array, out: Uint8Array, limit: number): number {
  // One loop per filter (no per-byte switch); bytes before the row's first pixel count as 0.
  const n = cur.length;
  let sum = 0;
  let v = 0;
  switch (filter) {
    case 0:
      for (let i = 0; i < n; i++) {
        v = cur[i]!;
        out[i] = v;
        sum += v < 128 ? v : 256 - v;
      }
      return sum;
    case 1:
      for (let i = 0; i < n; i++) {
        v = (cur[i]! - (i >= 4 ? cur[i - 4]! : 0)) & 0xff;
        out[i] = v;
        sum += v < 128 ? v : 256 - v;
        if (sum >= limit) return sum;
      }
      return sum;
    case 2:
      for (let i = 0; i < n; i++) {
        v = (cur[i]! - prev[i]!) & 0xff;
        out[i] = v;
        sum += v < 128 ? v : 256 - v;
        if (sum >= limit) return sum;
      }
      return sum;
    case 3:
      for (let i = 0; i < n; i++) {
        v = (cur[i]! - (((i >= 4 ? cur[i - 4]! : 0) + prev[i]!) >> 1)) & 0xff;
        out[i] = v;
        sum += v < 128 ? v : 256 - v;
        if (sum >= limit) return sum;
      }
      return sum;
    default:
      for (let i = 0; i < n; i++) {
        v = i >= 4 ? (cur[i]! - paeth(cur[i - 4]!, prev[i]!, prev[i - 4]!)) & 0xff : (cur[i]! - prev[i]!) & 0xff;
        out[i] = v;
        sum += v < 128 ? v : 256 - v;
        if (sum >= limit) return sum;
      }
      return sum;
  }
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

const ICC_KEYWORD = 'ICC profile';

function iccpChunk(profile: Uint8Array): Uint8Array {
  const compressed = zlibSync(profile, { level: ZLIB_LEVEL });
  const data = new Uint8Array(ICC_KEYWORD.length + 2 + compressed.length);
  for (let i = 0; i < ICC_KEYWORD.length; i++) data[i] = ICC_KEYWORD.charCodeAt(i);
  // data[keyword length] = 0 (terminator) and the next byte = 0 (compression method: zlib)
  data.set(compressed, ICC_KEYWORD.length + 2);
  return chunk('iCCP', data);
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  writeU32(out, 0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  writeU32(out, 8 + data.length, crc32(out, 4, 8 + data.length));
  return out;
}

function writeU32(bytes: Uint8Array, offset: number, v: number): void {
  bytes[offset] = (v >>> 24) & 0xff;
  bytes[offset + 1] = (v >>> 16) & 0xff;
  bytes[offset + 2] = (v >>> 8) & 0xff;
  bytes[offset + 3] = v & 0xff;
}
