/**
 * The CI slice of the fuzz suite (the long run is `node scripts/fuzz.mjs --count 10000`): a fixed, deterministic
 * set of generated and mutated PNG / JPEG / WebP / GIF / BMP inputs through decode + trace + SVG write, in-process.
 * Every input must end either in a result with a non-empty size or in a documented TracelabError
 * (ALLOWED_CODES: 1006, 1012, 1013); anything else is a crash. Plus decompression bombs: headers declaring more
 * than 33,554,432 px are refused with 1013 from the header (their few bytes of pixel data would otherwise end in
 * 1006), and a zlib bomb stops inflating just past its declared size. Time and memory of these refusals are bench
 * figures (bench/guards.mjs), not limits here; a hang is caught by the test timeout.
 */

import { readdirSync, readFileSync } from 'node:fs';

import { beforeAll, describe, expect, it, vi } from 'vitest';

import { BOMBS, zlibBombPng } from './bombs.js';
import { buildSeeds, FORMATS, makeCase, MUTATORS, type FuzzCase, type Seed } from './corpus.js';
import { ALLOWED_CODES, prepareFuzzHost, runOne, type Outcome } from './run-one.js';

/** Bytes every fflate Unzlib stream of this file put out (the zlib-bomb test reads it). */
const inflated = vi.hoisted(() => ({ bytes: 0 }));
vi.mock('fflate', async (importOriginal) => {
  const real = await importOriginal<typeof import('fflate')>();
  class CountingUnzlib extends real.Unzlib {
    constructor(opts?: import('fflate').UnzlibStreamOptions | import('fflate').FlateStreamHandler, cb?: import('fflate').FlateStreamHandler) {
      const handler = typeof opts === 'function' ? opts : cb;
      const counting: import('fflate').FlateStreamHandler = (data, final) => {
        inflated.bytes += data.length;
        handler?.(data, final);
      };
      if (typeof opts === 'function' || opts === undefined) super(counting);
      else super(opts, counting);
    }
  }
  return { ...real, Unzlib: CountingUnzlib };
});

/** Cases 0..SLICE-1 of run seed 1 (formats in rotation, mutators by weight). */
const SLICE = 600;
const RUN_SEED = 1;

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
// Decompression bombs: small files declaring a huge canvas (tests/fuzz/bombs.ts).

describe('decompression bombs', () => {
  // Each file holds the pixel data of a 2×2 or 8×8 picture (or none): decoding it at the declared size would end in
  // 1006 (data ends early) or in an allocation of the declared canvas, so 1013 shows the declared size alone refused it.
  it.each(BOMBS)('%s is refused with 1013 from its header', async (_name, make) => {
    const bytes = make();
    expect(bytes.length).toBeLessThan(2048);
    const out = await runOne(bytes);
    expect(out.kind === 'error' ? out.code : out.kind).toBe(1013);
  });

  it('a PNG with an IDAT that inflates far beyond its declared size is refused (zlib bomb)', async () => {
    // 64×64 grey declared, but 48 MB of zeros in the zlib stream (≈ 200 KB compressed).
    const png = zlibBombPng();
    inflated.bytes = 0;
    const out = await runOne(png);
    expect(out.kind === 'error' ? out.code : out.kind).toBe(1006);
    expect(out.kind === 'error' && out.message).toMatch(/inflates to more than its header declares/);
    // The inflate is fed 4 KiB at a time and stops once the output passes the declared size (+12.5 % + 1 MB): at
    // most one 4-KiB slice (DEFLATE expands ≤ 1032:1) past that limit comes out, not the stream's 48 MB.
    const declared = 64 * (1 + 64);
    const limit = declared + (declared >> 3) + 2 ** 20;
    expect(inflated.bytes).toBeGreaterThan(limit);
    expect(inflated.bytes).toBeLessThanOrEqual(limit + 4096 * 1032);
  });
});
