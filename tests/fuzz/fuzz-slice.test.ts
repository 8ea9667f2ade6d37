/**
 * The CI slice of the fuzz suite (the long run is `node scripts/fuzz.mjs --count 10000`): a fixed, deterministic
 * set of generated and mutated PNG / JPEG / WebP / GIF / BMP inputs through decode + trace + SVG write, in-process.
 * Every input must end either in a result with a non-empty size or in a documented TracelabError
 * (ALLOWED_CODES: 1006, 1012, 1013); anything else is a crash. Plus decompression bombs: headers declaring more
 * than 33,554,432 px are refused with 1013 before any pixel buffer is allocated.
 */

import { readdirSync, readFileSync } from 'node:fs';

import { beforeAll, describe, expect, it } from 'vitest';

import { MAX_ACCEPTED_PIXELS } from '../../src/engine/errors.js';
import { crc32 } from '../../src/decode/crc32.js';
import { buildBmp, buildPng, concat, PNG_SIGNATURE, pngChunk } from '../decode/build.js';
import { encodeGif, encodeJpeg } from '../helpers/encode.js';
import { buildSeeds, FORMATS, makeCase, MUTATORS, type FuzzCase, type Seed } from './corpus.js';
import { ALLOWED_CODES, prepareFuzzHost, runOne, type Outcome } from './run-one.js';

/** Cases 0..SLICE-1 of run seed 1 (formats in rotation, mutators by weight). */
const SLICE = 600;
const RUN_SEED = 1;
/** Heap + ArrayBuffer growth allowed for refusing a bomb (the refused canvases would need ≥ 128 MB). */
const BOMB_HEAP_BUDGET_MB = 16;
const BOMB_TIME_BUDGET_MS = 500;
/** Growth allowed while refusing a PNG whose 200 KB IDAT inflates to 48 MB (declared: 64×64). */
const ZLIB_BOMB_BUDGET_MB = 24;
/**
 * In-process hang bound per input. Generous: a 48-byte GIF may legitimately declare an 8 MP canvas, which is
 * decoded, shrunk to input.max_pixels (2.1 MP) and traced (≈ 3–6 s on a loaded 2-core runner).
 */
const HANG_MS = 30_000;

let seeds: Seed[];

beforeAll(async () => {
  prepareFuzzHost();
  seeds = await buildSeeds();
});

function describeCase(c: FuzzCase): string {
  return `case #${c.index} ${c.format}/${c.variant}/${c.mutator}`;
}

describe('fuzz slice', () => {
  it('has seed images of every format and the PngSuite-style variants', () => {
    const variants = seeds.map((s) => `${s.format}:${s.variant}`);
    for (const f of FORMATS) expect(seeds.some((s) => s.format === f)).toBe(true);
    for (const ct of [0, 2, 3, 4, 6]) expect(variants.some((v) => v.startsWith(`png:ct${ct}-`))).toBe(true);
    for (const d of [1, 2, 4, 16]) expect(variants.some((v) => v.includes(`-d${d}-`))).toBe(true);
    for (const needle of ['adam7', 'trns', '-1x1', '-1x9', 'png:ct0-d16-adam7', 'gif:animated', 'gif:interlaced', 'jpeg:progressive', 'jpeg:grey', 'webp:lossless', 'webp:lossy', 'bmp:1bit', 'bmp:4bit', 'bmp:8bit', 'bmp:24bit', 'bmp:32bit', 'bmp:rle8']) {
      expect(variants.some((v) => v.includes(needle)), needle).toBe(true);
    }
  });

  it('every valid seed image traces', async () => {
    for (const seed of seeds) {
      const out = await runOne(seed.bytes);
      expect(out.kind, `${seed.format}/${seed.variant}: ${out.kind !== 'ok' ? out.message : ''}`).toBe('ok');
    }
  });

  it(`${SLICE} mutated inputs: 0 crashes, every failure a documented error code`, async () => {
    const crashes: string[] = [];
    const perMutator = new Map<string, number>();
    const codes = new Map<number, number>();
    let ok = 0;
    for (let i = 0; i < SLICE; i++) {
      const c = makeCase(seeds, RUN_SEED, i);
      perMutator.set(c.mutator, (perMutator.get(c.mutator) ?? 0) + 1);
      const out: Outcome = await runOne(c.bytes);
      if (out.kind === 'crash') crashes.push(`${describeCase(c)}: ${out.message.split('\n')[0]}`);
      else if (out.kind === 'error') {
        expect(ALLOWED_CODES).toContain(out.code);
        codes.set(out.code, (codes.get(out.code) ?? 0) + 1);
      } else {
        ok++;
        expect(out.width).toBeGreaterThan(0);
        expect(out.height).toBeGreaterThan(0);
      }
      expect(out.ms, describeCase(c)).toBeLessThan(HANG_MS);
    }
    expect(crashes).toEqual([]);
    // The slice really covers every mutator and reaches both outcomes.
    for (const m of MUTATORS) expect(perMutator.get(m) ?? 0, m).toBeGreaterThan(0);
    expect(ok).toBeGreaterThan(SLICE / 10);
    expect(codes.get(1006) ?? 0).toBeGreaterThan(0);
    expect(codes.get(1013) ?? 0).toBeGreaterThan(0);
  });

  it('reproducers found by the long run stay fixed (tests/fuzz/found)', async () => {
    const dir = new URL('./found/', import.meta.url);
    let names: string[] = [];
    try {
      // `open-*` files are known, unfixed findings (memory, not crashes) kept for the long run's report.
      names = readdirSync(dir).filter((n) => !n.startsWith('.') && !n.startsWith('open-') && !n.endsWith('.md'));
    } catch {
      return; // no reproducers
    }
    for (const name of names) {
      const out = await runOne(new Uint8Array(readFileSync(new URL(name, dir))));
      expect(out.kind, `${name}: ${out.kind === 'crash' ? out.message : ''}`).not.toBe('crash');
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Decompression bombs: small files declaring a huge canvas.

const be32 = (v: number) => [(v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255];
const le16 = (v: number) => [v & 255, (v >>> 8) & 255];
const le24 = (v: number) => [v & 255, (v >>> 8) & 255, (v >>> 16) & 255];
const le32 = (v: number) => [...le16(v & 0xffff), ...le16(v >>> 16)];

/** A tiny valid PNG whose IHDR then declares width × height (CRC fixed, so only the size lies). */
function pngDeclaring(width: number, height: number): Uint8Array {
  const png = buildPng({ width: 2, height: 2, colorType: 0, depth: 8, samples: [0, 255, 255, 0] });
  png.set(be32(width), 16);
  png.set(be32(height), 20);
  png.set(be32(crc32(png.subarray(12, 29))), 29);
  return png;
}

function jpegDeclaring(width: number, height: number): Uint8Array {
  const jpeg = encodeJpeg({ width: 8, height: 8, data: new Uint8Array(8 * 8 * 4).fill(200) });
  for (let i = 2; i + 9 < jpeg.length; i++) {
    if (jpeg[i] === 0xff && jpeg[i + 1] === 0xc0) {
      jpeg[i + 5] = height >> 8; jpeg[i + 6] = height & 255;
      jpeg[i + 7] = width >> 8; jpeg[i + 8] = width & 255;
      return jpeg;
    }
  }
  throw new Error('no SOF0');
}

function gifScreen(width: number, height: number): Uint8Array {
  const gif = encodeGif({ width: 2, height: 2, data: new Uint8Array([0, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 255, 0, 0, 0, 255]) });
  gif.set([...le16(width), ...le16(height)], 6);
  return gif;
}

/** A GIF whose logical screen is 2×2 but whose first frame sits at (65000, 65000): the canvas grows to hold it. */
function gifFrameOutside(): Uint8Array {
  const gif = encodeGif({ width: 2, height: 2, data: new Uint8Array(16).fill(255) });
  const gct = gif[10]! & 0x80 ? 3 * 2 ** ((gif[10]! & 7) + 1) : 0;
  let at = 13 + gct;
  while (gif[at] !== 0x2c) at++;
  gif.set([...le16(65000), ...le16(65000)], at + 1);
  return gif;
}

function webpVp8x(width: number, height: number): Uint8Array {
  const chunk = [...'VP8X'].map((c) => c.charCodeAt(0));
  const body = [...chunk, ...le32(10), 0, 0, 0, 0, ...le24(width - 1), ...le24(height - 1)];
  return concat([...'RIFF'].map((c) => c.charCodeAt(0)), le32(4 + body.length), [...'WEBP'].map((c) => c.charCodeAt(0)), body);
}

const BOMBS: Array<[string, () => Uint8Array]> = [
  ['PNG IHDR 2^31-1 × 2^31-1 (CRC fixed)', () => pngDeclaring(0x7fffffff, 0x7fffffff)],
  ['PNG IHDR 6000 × 6000 (36 MP)', () => pngDeclaring(6000, 6000)],
  ['PNG IHDR 1 × 33,554,433', () => pngDeclaring(1, MAX_ACCEPTED_PIXELS + 1)],
  ['BMP biWidth 2^31-1', () => buildBmp({ width: 0x7fffffff, height: 2, bpp: 24, pixels: new Uint8Array(32) })],
  ['BMP 100,000 × -100,000 (top-down)', () => buildBmp({ width: 100_000, height: -100_000, bpp: 8, palette: [[0, 0, 0]], pixels: new Uint8Array(16) })],
  ['GIF logical screen 65535 × 65535', () => gifScreen(65535, 65535)],
  ['GIF frame placed at 65000,65000 on a 2 × 2 screen', gifFrameOutside],
  ['JPEG SOF 65535 × 65535', () => jpegDeclaring(65535, 65535)],
  ['JPEG SOF 8192 × 8192', () => jpegDeclaring(8192, 8192)],
  ['WebP VP8X 16384 × 16384', () => webpVp8x(16384, 16384)],
];

describe('decompression bombs', () => {
  it.each(BOMBS)('%s is refused with 1013 before allocation', async (_name, make) => {
    const bytes = make();
    expect(bytes.length).toBeLessThan(2048);
    await runOne(pngDeclaring(4, 4)); // warm the code paths so the measurement sees only this input
    const before = process.memoryUsage();
    const out = await runOne(bytes);
    const after = process.memoryUsage();
    expect(out.kind === 'error' ? out.code : out.kind).toBe(1013);
    expect(out.ms).toBeLessThan(BOMB_TIME_BUDGET_MS);
    const grewMb = (after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers) / 2 ** 20;
    expect(grewMb).toBeLessThan(BOMB_HEAP_BUDGET_MB);
  });

  it('a PNG with an IDAT that inflates far beyond its declared size is refused (zlib bomb)', async () => {
    // 64×64 grey declared, but 48 MB of zeros in the zlib stream (≈ 200 KB compressed).
    const { zlibSync } = await import('fflate');
    const idat = zlibSync(new Uint8Array(48 * 2 ** 20), { level: 1 });
    const png = concat(
      PNG_SIGNATURE,
      pngChunk('IHDR', [...be32(64), ...be32(64), 8, 0, 0, 0, 0]),
      pngChunk('IDAT', idat),
      pngChunk('IEND'),
    );
    const before = process.memoryUsage();
    const out = await runOne(png);
    const after = process.memoryUsage();
    expect(out.kind === 'error' ? out.code : out.kind).toBe(1006);
    // The inflate is fed 4 KiB at a time and stops once the output passes the declared size (+12.5 % + 1 MB);
    // fflate's output buffers not yet collected count too. With 64 KiB slices this grew by the whole 48 MB.
    const grewMb = (after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers) / 2 ** 20;
    expect(grewMb).toBeLessThan(ZLIB_BOMB_BUDGET_MB);
  });
});
