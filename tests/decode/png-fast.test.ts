/**
 * The non-interlaced PNG path (one-shot inflate when the host has one + own unfilter, src/decode/png-unfilter.ts) against the
 * fast-png path it replaced (decodeWithFastPng: fast-png's decode + the same toRgba): byte-identical RGBA for a
 * generated matrix of valid files (every colour type × bit depth × filter type, odd widths, tRNS variants, one or
 * several IDAT chunks, both inflate routes), and the same error for damaged ones. Test PNGs are encoded here with
 * node:zlib and our own scanline filters.
 */

import { deflateSync, constants as zc } from 'node:zlib';

import { Unzlib } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { describeThrown } from '../../src/decode/common.js';
import { setOneShotInflate } from '../../src/decode/inflate.js';
import { nodeInflateInto } from '../../src/cli/node-codecs.js';
import { adler32, decodePng, decodeWithFastPng } from '../../src/decode/png.js';
import { TracelabError } from '../../src/engine/errors.js';
import { concat, crc32, ihdr, PNG_SIGNATURE, pngChunk } from './build.js';

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };

/** Deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Packed rows (no filter bytes) → filtered scanlines, filter `types[y]` on row y (PNG spec §9.2). */
function filterRows(rows: Uint8Array, height: number, stride: number, bpp: number, types: number[]): Uint8Array {
  const out = new Uint8Array(height * (stride + 1));
  for (let y = 0; y < height; y++) {
    const t = types[y];
    out[y * (stride + 1)] = t;
    for (let i = 0; i < stride; i++) {
      const x = rows[y * stride + i];
      const a = i >= bpp ? rows[y * stride + i - bpp] : 0;
      const b = y > 0 ? rows[(y - 1) * stride + i] : 0;
      const c = y > 0 && i >= bpp ? rows[(y - 1) * stride + i - bpp] : 0;
      const pred = t === 0 ? 0 : t === 1 ? a : t === 2 ? b : t === 3 ? (a + b) >> 1 : paeth(a, b, c);
      out[y * (stride + 1) + 1 + i] = (x - pred) & 255;
    }
  }
  return out;
}

interface Spec {
  width: number;
  height: number;
  colorType: number;
  depth: number;
  /** Filter type per row; 'mixed' cycles 0..4. */
  filter: number | 'mixed';
  trns?: 'none' | 'match' | 'nomatch' | 'short' | 'long';
  /** Number of IDAT chunks the zlib stream is split into. */
  idats?: number;
  level?: number;
  seed?: number;
}

interface Built {
  bytes: Uint8Array;
  /** Packed rows before filtering. */
  rows: Uint8Array;
  /** Filtered scanlines (what the zlib stream holds). */
  scanlines: Uint8Array;
  stride: number;
  /** The file with its image data replaced by `zlib` (split like the original). */
  withZlib(zlib: Uint8Array): Uint8Array;
}

function buildPng(spec: Spec): Built {
  const { width, height, colorType, depth } = spec;
  const rand = rng(spec.seed ?? width * 131 + height * 7 + colorType * 17 + depth);
  const ch = CHANNELS[colorType];
  const stride = Math.ceil((width * depth * ch) / 8);
  const bpp = Math.max(1, (depth >> 3) * ch);
  const max = depth === 16 ? 65535 : (1 << depth) - 1;
  const palSize = colorType === 3 ? Math.min(1 << depth, 6) : 0;
  // Sample values: mostly from a few values (so colour keys and Paeth ties occur), some random.
  const pool = Array.from({ length: 3 }, () => Math.floor(rand() * (max + 1)));
  const samples: number[] = [];
  for (let i = 0; i < width * height * ch; i++) {
    if (colorType === 3) samples.push(Math.floor(rand() * (1 << depth))); // includes indexes past the palette
    else samples.push(rand() < 0.6 ? pool[Math.floor(rand() * 3)] : Math.floor(rand() * (max + 1)));
  }
  if (spec.trns === 'match' && colorType !== 3) {
    // Make the first pixel equal to the key.
    for (let c = 0; c < ch; c++) samples[c] = pool[0];
  }
  const rows = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    let bit = 0;
    for (let x = 0; x < width * ch; x++) {
      const v = samples[y * width * ch + x];
      const at = y * stride;
      if (depth === 16) {
        rows[at + x * 2] = v >> 8;
        rows[at + x * 2 + 1] = v & 255;
      } else if (depth === 8) rows[at + x] = v;
      else {
        rows[at + (bit >> 3)] |= v << (8 - depth - (bit & 7));
        bit += depth;
      }
    }
  }
  const types = Array.from({ length: height }, (_, y) => (spec.filter === 'mixed' ? (y * 3 + 1) % 5 : spec.filter));
  const scanlines = filterRows(rows, height, stride, bpp, types);

  const chunks: Uint8Array[] = [PNG_SIGNATURE as unknown as Uint8Array, ihdr(width, height, depth, colorType)];
  if (colorType === 3) {
    chunks.push(pngChunk('PLTE', Array.from({ length: palSize * 3 }, () => Math.floor(rand() * 256))));
  }
  const key = (v: number) => [v >> 8, v & 255];
  if (spec.trns && spec.trns !== 'none') {
    if (colorType === 3) {
      const n = spec.trns === 'short' ? Math.max(1, palSize - 2) : spec.trns === 'long' ? palSize + 3 : palSize;
      chunks.push(pngChunk('tRNS', Array.from({ length: n }, () => Math.floor(rand() * 256))));
    } else if (colorType === 0 || colorType === 2) {
      const k = spec.trns === 'nomatch' ? (pool[0] + 1) % (max + 1) : pool[0];
      const entries = colorType === 0 ? key(k) : [...key(k), ...key(k), ...key(k)];
      chunks.push(pngChunk('tRNS', spec.trns === 'short' ? entries.slice(0, entries.length - 1) : entries));
    }
  }
  const head = concat(...chunks);
  const pieces = spec.idats ?? 1;
  const withZlib = (zlib: Uint8Array) => {
    const parts: Uint8Array[] = [head];
    const size = Math.ceil(zlib.length / pieces);
    for (let i = 0; i < pieces; i++) parts.push(pngChunk('IDAT', zlib.subarray(i * size, Math.min(zlib.length, (i + 1) * size))));
    parts.push(pngChunk('IEND'));
    return concat(...parts);
  };
  const zlib = new Uint8Array(deflateSync(scanlines, { level: spec.level ?? 6 }));
  return { bytes: withZlib(zlib), rows, scanlines, stride, withZlib };
}

type Outcome = { ok: true; width: number; height: number; data: Uint8Array; dpi: unknown } | { ok: false; message: string };

/** Result or error as decodeImage would report it (plain errors are wrapped there as "corrupt PNG data (...)"). */
function outcome(decode: (bytes: Uint8Array) => { width: number; height: number; data: Uint8Array; dpi?: unknown }, bytes: Uint8Array): Outcome {
  try {
    const r = decode(bytes);
    return { ok: true, width: r.width, height: r.height, data: r.data, dpi: r.dpi };
  } catch (err) {
    if (err instanceof TracelabError) return { ok: false, message: `${err.code} ${err.message}` };
    return { ok: false, message: `wrapped: corrupt PNG data (${describeThrown(err)})` };
  }
}

function expectSame(bytes: Uint8Array, label: string): Outcome {
  const fresh = outcome(decodePng, bytes);
  const reference = outcome((b) => decodeWithFastPng(b), bytes);
  if (reference.ok && fresh.ok) {
    expect([fresh.width, fresh.height, fresh.dpi], label).toEqual([reference.width, reference.height, reference.dpi]);
    expect(fresh.data.length, label).toBe(reference.data.length);
    // Compare as Buffers: one call, and a readable first difference on failure.
    if (!Buffer.from(fresh.data).equals(Buffer.from(reference.data))) {
      const i = fresh.data.findIndex((v, k) => v !== reference.data[k]);
      expect.fail(`${label}: RGBA differs at byte ${i}: ${fresh.data[i]} vs ${reference.data[i]}`);
    }
  } else {
    expect(fresh, label).toEqual(reference);
  }
  return fresh;
}

// Both one-shot inflate set-ups: none (the browser: the bounded reference inflate only) and the CLI's node:zlib.
for (const [setup, inflate] of [['without a one-shot inflate', undefined], ['with node:zlib one-shot inflate', nodeInflateInto]] as const) {
  describe(setup, () => {
    beforeAll(() => setOneShotInflate(inflate));
    afterAll(() => setOneShotInflate(undefined));

  describe('non-interlaced PNG: own unfilter = fast-png (valid files)', () => {
    const filters: Array<number | 'mixed'> = [0, 1, 2, 3, 4, 'mixed'];
    const widths = [1, 3, 7, 13];
    for (const colorType of [0, 2, 3, 4, 6]) {
      for (const depth of DEPTHS[colorType]) {
        it(`colour type ${colorType}, ${depth}-bit: every filter, widths ${widths.join('/')}, tRNS variants`, () => {
          const trnsVariants: Spec['trns'][] =
            colorType === 3 ? ['none', 'short', 'match', 'long'] : colorType === 0 || colorType === 2 ? ['none', 'match', 'nomatch', 'short'] : ['none'];
          let n = 0;
          for (const filter of filters) {
            for (const width of widths) {
              for (const trns of trnsVariants) {
                const spec: Spec = { width, height: 5, colorType, depth, filter, trns, idats: width === 7 ? 3 : 1 };
                const label = JSON.stringify(spec);
                const out = expectSame(buildPng(spec).bytes, label);
                expect(out.ok, label).toBe(true);
                n++;
              }
            }
          }
          expect(n).toBeGreaterThan(20);
        });
      }
    }

    it('8-bit RGBA comes out as the file samples, whatever the filters', () => {
      for (const filter of [0, 1, 2, 3, 4, 'mixed'] as const) {
        const built = buildPng({ width: 13, height: 4, colorType: 6, depth: 8, filter });
        expect(Buffer.from(decodePng(built.bytes).data).equals(Buffer.from(built.rows)), `filter ${filter}`).toBe(true);
      }
    });

    it('larger images (bounded-inflate route, several IDAT chunks, stored and compressed streams)', () => {
      for (const colorType of [0, 2, 3, 4, 6]) {
        for (const depth of DEPTHS[colorType]) {
          for (const [width, level] of [[301, 6], [97, 0], [1000, 1]] as const) {
            const spec: Spec = { width, height: 9, colorType, depth, filter: 'mixed', trns: colorType === 4 || colorType === 6 ? 'none' : 'match', idats: 4, level };
            const built = buildPng(spec);
            const label = JSON.stringify(spec);
            expect(expectSame(built.bytes, label).ok, label).toBe(true);
          }
        }
      }
    });

    it('an image over 4 KiB slices and 64 KiB of output (multi-block streams, long matches)', () => {
      for (const filter of [1, 2, 4, 'mixed'] as const) {
        const spec: Spec = { width: 211, height: 97, colorType: 6, depth: 8, filter, idats: 5 };
        expect(expectSame(buildPng(spec).bytes, JSON.stringify(spec)).ok).toBe(true);
      }
    });
  });

  describe('non-interlaced PNG: damaged files give the same error as fast-png gave', () => {
    const base = (over: Partial<Spec> = {}): Built => buildPng({ width: 13, height: 6, colorType: 2, depth: 8, filter: 'mixed', ...over });
    /** Both inflate routes: a small stream (inflated chunk by chunk between the chunk checks) and a large one. */
    const routes: Array<[string, Partial<Spec>]> = [
      ['small stream', {}],
      ['large stream', { width: 400, height: 9, level: 0, idats: 3 }],
    ];

    /** Replaces the body of the chunk at `at` and fixes its CRC. */
    function withChunkBody(bytes: Uint8Array, type: string, body: ArrayLike<number>, nth = 0): Uint8Array {
      let at = 8;
      let seen = 0;
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      while (at + 12 <= bytes.length) {
        const len = view.getUint32(at);
        const t = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
        if (t === type && seen++ === nth) return concat(bytes.subarray(0, at), pngChunk(type, body), bytes.subarray(at + 12 + len));
        at += 12 + len;
      }
      throw new Error(`no ${type} chunk`);
    }
    function chunkOffset(bytes: Uint8Array, type: string): number {
      let at = 8;
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      while (at + 12 <= bytes.length) {
        if (String.fromCharCode(...bytes.subarray(at + 4, at + 8)) === type) return at;
        at += 12 + view.getUint32(at);
      }
      throw new Error(`no ${type} chunk`);
    }

    for (const [route, over] of routes) {
      describe(route, () => {
        it('a bad filter type byte → 1006 "corrupt PNG", also before short data', () => {
          const b = base(over);
          for (const bad of [5, 255]) {
            for (const row of [0, 3, 5]) {
              const lines = b.scanlines.slice();
              lines[row * (b.stride + 1)] = bad;
              const out = expectSame(b.withZlib(new Uint8Array(deflateSync(lines))), `filter ${bad} on row ${row}`);
              expect(out.ok).toBe(false);
              if (!out.ok) expect(out.message).toMatch(/^1006 .*corrupt PNG/);
              // The same with data cut after that row: the filter error still wins.
              const cut = b.withZlib(new Uint8Array(deflateSync(lines.subarray(0, (row + 1) * (b.stride + 1) + 2))));
              expectSame(cut, `filter ${bad} on row ${row}, data cut after it`);
            }
          }
        });

        it('image data that ends early: mid last row is padded with 0, missing rows → 1006 "truncated PNG"', () => {
          const b = base(over);
          const full = b.scanlines.length;
          const span = b.stride + 1;
          for (const keep of [0, 1, span - 1, span, span + 1, full - span, full - span + 1, full - 3, full - 1]) {
            const out = expectSame(b.withZlib(new Uint8Array(deflateSync(b.scanlines.subarray(0, keep)))), `keep ${keep} of ${full}`);
            if (keep <= full - span) {
              expect(out.ok).toBe(false);
              if (!out.ok) expect(out.message).toMatch(/^1006 .*truncated PNG/);
            } else expect(out.ok).toBe(true);
          }
          // More data than the header declares is ignored.
          const extra = concat(b.scanlines, new Uint8Array(span * 2).fill(1));
          expect(expectSame(b.withZlib(new Uint8Array(deflateSync(extra))), 'extra rows').ok).toBe(true);
        });

        it('a cut or damaged zlib stream', () => {
          const b = base(over);
          const zlib = new Uint8Array(deflateSync(b.scanlines, { level: over.level ?? 6 }));
          for (const keep of [0, 1, 2, 5, 6, zlib.length >> 1, zlib.length - 5, zlib.length - 4, zlib.length - 1]) {
            expectSame(b.withZlib(zlib.subarray(0, keep)), `zlib cut to ${keep} of ${zlib.length}`);
          }
          const badHeader = zlib.slice();
          badHeader[0] = 0x79;
          expectSame(b.withZlib(badHeader), 'bad zlib header');
          const badAdler = zlib.slice();
          badAdler[badAdler.length - 1] ^= 1;
          expectSame(b.withZlib(badAdler), 'bad Adler-32 (not checked, as before)');
          const rand = rng(42);
          for (let i = 0; i < 300; i++) {
            const m = zlib.slice();
            for (let k = 0; k < 1 + (i % 3); k++) m[2 + Math.floor(rand() * (m.length - 2))] ^= 1 << Math.floor(rand() * 8);
            expectSame(b.withZlib(m), `mutation ${i}`);
          }
          // Strategies fflate and zlib differ on: Huffman-only, RLE, fixed codes.
          for (const strategy of [zc.Z_HUFFMAN_ONLY, zc.Z_RLE, zc.Z_FIXED]) {
            expect(expectSame(b.withZlib(new Uint8Array(deflateSync(b.scanlines, { strategy }))), `strategy ${strategy}`).ok).toBe(true);
          }
        });

        it('chunk damage: CRCs, PLTE length, IEND length, missing IEND', () => {
          const b = base(over);
          for (const type of ['IHDR', 'IDAT', 'IEND']) {
            const bad = b.bytes.slice();
            const at = chunkOffset(bad, type);
            const len = new DataView(bad.buffer).getUint32(at);
            bad[at + 8 + len] ^= 0x40;
            const out = expectSame(bad, `${type} CRC`);
            expect(out.ok).toBe(false);
          }
          expectSame(withChunkBody(b.bytes, 'IEND', [0]), 'IEND with a body');
          expectSame(b.bytes.subarray(0, b.bytes.length - 12), 'no IEND');
          const pal = base({ ...over, colorType: 3, depth: 8 });
          expectSame(withChunkBody(pal.bytes, 'PLTE', [1, 2, 3, 4]), 'PLTE of 4 bytes');
          const palBadCrc = pal.bytes.slice();
          palBadCrc[chunkOffset(palBadCrc, 'PLTE') + 8 + 18] ^= 1;
          expectSame(palBadCrc, 'PLTE CRC');
          // A PLTE chunk after the image data, and one in a truecolour file: checked just the same.
          expectSame(concat(b.bytes.subarray(0, b.bytes.length - 12), pngChunk('PLTE', [1, 2]), pngChunk('IEND')), 'late PLTE');
          // An unknown chunk with a bad CRC is ignored.
          const junk = pngChunk('juNk', [1, 2, 3]);
          junk[junk.length - 1] ^= 1;
          expect(expectSame(concat(b.bytes.subarray(0, 33), junk, b.bytes.subarray(33)), 'bad CRC on an unknown chunk').ok).toBe(true);
        });

        it('a second IHDR still goes through fast-png', () => {
          const b = base(over);
          const second = ihdr(13, 6, 8, 2);
          expectSame(concat(b.bytes.subarray(0, 33), second, b.bytes.subarray(33)), 'second IHDR');
        });
      });
    }

    it('the CRC of a chunk with the CRC fixed after a length lie is still checked like fast-png', () => {
      const b = base();
      const bytes = b.bytes.slice();
      const at = chunkOffset(bytes, 'IDAT');
      bytes[at + 9] ^= 0xff; // inside the zlib data, CRC now wrong
      expectSame(bytes, 'IDAT data changed, CRC not fixed');
      const fixed = bytes.slice();
      const len = new DataView(fixed.buffer).getUint32(at);
      new DataView(fixed.buffer).setUint32(at + 8 + len, crc32(fixed.subarray(at + 4, at + 8 + len)));
      expectSame(fixed, 'IDAT data changed, CRC fixed');
    });
  });
  });
}

describe('nodeInflateInto (the CLI\'s one-shot inflate) = fflate', () => {
  function reference(zlib: Uint8Array): Uint8Array | null {
    const parts: Uint8Array[] = [];
    try {
      const u = new Unzlib((d) => parts.push(d));
      u.push(zlib, true);
    } catch {
      return null;
    }
    return concat(...parts);
  }

  it('decodes node:zlib streams of every level and strategy exactly; refuses overflow and cut streams', () => {
    const rand = rng(7);
    for (const n of [1, 2, 100, 5000, 70_000, 200_000]) {
      const raw = new Uint8Array(n);
      for (let i = 0; i < n; i++) raw[i] = rand() < 0.5 ? Math.floor(rand() * 256) : (raw[i - 3] ?? 9);
      for (const level of [0, 1, 6, 9]) {
        for (const strategy of [zc.Z_DEFAULT_STRATEGY, zc.Z_FILTERED, zc.Z_HUFFMAN_ONLY, zc.Z_RLE, zc.Z_FIXED]) {
          const zlib = new Uint8Array(deflateSync(raw, { level, strategy }));
          const out = new Uint8Array(n);
          expect(nodeInflateInto(zlib, out)).toBe(n);
          expect(Buffer.from(out).equals(Buffer.from(raw))).toBe(true);
          if (n > 1) expect(nodeInflateInto(zlib, new Uint8Array(n - 1))).toBe(-1);
          expect(nodeInflateInto(zlib.subarray(0, zlib.length - 5), new Uint8Array(n))).toBe(-1);
        }
      }
    }
  });

  // node:zlib also checks the Adler-32 trailer, so it refuses almost every damaged stream (the
  // reference inflate then decides); whatever it does accept must be fflate's bytes.
  it('on damaged streams: whenever it succeeds, fflate gives the same bytes', () => {
    const rand = rng(11);
    let agreed = 0;
    for (let it = 0; it < 3000; it++) {
      const n = 1 + Math.floor(rand() * 2000);
      const raw = new Uint8Array(n);
      for (let i = 0; i < n; i++) raw[i] = rand() < 0.5 ? Math.floor(rand() * 256) : (raw[i - 3] ?? 7);
      const zlib = new Uint8Array(deflateSync(raw, { level: Math.floor(rand() * 10), strategy: Math.floor(rand() * 5) }));
      for (let k = 0; k < 1 + (it % 3); k++) zlib[2 + Math.floor(rand() * (zlib.length - 2))] ^= 1 << Math.floor(rand() * 8);
      const out = new Uint8Array(n + 40);
      const got = nodeInflateInto(zlib, out);
      if (got < 0) continue;
      const ref = reference(zlib);
      expect(ref, `case ${it}`).not.toBeNull();
      expect(Buffer.from(out.subarray(0, got)).equals(Buffer.from(ref!)), `case ${it}`).toBe(true);
      agreed++;
    }
    expect(agreed).toBeGreaterThan(0);
  });

  it('a zlib bomb stops at the declared size', () => {
    const zlib = new Uint8Array(deflateSync(new Uint8Array(50_000_000)));
    expect(nodeInflateInto(zlib, new Uint8Array(1000))).toBe(-1);
  });
});

describe('adler32 (stored-zlib trailer for the fast-png path)', () => {
  function naive(data: Uint8Array): number {
    let a = 1;
    let b = 0;
    for (const v of data) {
      a = (a + v) % 65521;
      b = (b + a) % 65521;
    }
    return ((b << 16) | a) >>> 0;
  }
  it('matches the definition, also where the deferred sums are largest', () => {
    expect(adler32(new TextEncoder().encode('Wikipedia'))).toBe(0x11e60398);
    expect(adler32(new Uint8Array(0))).toBe(1);
    const rand = rng(3);
    const random = Uint8Array.from({ length: 100_003 }, () => Math.floor(rand() * 256));
    expect(adler32(random)).toBe(naive(random));
    for (const n of [5551, 5552, 5553, 5552 * 3 + 1, 1 << 20]) {
      const ff = new Uint8Array(n).fill(255);
      expect(adler32(ff), `0xff × ${n}`).toBe(naive(ff));
    }
  });
});
