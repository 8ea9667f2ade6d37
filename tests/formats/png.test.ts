import { decode } from 'fast-png';
import { unzlibSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { crc32 } from '../../src/decode/crc32.js';
import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import { encodePng, writePlanPng } from '../../src/formats/png.js';
import { buildPlan } from '../../src/formats/plan.js';
import { DEFAULT_OUTPUT_OPTIONS, outputOptions } from '../../src/formats/types.js';
import { rasterizeShapes } from '../../src/formats/raster.js';
import { disc, drawShape } from '../helpers/raster.js';

/** Deterministic pseudo-random bytes plus smooth gradients, so every filter gets chosen. */
function pattern(width: number, height: number): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  let s = 12345;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      s = (s * 1103515245 + 12345) >>> 0;
      const noisy = (x + y) % 7 === 0;
      data[o] = noisy ? s >>> 24 : (x * 13) & 255;
      data[o + 1] = (y * 7) & 255;
      data[o + 2] = ((x + y) * 5) & 255;
      data[o + 3] = y % 3 === 0 ? 255 : (x * 31) & 255;
    }
  }
  return data;
}

function chunks(png: Uint8Array): { type: string; data: Uint8Array; crcOk: boolean }[] {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const out = [];
  let pos = 8;
  while (pos < png.length) {
    const len = view.getUint32(pos);
    const type = String.fromCharCode(...png.subarray(pos + 4, pos + 8));
    const data = png.subarray(pos + 8, pos + 8 + len);
    const crcOk = view.getUint32(pos + 8 + len) === crc32(png, pos + 4, pos + 8 + len);
    out.push({ type, data, crcOk });
    pos += 12 + len;
  }
  return out;
}

describe('encodePng', () => {
  for (const [w, h] of [[1, 1], [3, 1], [1, 5], [7, 5], [33, 17], [64, 64], [101, 3]] as const) {
    it(`round-trips ${w}×${h} through fast-png`, () => {
      const rgba = pattern(w, h);
      const png = encodePng(rgba, w, h);
      expect(Array.from(png.subarray(0, 8))).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      const decoded = decode(png);
      expect(decoded.width).toBe(w);
      expect(decoded.height).toBe(h);
      expect(decoded.channels).toBe(4);
      expect(decoded.depth).toBe(8);
      expect(Buffer.from(decoded.data as Uint8Array).equals(Buffer.from(rgba))).toBe(true);
      const list = chunks(png);
      expect(list.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
      for (const c of list) expect(c.crcOk).toBe(true);
    });
  }

  it('chooses row filters by the minimum sum of absolute differences', () => {
    // Row 0: a horizontal ramp (Sub wins); row 1: same as row 0 (Up wins); row 2: constant zero (None).
    const w = 16;
    const rgba = new Uint8Array(w * 3 * 4);
    for (let x = 0; x < w; x++) for (let c = 0; c < 4; c++) rgba[x * 4 + c] = rgba[(w + x) * 4 + c] = 10 + x * 9;
    const idat = chunks(encodePng(rgba, w, 3)).find((c) => c.type === 'IDAT')!;
    const raw = unzlibSync(idat.data);
    const stride = w * 4 + 1;
    expect(raw[0]).toBe(1);
    expect(raw[stride]).toBe(2);
    expect(raw[2 * stride]).toBe(0);
  });

  it('is deterministic and rejects bad sizes', () => {
    const rgba = pattern(20, 9);
    expect(Buffer.from(encodePng(rgba, 20, 9)).equals(Buffer.from(encodePng(rgba, 20, 9)))).toBe(true);
    expect(() => encodePng(rgba, 0, 9)).toThrow(RangeError);
    expect(() => encodePng(rgba, 21, 9)).toThrow(RangeError);
  });
});

describe('writePlanPng', () => {
  const image = drawShape(40, 30, [255, 255, 255], [{ color: [10, 120, 60], inside: disc(20, 15, 11) }]);
  const result = traceImage(image, DEFAULT_ENGINE_PARAMS);
  const noFiller = { ...DEFAULT_OUTPUT_OPTIONS.gapFiller, enabled: false };

  it('renders at 4× the input size by default and decodes to the rasterised pixels', () => {
    const png = writePlanPng(buildPlan(result, outputOptions({ fileFormat: 'png', gapFiller: noFiller })));
    const decoded = decode(png);
    expect(decoded.width).toBe(160);
    expect(decoded.height).toBe(120);
    const rgba = rasterizeShapes(result, { width: 160, height: 120, scaleX: 160 / result.width, scaleY: 120 / result.height, antiAliased: true });
    expect(Buffer.from(decoded.data as Uint8Array).equals(Buffer.from(rgba))).toBe(true);
    // Centre is the disc colour.
    const o = (60 * 160 + 80) * 4;
    expect(Array.from((decoded.data as Uint8Array).subarray(o, o + 4))).toEqual([10, 120, 60, 255]);
  });

  it('honours output.size.scale and aliased mode, byte-identical across runs', () => {
    const options = outputOptions({ fileFormat: 'png', bitmap: { antiAliased: false }, size: { ...DEFAULT_OUTPUT_OPTIONS.size, scale: 1.5 } });
    const a = writePlanPng(buildPlan(result, options));
    const b = writePlanPng(buildPlan(result, options));
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    const decoded = decode(a);
    expect(decoded.width).toBe(60);
    expect(decoded.height).toBe(45);
    const data = decoded.data as Uint8Array;
    for (let i = 3; i < data.length; i += 4) expect(data[i] === 0 || data[i] === 255).toBe(true);
  });
});
