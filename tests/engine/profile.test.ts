/**
 * The picture profile from evidence (src/engine/profile/profile.ts) and its override (tracelab.profile,
 * EngineParams.profile). Every fixture is drawn here, deterministically: a 96-px sunset with
 * seeded grain (photo), a 64 × 64 sprite (pixel), its exact ×4 upscale (pixel, on its lattice),
 * a two-colour 200 × 200 drawing (line art).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_PARAMS, traceImage, TraceMemo } from '../../src/engine/index.js';
import { classifyImage, decideProfile, neighbourSpread, type InkOnPaper, type ProfileEvidence } from '../../src/engine/profile/profile.js';
import type { EngineParams, RgbaImage, TraceResult } from '../../src/engine/types.js';
import { drawShape, type Rgb } from '../helpers/raster.js';
import { coverageOf, drawingMarks, SCAN, scanOf } from '../helpers/scans.js';

const params = (over: Partial<EngineParams> = {}): EngineParams => ({ ...DEFAULT_ENGINE_PARAMS, ...over });
/** The scan evidence of a picture that is no ink on paper (no second tone). */
const NO_SCAN: InkOnPaper = { contrast: 0, axisShare: 0, looseShare: 1, paperSteps: 1, midShare: 1 };

/** Mulberry32: a small seeded generator, so the grain is the same on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 96 × 72 dusk: a sky ramp, a soft sun, a dark hill with a blurred edge, grain of ±6. */
function grainyDusk(width = 96, height = 72, seed = 27): RgbaImage {
  const rand = seeded(seed);
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = y / height;
      let r = 40 + 170 * t;
      let g = 50 + 90 * t;
      let b = 150 - 40 * t;
      const sun = Math.max(0, 1 - Math.hypot(x - 66, y - 24) / 14);
      r += 60 * sun;
      g += 80 * sun;
      b += 40 * sun;
      // The hill's edge spreads over ~3 px, as a lens draws it.
      const hill = 1 / (1 + Math.exp(-(y - (50 + 8 * Math.sin(x / 11))) / 1.2));
      r = r * (1 - hill) + 30 * hill;
      g = g * (1 - hill) + 70 * hill;
      b = b * (1 - hill) + 40 * hill;
      const o = (y * width + x) * 4;
      data[o] = r + (rand() - 0.5) * 12;
      data[o + 1] = g + (rand() - 0.5) * 12;
      data[o + 2] = b + (rand() - 0.5) * 12;
      data[o + 3] = 255;
    }
  }
  return { width, height, data };
}

const SPRITE_COLORS: readonly Rgb[] = [
  [255, 255, 255],
  [20, 20, 30],
  [200, 40, 50],
  [250, 150, 160],
  [60, 140, 60],
  [240, 200, 40],
];

/** A 64 × 64 sprite sheet: four 16-px creatures in six colours, hard pixel edges, a dotted eye. */
function sprite(): RgbaImage {
  const size = 64;
  const data = new Uint8ClampedArray(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const cx = (x % 32) - 16;
      const cy = (y % 32) - 16;
      const frame = (x >> 5) + 2 * (y >> 5);
      let c = 0;
      if (cx * cx + cy * cy * 1.3 < 150) c = 1; // outline
      if (cx * cx + cy * cy * 1.3 < 110) c = 2 + (frame & 1); // body
      if (cy > 4 && Math.abs(cx) < 8 + frame) c = 4; // feet
      if ((cx === -4 || cx === 3) && cy === -4) c = 1; // eyes
      if (cy === -7 && Math.abs(cx) < 3) c = 5; // a highlight
      const [r, g, b] = SPRITE_COLORS[c]!;
      const o = (y * size + x) * 4;
      data[o] = r;
      data[o + 1] = g;
      data[o + 2] = b;
      data[o + 3] = 255;
    }
  }
  return { width: size, height: size, data };
}

/** `image` scaled up by an integer factor, nearest neighbour (an exact upscale). */
function upscale(image: RgbaImage, k: number): RgbaImage {
  const width = image.width * k;
  const height = image.height * k;
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const s = (Math.floor(y / k) * image.width + Math.floor(x / k)) * 4;
      data.set(image.data.subarray(s, s + 4), (y * width + x) * 4);
    }
  }
  return { width, height, data };
}

/** Black ink on white, no anti-aliasing (each pixel by its centre): a ring, a bar and a dot (200 × 200). */
function drawing(): RgbaImage {
  const size = 200;
  const data = new Uint8ClampedArray(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const d = Math.hypot(x + 0.5 - 100, y + 0.5 - 90);
      const ink = (d <= 60 && d > 48) || d <= 9 || (y >= 165 && y < 175 && x >= 30 && x < 170);
      data.fill(ink ? 0 : 255, (y * size + x) * 4, (y * size + x) * 4 + 3);
      data[(y * size + x) * 4 + 3] = 255;
    }
  }
  return { width: size, height: size, data };
}

/** Every vertex of every chain, in traced pixels, with the kind of segment that ends there. */
function vertices(result: TraceResult): [number, number, string][] {
  const out: [number, number, string][] = [];
  for (const chain of result.chains) {
    out.push([chain.startX, chain.startY, 'line']);
    for (const s of chain.segments) out.push([s.x, s.y, s.kind]);
  }
  return out;
}

function classify(image: RgbaImage) {
  return classifyImage(image.data, image.width, image.height, neighbourSpread(image.data, image.width, image.height));
}

describe('classifyImage: the profile from evidence, not from size', () => {
  it('reads a 96-px gradient with seeded grain as a photo (it is small, but it has no runs)', () => {
    const facts = classify(grainyDusk());
    expect(facts.profile).toBe('photo');
    expect(facts.runShare).toBeLessThan(0.2);
    expect(facts.reason).toMatch(/grain.*photo$/);
    const result = traceImage(grainyDusk(), params());
    expect(result.stats.profile).toBe('photo');
    expect(result.stats.profileReason).toBe(facts.reason);
    // Not a mosaic of pixel regions: a few blobs for sky bands, sun and hill.
    expect(result.stats.regions).toBeLessThan(400);
  });

  it('reads a grey photo as a photo (grey levels repeat by chance, but a photo spreads them over many)', () => {
    // Grey sky ramp, a textured field (grass: fine stripes and grain), as a lens and sensor draw it.
    const width = 200;
    const height = 150;
    const rand = seeded(11);
    const data = new Uint8ClampedArray(width * height * 4);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const field = 1 / (1 + Math.exp(-(y - (90 + 10 * Math.sin(x / 17))) / 1.5));
        const sky = 200 - 90 * (y / height);
        const grass = 70 + 25 * Math.sin(x * 0.9 + y * 0.3) * Math.sin(y * 0.7) + 20 * (y / height);
        const o = (y * width + x) * 4;
        data[o] = data[o + 1] = data[o + 2] = sky * (1 - field) + grass * field + (rand() - 0.5) * 10;
        data[o + 3] = 255;
      }
    }
    const facts = classify({ width, height, data });
    expect(facts.grey).toBe(true);
    expect(facts.profile).toBe('photo');
    expect(facts.reason).toMatch(/^grey tones spread over many levels/);
    // The same measurements with most pixels on a few levels (grey art's flat tones) do not reach this rule.
    expect(decideProfile({ ...facts, distinct: facts.distinctColors, opaque: width * height, topLevelsShare: 0.95 }).reason).not.toMatch(/^grey tones/);
  });

  it('reads a 64 × 64 sprite as pixel art, for its hard edges and runs', () => {
    const facts = classify(sprite());
    expect(facts.profile).toBe('pixel');
    expect(facts.runShare).toBeGreaterThan(0.9);
    expect(facts.reason).toMatch(/^hard edges without anti-aliasing, \d+ % of pixels in runs, 6 colours: pixel art$/);
    // Traced lattice-exact: straight lines between whole-pixel corners only, its six colours.
    const result = traceImage(sprite(), params());
    expect(result.stats.profile).toBe('pixel');
    expect(result.stats.profileReason).toBe(facts.reason);
    for (const [x, y, kind] of vertices(result)) {
      expect(kind).toBe('line');
      expect(Number.isInteger(x) && Number.isInteger(y)).toBe(true);
    }
    expect(new Set(result.shapes.map((s) => `${s.color.r},${s.color.g},${s.color.b}`))).toEqual(new Set(SPRITE_COLORS.map((c) => c.join(','))));
  });

  it('traces an exact ×4 upscale of the sprite on its lattice as pixel art, and says so', () => {
    const result = traceImage(upscale(sprite(), 4), params());
    expect(result.stats.profile).toBe('pixel');
    // (The lattice detector counts the cells of the drawn part.)
    expect(result.stats.profileReason).toMatch(/^exact upscale: 256 × 256 px is a lattice of \d+ × \d+ cells: pixel art$/);
    for (const [x, y, kind] of vertices(result)) {
      expect(kind).toBe('line');
      expect([x % 4, y % 4]).toEqual([0, 0]);
    }
  });

  it('reads a two-colour 200 × 200 drawing as line art', () => {
    const result = traceImage(drawing(), params());
    expect(result.stats.profile).toBe('lineart');
    expect(result.stats.profileReason).toBe('two colours, no anti-aliasing: line art');
  });

  it('decides from the measurements in a fixed order (each rule can be reached and missed)', () => {
    const base: ProfileEvidence = { distinct: 30, opaque: 40_000, blendRatio: 0.45, edgeDensity: 0.3, flatShare: 0.9, noiseShare: 0, runShare: 0.95, grey: false, topLevelsShare: 1, rampTiles: 0, antiAliasedTiles: 0, tones: { blendShare: 0.9, toneShare: 0.6 }, ink: NO_SCAN, hairlineRatio: 0, alphaBlendRatio: 0 };
    expect(decideProfile(base).profile).toBe('flat');
    // A pre-rendered sprite: blends in its ramps, but runs and repeated colours.
    expect(decideProfile({ ...base, blendRatio: 0.25, runShare: 0.78 }).profile).toBe('pixel');
    // ... only if there are edges to call hard: without any, no blends proves nothing among many
    // colours (a smooth grey picture); a small palette is evidence enough (a striped tile).
    expect(decideProfile({ ...base, distinct: 200, blendRatio: 0, runShare: 0.78, edgeDensity: 0 }).profile).not.toBe('pixel');
    expect(decideProfile({ ...base, blendRatio: 0, runShare: 0.78, edgeDensity: 0 }).profile).toBe('pixel');
    expect(decideProfile({ ...base, blendRatio: 0.25, runShare: 0.78, noiseShare: 0.1 }).profile).toBe('flat');
    // The same average over flat art's anti-aliased tiles and a hard sprite's: flat art (mixed).
    expect(decideProfile({ ...base, blendRatio: 0.25, runShare: 0.78, antiAliasedTiles: 0.5 }).profile).toBe('flat');
    // A smooth photo: ramps without edges and rare colours, though most pixels are "flat".
    expect(decideProfile({ ...base, distinct: 5000, noiseShare: 0.15, rampTiles: 0.3, runShare: 0.6 }).profile).toBe('photo');
    // Gradient art: the same ramps, colours that repeat.
    expect(decideProfile({ ...base, distinct: 3000, noiseShare: 0.03, rampTiles: 0.2 }).profile).toBe('flat');
    // A painted texture tile: some runs, repeated colours; the same numbers in grey are a photo.
    const tile: ProfileEvidence = { ...base, distinct: 2400, blendRatio: 0.4, flatShare: 0.08, noiseShare: 0.32, runShare: 0.28 };
    expect(decideProfile(tile).profile).toBe('pixel');
    expect(decideProfile({ ...tile, grey: true, distinct: 200 }).profile).toBe('photo');
    // Grain: thousands of colours, hardly a run — a photo at any size.
    expect(decideProfile({ ...base, distinct: 4000, opaque: 9000, runShare: 0.1, flatShare: 0.5 }).profile).toBe('photo');
    // Grey pictures whose levels spread (the measurements of pictures from Debian packages): a
    // photo (scikit-image's camera), an edgeless microscope image (its cell.png), and a grey
    // icon shaded with gradients (Tango's drive-harddisk at 256 px), which repeats each level.
    const greyPhoto: ProfileEvidence = { ...base, grey: true, distinct: 256, blendRatio: 0.66, edgeDensity: 0.14, flatShare: 0.57, runShare: 0.49, topLevelsShare: 0.13 };
    expect(decideProfile(greyPhoto).profile).toBe('photo');
    expect(decideProfile({ ...greyPhoto, blendRatio: 0, edgeDensity: 0, flatShare: 0.99, runShare: 0.88, topLevelsShare: 0.55 }).profile).toBe('photo');
    expect(decideProfile({ ...greyPhoto, distinct: 164, blendRatio: 0.49, edgeDensity: 0.036, flatShare: 0.85, runShare: 0.96, topLevelsShare: 0.56 }).profile).toBe('flat');
    // Ink on paper with anti-aliased edges: every pixel a tone or a blend, most pixels a tone.
    const ink: ProfileEvidence = { ...base, distinct: 180, tones: { blendShare: 1, toneShare: 0.93 } };
    expect(decideProfile(ink).profile).toBe('lineart');
    // ... but not a two-colour ramp (all blends), nor an icon-sized picture.
    expect(decideProfile({ ...ink, tones: { ...ink.tones, toneShare: 0.55 } }).profile).toBe('flat');
    expect(decideProfile({ ...ink, opaque: 64 * 64 }).profile).toBe('flat');
    // A scan: grain and blur put pixels off the two tones, but every pixel lies between ink and
    // paper and the in-between tones sit on the ink's edges; the same numbers in grey are no photo.
    const scan: ProfileEvidence = { ...base, distinct: 4097, runShare: 0.3, flatShare: 0.5, noiseShare: 0.2, ink: { contrast: 150, axisShare: 1, looseShare: 0.001, paperSteps: 0, midShare: 0.14 } };
    expect(decideProfile(scan).reason).toMatch(/^ink on paper .*: line art$/);
    expect(decideProfile({ ...scan, grey: true, distinct: 256, topLevelsShare: 0.4 }).profile).toBe('lineart');
    // ... not with flat areas of a grey (grey-shaded art, a photo), a third colour, a second
    // paper, a contrast below 96 levels, icon size, or mostly in-between tones (a grey photo of
    // gravel: every tone between its darkest and its commonest, each on a slope).
    expect(decideProfile({ ...scan, ink: { ...scan.ink, midShare: 0.27 } }).profile).toBe('photo');
    expect(decideProfile({ ...scan, ink: { ...scan.ink, looseShare: 0.02 } }).profile).toBe('photo');
    expect(decideProfile({ ...scan, ink: { ...scan.ink, axisShare: 0.985 } }).profile).toBe('photo');
    expect(decideProfile({ ...scan, ink: { ...scan.ink, paperSteps: 0.06 } }).profile).toBe('photo');
    expect(decideProfile({ ...scan, ink: { ...scan.ink, contrast: 95 } }).profile).toBe('photo');
    expect(decideProfile({ ...scan, opaque: 128 * 128 }).profile).toBe('photo');
    // Hairlines soften edges that no two-colour blend shows: not pixel art.
    expect(decideProfile({ ...base, blendRatio: 0.1, runShare: 0.95 }).profile).toBe('pixel');
    expect(decideProfile({ ...base, blendRatio: 0.1, runShare: 0.95, hairlineRatio: 0.025 }).profile).toBe('flat');
    // One ink anti-aliased in the alpha channel, no flat areas: ink on transparent paper, not dithering.
    expect(decideProfile({ ...base, distinct: 1, flatShare: 0.1, blendRatio: 0.6, runShare: 1 }).reason).toBe('one ink anti-aliased on transparent paper: line art');
    expect(decideProfile({ ...base, distinct: 3, flatShare: 0.1, blendRatio: 0.6, runShare: 1 }).profile).toBe('pixel');
    // Edges anti-aliased in the alpha channel are not hard, and alpha-blended few colours are no dithering.
    expect(decideProfile({ ...base, blendRatio: 0.1, runShare: 0.95, alphaBlendRatio: 0.05 }).profile).toBe('flat');
    expect(decideProfile({ ...base, distinct: 3, flatShare: 0.1, blendRatio: 0.6, runShare: 1, alphaBlendRatio: 0.05 }).profile).toBe('flat');
    // Thin lettering outlined with a hairline on transparency (tests/helpers/scans.ts hairlineLettering):
    // no flat areas, anti-aliased, colours in runs: flat art; the same without runs is grain, a photo.
    const lettering: ProfileEvidence = { ...base, distinct: 28, flatShare: 0.33, blendRatio: 0.48, runShare: 0.7, edgeDensity: 0.56, alphaBlendRatio: 0.24 };
    expect(decideProfile(lettering).reason).toBe('anti-aliased edges, 70 % of pixels in runs, too thin for flat areas: flat art');
    expect(decideProfile({ ...lettering, distinct: 700, runShare: 0.49 }).profile).toBe('photo');
  });
});

describe('the facts classifyImage reports', () => {
  it('decide the same profile again: evidence no rule read is reported as not measured (ramp tiles 0, tones 0 and 0, NO_SCAN), never guessed', () => {
    // Ramp tiles, two tones and ink on paper are measured when a rule reads them, the ink also
    // when the runs leave room for a scan (inInkAndPaper reads it then, whatever the profile).
    const size = 240;
    const coverage = coverageOf(size, size, drawingMarks().marks);
    const clean = scanOf(size, size, coverage, { ...SCAN, paperDrift: 0, grain: 0, chromaGrain: 0, blurPasses: 0, jpegQuality: 0 });
    const scan = scanOf(size, size, coverage);
    const facts = new Map([sprite(), grainyDusk(), drawing(), clean, scan].map((image) => [image, classify(image)]));
    for (const [image, f] of facts) {
      const again = decideProfile({ ...f, distinct: f.distinctColors, opaque: image.width * image.height });
      expect(again.profile).toBe(f.profile);
      expect(f.reason.startsWith(again.reason)).toBe(true);
    }
    const [sprited, dusk, , cleanLines, scanned] = [...facts.values()];
    // Pixel art is decided before any of the three; its runs rule out a scan.
    expect(sprited!.profile).toBe('pixel');
    expect([sprited!.rampTiles, sprited!.tones, sprited!.ink]).toEqual([0, { blendShare: 0, toneShare: 0 }, NO_SCAN]);
    // Clean anti-aliased line art is decided by its two tones, before the ink, and has runs.
    expect(cleanLines!.reason).toMatch(/^two tones/);
    expect(cleanLines!.tones.blendShare).toBeGreaterThan(0.98);
    expect(cleanLines!.ink).toEqual(NO_SCAN);
    // A scan's grain leaves few runs: its ink is measured (and found), so is a photo's.
    expect(scanned!.runShare).toBeLessThan(0.75);
    expect(scanned!.ink.contrast).toBeGreaterThan(96);
    expect(dusk!.ink).not.toEqual(NO_SCAN);
  });
});

describe('pixels anywhere in memory', () => {
  it('an image whose pixel bytes start at an odd offset of their buffer (a subarray) gets the same spread and the same facts', () => {
    // The profile reads pixels as 32-bit words where it can; an unaligned view has to give the
    // same measurements, not throw (a caller's subarray of a bigger buffer).
    for (const image of [sprite(), grainyDusk()]) {
      const shifted = new Uint8ClampedArray(image.data.length + 1);
      shifted.set(image.data, 1);
      const unaligned = shifted.subarray(1);
      expect(unaligned.byteOffset % 4).toBe(1);
      expect(neighbourSpread(unaligned, image.width, image.height)).toEqual(neighbourSpread(image.data, image.width, image.height));
      expect(classify({ ...image, data: unaligned })).toEqual(classify(image));
    }
  });
});

describe('EngineParams.profile (tracelab.profile) overrides the decision', () => {
  it("'auto' and absent are the engine's own decision, byte for byte", () => {
    const image = grainyDusk();
    const auto = traceImage(image, params({ profile: 'auto' }));
    const { profile: _omitted, ...withoutProfile } = DEFAULT_ENGINE_PARAMS;
    const absent = traceImage(image, withoutProfile);
    expect(JSON.stringify(absent.shapes)).toBe(JSON.stringify(auto.shapes));
    expect(absent.stats.profile).toBe('photo');
  });

  it('forces each profile, with the reason "chosen by tracelab.profile"', () => {
    for (const profile of ['flat', 'photo', 'pixel', 'lineart'] as const) {
      const result = traceImage(sprite(), params({ profile }));
      expect(result.stats.profile).toBe(profile);
      expect(result.stats.profileReason).toBe('chosen by tracelab.profile');
    }
  });

  it("forcing 'flat' on an exact upscale skips the lattice: it is traced at full size", () => {
    const result = traceImage(upscale(sprite(), 4), params({ profile: 'flat' }));
    expect(result.stats.profile).toBe('flat');
    expect(result.width).toBe(256);
    // On the lattice every cell edge lies on a multiple of 4; traced as flat art, edges move by coverage.
    expect(result.stats.profileReason).toBe('chosen by tracelab.profile');
  });

  it("forcing 'lineart' on a picture of more than two colours traces each colour's regions with the line-art fitter", () => {
    const image = sprite();
    const lineart = traceImage(image, params({ profile: 'lineart' }));
    const flat = traceImage(image, params({ profile: 'flat' }));
    // Same palette as flat art (no colour is lost), but other outlines: the potrace-style fitter.
    expect(lineart.stats.colors).toBe(flat.stats.colors);
    expect(new Set(lineart.shapes.map((s) => `${s.color.r},${s.color.g},${s.color.b}`)).size).toBe(6);
    expect(JSON.stringify(lineart.chains)).not.toBe(JSON.stringify(flat.chains));
    for (const chain of lineart.chains) for (const seg of chain.segments) expect(Number.isFinite(seg.x) && Number.isFinite(seg.y)).toBe(true);
  });

  it("forcing 'pixel' on a photo does not hang: above the region cap it is traced as a photo, and says why", () => {
    // 400 × 320 of a one-pixel checkerboard: as pixel art (4-connected, exact colours) every pixel
    // is a region of its own, more than MAX_TRACED_REGIONS; as a photo it is one grey (cheap to
    // trace, where random grain took ~30 s of CPU and neared the test's timeout on a loaded machine).
    const width = 400;
    const height = 320;
    const data = new Uint8ClampedArray(width * height * 4);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = y * width + x;
        const v = (x + y) % 2 === 0 ? 40 : 200;
        data[i * 4] = v;
        data[i * 4 + 1] = 255 - v;
        data[i * 4 + 2] = v;
        data[i * 4 + 3] = 255;
      }
    }
    const result = traceImage({ width, height, data }, params({ profile: 'pixel' }));
    expect(result.stats.profile).toBe('photo');
    expect(result.stats.profileReason).toBe('tracelab.profile chose pixel art, but its colours make over 120,000 regions: traced as a photo');
  });

  it('the memo never serves one profile for another (fast retrace keys include the profile)', () => {
    const image = sprite();
    const memo = new TraceMemo();
    const pixel = traceImage(image, params(), { memo });
    const photo = traceImage(image, params({ profile: 'photo' }), { memo });
    const again = traceImage(image, params(), { memo });
    expect(pixel.stats.profile).toBe('pixel');
    expect(photo.stats.profile).toBe('photo');
    expect(JSON.stringify(again.shapes)).toBe(JSON.stringify(pixel.shapes));
    expect(JSON.stringify(photo.shapes)).not.toBe(JSON.stringify(pixel.shapes));
  });
});

describe('photos get no polygonal primitives', () => {
  it('a blurry triangle and square in a photo come back as curves, not as triangle or quadrilateral shapes', () => {
    // The same picture as flat art fits the primitives; profiled as a photo it must not.
    const width = 160;
    const height = 120;
    const rand = seeded(9);
    const data = new Uint8ClampedArray(width * height * 4);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const inTri = y > 20 && y < 90 && Math.abs(x - 45) < (y - 20) * 0.5;
        const inSquare = x > 95 && x < 145 && y > 35 && y < 85;
        const v = inTri || inSquare ? 40 : 200 - y * 0.5;
        const o = (y * width + x) * 4;
        data[o] = v + (rand() - 0.5) * 10;
        data[o + 1] = v * 0.9 + (rand() - 0.5) * 10;
        data[o + 2] = v * 0.7 + (rand() - 0.5) * 10;
        data[o + 3] = 255;
      }
    }
    const families = (image: RgbaImage, profile: 'flat' | 'photo') => traceImage(image, params({ profile })).shapes.flatMap((s) => (s.primitive ? [s.primitive.family] : []));
    expect(families({ width, height, data }, 'photo').filter((f) => f !== 'circle' && f !== 'ellipse')).toEqual([]);
    // The control: the same triangle and square drawn crisp as flat art are fitted as primitives.
    const crisp = drawShape(width, height, [200, 180, 140], [
      { color: [40, 36, 28], inside: (x, y) => y > 20 && y < 90 && Math.abs(x - 45) < (y - 20) * 0.5 },
      { color: [40, 36, 28], inside: (x, y) => x > 95 && x < 145 && y > 35 && y < 85 },
    ]);
    const flat = families(crisp, 'flat');
    expect(flat.some((f) => f === 'triangle')).toBe(true);
    expect(flat.some((f) => f === 'rectangle' || f === 'quadrilateral')).toBe(true);
    // And forced to be a photo, the crisp drawing loses them too: the rule is the profile's.
    expect(families(crisp, 'photo').filter((f) => f !== 'circle' && f !== 'ellipse')).toEqual([]);
  });
});

describe('pixel art needs hard edges to be seen, not only their absence', () => {
  it('a smooth, low-contrast grey picture without a single contrasty edge (a microscope slide) is not pixel art', () => {
    // 8-bit grey over ~130 levels, changing by a level every pixel or two: long runs by chance,
    // no edge, no blend.
    const width = 240;
    const height = 200;
    const data = new Uint8ClampedArray(width * height * 4);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const v = Math.round(120 + 45 * Math.sin(x / 23) * Math.cos(y / 31) + 25 * Math.sin((x + y) / 47));
        const o = (y * width + x) * 4;
        data[o] = data[o + 1] = data[o + 2] = v;
        data[o + 3] = 255;
      }
    }
    const spread = neighbourSpread(data, width, height);
    const facts = classifyImage(data, width, height, spread);
    expect(facts.edgeDensity).toBe(0);
    expect(facts.profile).not.toBe('pixel');
    expect(traceImage({ width, height, data }, DEFAULT_ENGINE_PARAMS).stats.profile).not.toBe('pixel');
  });

  it('an exact ×2 upscale of a photo is traced as a photo at its size, not as a mosaic of its cells', () => {
    const small = grainyDusk(96, 72);
    const width = 192;
    const height = 144;
    const data = new Uint8ClampedArray(width * height * 4);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) data.set(small.data.subarray(((y >> 1) * 96 + (x >> 1)) * 4, ((y >> 1) * 96 + (x >> 1)) * 4 + 4), (y * width + x) * 4);
    }
    const result = traceImage({ width, height, data }, DEFAULT_ENGINE_PARAMS);
    expect(result.stats.profile).toBe('photo');
    expect(result.stats.profileReason).toMatch(/^exact upscale \(192 × 144 px is a lattice of 96 × 72 cells\), but its cells are not pixel art: .*photo$/);
    // Traced as a photo: a few hundred regions at most, not one per cell of grain.
    expect(result.stats.regions).toBeLessThan(1000);
    // An upscaled sprite is still pixel art on its lattice (the fixture of the tests above).
    expect(traceImage(upscale(sprite(), 4), DEFAULT_ENGINE_PARAMS).stats.profile).toBe('pixel');
  });
});

describe('a picture that mixes kinds is decided per area', () => {
  /**
   * 512 × 320: flat art on the left 320 px (an anti-aliased triangle and square on paper), a grainy
   * photo on the right 192 px (a ramp with ±8 grain and a blurred dark triangle and square). The
   * photo starts on a tile boundary (32 px), so its tiles are all photo.
   */
  function posterWithPhoto(): RgbaImage {
    const width = 512;
    const height = 320;
    const rand = seeded(31);
    const inTriangle = (x: number, y: number, cx: number): boolean => y > 60 && y < 240 && Math.abs(x - cx) < (y - 60) * 0.5;
    const inSquare = (x: number, y: number, x0: number): boolean => x > x0 && x < x0 + 70 && y > 110 && y < 220;
    const inBlurredTriangle = (x: number, y: number): boolean => y > 90 && y < 190 && Math.abs(x - 378) < (y - 90) * 0.5;
    const inBlurredSquare = (x: number, y: number): boolean => x > 440 && x < 500 && y > 200 && y < 280;
    // The art: anti-aliased, as drawing programs export it.
    const art = drawShape(width, height, [245, 240, 230], [
      { color: [30, 40, 120], inside: (x, y) => x < 320 && inTriangle(x, y, 110) },
      { color: [30, 40, 120], inside: (x, y) => x < 320 && inSquare(x, y, 230) },
    ]);
    const data = new Uint8ClampedArray(art.data);
    for (let y = 0; y < height; y++) {
      for (let x = 320; x < width; x++) {
        // A lens's blur: the shapes' edges spread over ~3 px (a 3 × 3 box of the crisp masks).
        let cover = 0;
        for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) cover += inBlurredTriangle(x + dx, y + dy) || inBlurredSquare(x + dx, y + dy) ? 1 : 0;
        const v = (200 - y * 0.3) * (1 - cover / 9) + 50 * (cover / 9);
        const o = (y * width + x) * 4;
        data[o] = v + (rand() - 0.5) * 16;
        data[o + 1] = v * 0.9 + (rand() - 0.5) * 16;
        data[o + 2] = v * 0.75 + (rand() - 0.5) * 16;
        data[o + 3] = 255;
      }
    }
    return { width, height, data };
  }

  it('traces the art half as flat art and the photo half as a photo, and says so', () => {
    const image = posterWithPhoto();
    const result = traceImage(image, DEFAULT_ENGINE_PARAMS);
    expect(result.stats.profile).toBe('flat');
    expect(result.stats.profileReason).toMatch(/; photo in \d+ % of it \(grain removed as in a photo, no cornered shapes\)$/);
    // Crisp corners where the picture has them, none invented on the photo's blurred blobs.
    const families = (side: (cx: number) => boolean) => result.shapes.flatMap((s) => (s.primitive && side(s.primitive.cx) ? [s.primitive.family] : []));
    expect(families((cx) => cx < 320)).toEqual(expect.arrayContaining(['triangle']));
    expect(families((cx) => cx < 320).some((f) => f === 'rectangle' || f === 'quadrilateral')).toBe(true);
    expect(families((cx) => cx >= 320).filter((f) => f !== 'circle' && f !== 'ellipse')).toEqual([]);
    // The photo's grain is despeckled as a whole photo's is (~1/18,000 of the picture: 9.2 px
    // here), above flat art's own floor for noisy pictures (6 px, which the art's anti-aliasing
    // fragments keep).
    const photoFloor = image.width * image.height * 5.6e-5;
    const onPhoto = result.shapes.filter((s) => result.chains[s.outer[0]!.chain]!.startX > 320);
    expect(onPhoto.length).toBeGreaterThan(3);
    expect(Math.min(...onPhoto.map((s) => s.areaPx))).toBeGreaterThanOrEqual(Math.floor(photoFloor));
  });
});

// The sample list, read before the tests are collected: one test per sample, each a few seconds
// (all of them in one test took ~43 s of CPU, near the 60-s timeout on a loaded machine).
const { SAMPLE_KINDS, SAMPLES } = await import('../../src/ui/samples.js');

describe("the playground's samples", () => {
  const samples = new URL('../../public/samples/', import.meta.url);
  const profileOf = new Map(SAMPLE_KINDS.map((k) => [k.id, k.profile]));
  for (const sample of SAMPLES) {
    it(`${sample.file} (${sample.kind}) gets the profile its kind says, from the evidence alone`, async () => {
      const { decodeImage } = await import('../../src/decode/index.js');
      const image = await decodeImage(new Uint8Array(readFileSync(new URL(sample.file, samples))));
      expect(traceImage(image, DEFAULT_ENGINE_PARAMS).stats.profile).toBe(profileOf.get(sample.kind));
    });
  }

  it('every kind has a real picture, not only a drawn one (issue 29 item 9)', () => {
    // The real pictures, each of the kind and profile its file was chosen for.
    const real = Object.fromEntries(SAMPLES.filter((s) => s.origin === 'real').map((s) => [s.kind, s.file]));
    expect(real).toEqual({
      logo: 'logo-debian.png',
      icon: 'icon-home.png',
      lineart: 'lineart-owl.png',
      scan: 'scan-graph.png',
      pixel: 'pixel-dungeon.png',
      photo: 'photo-coffee.jpg',
    });
    expect(Object.keys(real).sort()).toEqual(SAMPLE_KINDS.map((k) => k.id).sort());
    expect(Object.fromEntries(SAMPLE_KINDS.map((k) => [k.id, k.profile]))).toEqual({ logo: 'flat', icon: 'flat', lineart: 'lineart', scan: 'lineart', pixel: 'pixel', photo: 'photo' });
  });
});
