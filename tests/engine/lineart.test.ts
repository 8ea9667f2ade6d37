/**
 * Line art (two colours, no anti-aliasing: a 1-bit drawing, a thresholded scan) is traced the way
 * potrace traces it — the staircase is the sampling of a smooth outline — while pixel art keeps
 * its lattice. Fixtures are drawn here at one sample per pixel (the pixel centre), as a 1-bit
 * scanner or a threshold would.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import { classifyImage, neighbourSpread } from '../../src/engine/profile/profile.js';
import type { Chain, RgbaImage, Segment, TraceResult } from '../../src/engine/types.js';
import { writeSvg } from '../../src/formats/svg.js';
import { renderSvgWithResvg } from '../helpers/compare.js';
import { sampleChain } from '../helpers/geometry.js';
import { disc, drawCells } from '../helpers/raster.js';
import { coverageOf, drawingMarks, greySpriteSheet, hairlineLettering, hairlineLogo, inkOnTransparent, SCAN, scanOf, SPRITE_GREYS, textMarks } from '../helpers/scans.js';
import { drawBilevel, thinInkKept, type Inside } from '../helpers/bilevel.js';

/** Chains that bound the black shapes (black on one side). */
function blackChains(result: TraceResult): Chain[] {
  const black = new Set(result.shapes.filter((shape) => shape.color.r < 128).map((shape) => shape.region));
  return result.chains.filter((chain) => black.has(chain.leftRegion) || black.has(chain.rightRegion));
}

function countKinds(segments: readonly Segment[]): Record<Segment['kind'], number> {
  const counts = { line: 0, quad: 0, cubic: 0, arc: 0 };
  for (const s of segments) counts[s.kind]++;
  return counts;
}

/** Share of pixels whose rendered ink differs from the drawing's by more than half. */
function wrongPixels(image: RgbaImage, result: TraceResult): number {
  const rendered = renderSvgWithResvg(writeSvg(result), image.width);
  let wrong = 0;
  for (let i = 0; i < image.width * image.height; i++) {
    if (Math.abs(rendered.data[i * 4]! - image.data[i * 4]!) > 127) wrong++;
  }
  return wrong / (image.width * image.height);
}

describe('line art: bilevel pictures traced like potrace', () => {
  it('a 200 × 200 two-colour drawing is line art; a 64 × 64 two-colour sprite and an exact ×4 upscale stay pixel art', () => {
    const drawing = drawBilevel(200, 200, disc(100, 100, 60));
    expect(traceImage(drawing, DEFAULT_ENGINE_PARAMS).stats.profile).toBe('lineart');
    const grid = Array.from({ length: 16 }, (_, y) => Array.from({ length: 16 }, (_, x) => ((x * 7 + y * 3) % 5 === 0 || x === y ? 1 : 0)));
    const sprite = drawCells(grid, [[255, 255, 255], [20, 20, 20]], 4);
    const spriteResult = traceImage(sprite, DEFAULT_ENGINE_PARAMS);
    expect(spriteResult.stats.profile).toBe('pixel');
    // Lattice-exact: every corner of every chain is a whole pixel.
    for (const chain of spriteResult.chains) for (const s of chain.segments) expect([s.kind, s.x % 1, s.y % 1]).toEqual(['line', 0, 0]);
    const bigGrid = Array.from({ length: 48 }, (_, y) => Array.from({ length: 48 }, (_, x) => ((x * 5 + y * 11) % 7 < 2 ? 1 : 0)));
    const upscaled = traceImage(drawCells(bigGrid, [[255, 255, 255], [0, 0, 0]], 4), DEFAULT_ENGINE_PARAMS);
    expect(upscaled.stats.profile).toBe('pixel');
  });

  it('a 1-bit circle comes back round: a circle, or at most 8 curves, within half a pixel of the true circle', () => {
    const image = drawBilevel(140, 140, disc(70.3, 69.6, 47.2));
    const result = traceImage(image, DEFAULT_ENGINE_PARAMS);
    const [outline] = blackChains(result);
    expect(outline).toBeDefined();
    const kinds = countKinds(outline!.segments.toSegments());
    expect(kinds.line).toBe(0);
    expect(kinds.arc > 0 || kinds.cubic + kinds.quad <= 8).toBe(true);
    for (const [x, y] of sampleChain(outline!)) expect(Math.abs(Math.hypot(x - 70.3, y - 69.6) - 47.2)).toBeLessThan(0.5);
  });

  it('with circle and ellipse detection off, the 1-bit circle is still at most 8 curves and no staircase', () => {
    const image = drawBilevel(140, 140, disc(70.3, 69.6, 47.2));
    const shapes = { ...DEFAULT_ENGINE_PARAMS.parameterizedShapes, ellipseCircle: false, ellipseGeneral: false };
    const result = traceImage(image, { ...DEFAULT_ENGINE_PARAMS, parameterizedShapes: shapes });
    const [outline] = blackChains(result);
    const kinds = countKinds(outline!.segments.toSegments());
    expect(kinds.arc).toBe(0);
    expect(kinds.line).toBe(0);
    expect(kinds.cubic + kinds.quad).toBeGreaterThanOrEqual(3);
    expect(kinds.cubic + kinds.quad).toBeLessThanOrEqual(8);
    for (const [x, y] of sampleChain(outline!)) expect(Math.abs(Math.hypot(x - 70.3, y - 69.6) - 47.2)).toBeLessThan(0.6);
  });

  it('a 1-bit 45° band: each long side is one straight segment', () => {
    // A band 8 px wide from the top-left to the bottom-right, cut square at both ends.
    const band: Inside = (x, y) => Math.abs(x - y) <= 4 * Math.SQRT2 && x + y >= 40 && x + y <= 360;
    const result = traceImage(drawBilevel(200, 200, band), DEFAULT_ENGINE_PARAMS);
    const [outline] = blackChains(result);
    const segments = outline!.segments;
    const longLines: number[] = [];
    let x = outline!.startX;
    let y = outline!.startY;
    for (const s of segments) {
      const length = Math.hypot(s.x - x, s.y - y);
      if (s.kind === 'line' && length > 100) longLines.push(length);
      x = s.x;
      y = s.y;
    }
    // Two sides of ~226 px, one line each; the whole band is a quadrilateral (or close to it).
    expect(longLines).toHaveLength(2);
    for (const length of longLines) expect(length).toBeGreaterThan(200);
    expect(segments.length).toBeLessThanOrEqual(8);
  });

  it('a 3 × 65,534 strip (a fuzzed GIF, forced to line art) is traced, not searched for minutes: its long sides stay straight lines', () => {
    // Every vertex of a straight run can reach every other: without a bound on the possible sides
    // the polygon search was quadratic in the run (4 billion sides here; the fuzz slice hung).
    const width = 3;
    const height = 65_534;
    const data = new Uint8Array(width * height * 4).fill(255);
    for (let y = 0; y < height; y++) {
      const o = (y * width) * 4;
      data[o] = data[o + 1] = data[o + 2] = 0;
    }
    const result = traceImage({ width, height, data }, { ...DEFAULT_ENGINE_PARAMS, profile: 'lineart' });
    // The ink column's right side runs the whole height, straight: pieces (lines or flat cubics)
    // that keep x = 1 all the way. Past the bound a side spans at most 4,000,000 / 65,534 = 61
    // steps, so it takes about a thousand pieces instead of one: straight, not minimal.
    const inkSide = result.chains.find((chain) => chain.segments.toSegments().every((s) => s.x === 1))!;
    let y = inkSide.startY;
    let straightRun = 0;
    for (const s of inkSide.segments) {
      const flat = s.kind === 'line' || (s.kind === 'cubic' && s.c1x === 1 && s.c2x === 1);
      if (flat && s.x === 1) straightRun += Math.abs(s.y - y);
      y = s.y;
    }
    expect(straightRun).toBeGreaterThan(height - 20);
    expect(inkSide.segments.length).toBeLessThan(2000);
  });

  it('a 1-bit letter keeps its corners and curves its bowl with few segments', () => {
    // A "D": stem 20 px wide, a bowl of outer radius 60 and inner radius 40 to its right.
    const letterD: Inside = (x, y) => {
      const stem = x >= 40 && x < 60 && y >= 30 && y < 150;
      const r = Math.hypot(x - 60, y - 90);
      const bowl = x >= 60 && r <= 60 && (r >= 40 || x < 60);
      const barTop = x >= 40 && x < 60 + 1 && y >= 30 && y < 50;
      return stem || bowl || barTop;
    };
    const image = drawBilevel(160, 180, letterD);
    const result = traceImage(image, DEFAULT_ENGINE_PARAMS);
    expect(result.stats.profile).toBe('lineart');
    const chains = blackChains(result);
    const total = chains.reduce((sum, chain) => sum + chain.segments.length, 0);
    // Outer outline: 3 straight sides + the bowl; counter: 1 straight side + the bowl.
    expect(total).toBeLessThanOrEqual(24);
    const corners = chains.flatMap((chain) => chain.segments.toSegments().filter((s) => s.kind === 'line').map((s) => [s.x, s.y] as const));
    // The stem's outer corners are kept sharp, within half a pixel of the drawing's.
    for (const [cx, cy] of [[40, 30], [40, 150]] as const) expect(corners.some(([x, y]) => Math.hypot(x - cx, y - cy) < 0.75)).toBe(true);
    expect(wrongPixels(image, result)).toBeLessThan(0.004);
  });

  it('a one-pixel diagonal stroke and a one-pixel spike keep their ink (no outline collapses onto the other side)', () => {
    const kept = thinInkKept(DEFAULT_ENGINE_PARAMS);
    expect(kept.profile).toBe('lineart');
    // Every stroke pixel's centre is at least half covered on average, and so is the spike's middle.
    expect(kept.strokeInk).toBeGreaterThan(0.5);
    expect(kept.spikeInk).toBeGreaterThan(0.4);
  });
});

/** Dark ink on off-white paper where `inside` holds, anti-aliased: 4 × 4 samples per pixel. */
function drawInk(width: number, height: number, inside: Inside): RgbaImage {
  const paper = [246, 242, 232];
  const ink = [30, 28, 40];
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let covered = 0;
      for (let sy = 0; sy < 4; sy++) for (let sx = 0; sx < 4; sx++) if (inside(x + (sx + 0.5) / 4, y + (sy + 0.5) / 4)) covered++;
      const o = (y * width + x) * 4;
      for (let c = 0; c < 3; c++) data[o + c] = Math.round(paper[c]! + ((ink[c]! - paper[c]!) * covered) / 16);
      data[o + 3] = 255;
    }
  }
  return { width, height, data };
}

describe('line art: anti-aliased ink on paper', () => {
  it('is profiled as line art and traced exactly as flat art is (sub-pixel edges, no polygon route)', () => {
    // A ring and a diagonal stroke, 3 px wide.
    const ring: Inside = (x, y) => Math.abs(Math.hypot(x - 90, y - 90) - 50) < 1.5;
    const stroke: Inside = (x, y) => Math.abs(x - y - 20) < 2.1 && x > 40 && x < 170;
    const image = drawInk(180, 180, (x, y) => ring(x, y) || stroke(x, y));
    const auto = traceImage(image, DEFAULT_ENGINE_PARAMS);
    expect(auto.stats.profile).toBe('lineart');
    expect(auto.stats.profileReason).toMatch(/two tones .* anti-aliased blends .*: line art/);
    const flat = traceImage(image, { ...DEFAULT_ENGINE_PARAMS, profile: 'flat' });
    expect(flat.stats.profile).toBe('flat');
    expect(writeSvg(auto)).toBe(writeSvg(flat));
    // Two colours: ink and paper.
    expect(auto.stats.colors).toBe(2);
  });
});

/**
 * Issue 38 item 5: scans read as line art and come back as ink and paper only; a hairline-outlined
 * logo is flat art; grey-shaded pixel art keeps its greys. The scans are drawn here
 * (tests/helpers/scans.ts): ink by area coverage on a paper whose tone drifts by 22 levels, one
 * blur pass, grain of ±9 levels, a real JPEG q75 round trip.
 */
describe('line art: scans and hairlines (issue 38)', () => {
  const width = 320;
  const height = 240;
  const drawing = drawingMarks();
  const text = textMarks();
  const isInk = (shape: TraceResult['shapes'][number]) => shape.color.r < 160;

  /** Ink shapes, paper shapes, and the paper shape that holds the frame (its loop spans the picture). */
  function inkAndPaper(result: TraceResult) {
    const ink = result.shapes.filter(isInk);
    const paper = result.shapes.filter((s) => !isInk(s));
    const background = paper.filter((s) => s.areaPx > width * height * 0.5);
    return { ink, paper, background };
  }

  it('a scanned drawing is line art in two tones: one shape per stroke, ring and dot, the paper one background shape', () => {
    const result = traceImage(scanOf(width, height, coverageOf(width, height, drawing.marks)), DEFAULT_ENGINE_PARAMS);
    expect(result.stats.profile).toBe('lineart');
    expect(result.stats.colors).toBe(2);
    const { ink, paper, background } = inkAndPaper(result);
    // No grain: every mark is one ink shape, the paper is the background plus each ring's inside.
    expect(ink.length).toBe(drawing.strokes);
    expect(paper.length).toBe(1 + drawing.rings);
    expect(background.length).toBe(1);
    // The ink is dark (the scan's ink, not a halo grey), the paper light.
    expect(ink[0]!.color.r).toBeLessThan(110);
    expect(background[0]!.color.r).toBeGreaterThan(210);
  });

  it('scanned text is line art in two tones with as many shapes as the same text drawn clean', () => {
    const coverage = coverageOf(width, height, text.marks);
    const clean = traceImage(scanOf(width, height, coverage, { ...SCAN, ink: [0, 0, 0], paper: [255, 255, 255], paperDrift: 0, grain: 0, blurPasses: 0, jpegQuality: 0 }), DEFAULT_ENGINE_PARAMS);
    expect(clean.stats.profile).toBe('lineart');
    expect(clean.shapes.length).toBe(text.glyphs + text.counters + 1);
    for (const scan of [scanOf(width, height, coverage), scanOf(width, height, coverage, { ...SCAN, ink: [30, 30, 30], paper: [236, 236, 236], chromaGrain: 0, seed: 8 })]) {
      const result = traceImage(scan, DEFAULT_ENGINE_PARAMS);
      // The grey scan too: its grain spreads its levels as a grey photo's do.
      expect(result.stats.profile).toBe('lineart');
      expect(result.stats.profileReason).toMatch(/^ink on paper|^two tones/);
      expect(result.stats.colors).toBe(2);
      expect(result.shapes.length).toBe(clean.shapes.length);
      expect(inkAndPaper(result).background.length).toBe(1);
    }
  });

  it('a scan with more grain (±20), more blur (3 passes), a paper darkening by 40 levels or JPEG q50 is still line art in two tones', () => {
    const coverage = coverageOf(width, height, text.marks);
    for (const worse of [{ grain: 20 }, { blurPasses: 3 }, { paperDrift: 40 }, { jpegQuality: 50 }]) {
      const result = traceImage(scanOf(width, height, coverage, { ...SCAN, ...worse }), DEFAULT_ENGINE_PARAMS);
      expect([worse, result.stats.profile, result.stats.colors]).toEqual([worse, 'lineart', 2]);
    }
  });

  it('a page photographed under a lamp (its paper darkening by 40 % into a corner) is line art in two tones: the paper in shadow stays paper', () => {
    const coverage = coverageOf(width, height, text.marks);
    const clean = traceImage(scanOf(width, height, coverage, { ...SCAN, ink: [0, 0, 0], paper: [255, 255, 255], paperDrift: 0, grain: 0, blurPasses: 0, jpegQuality: 0 }), DEFAULT_ENGINE_PARAMS);
    const result = traceImage(scanOf(width, height, coverage, { ...SCAN, lamp: 0.4 }), DEFAULT_ENGINE_PARAMS);
    expect(result.stats.profile).toBe('lineart');
    expect(result.stats.colors).toBe(2);
    // One shape per glyph and counter, as the clean text: no ink blot in the dark corner.
    expect(result.shapes.length).toBe(clean.shapes.length);
    expect(inkAndPaper(result).background.length).toBe(1);
  });

  it('a heavily grained, darkening scan is line art by its evened light; tracelab.profile=lineart gives the same ink and paper only, no paper grain', () => {
    const heavy = scanOf(width, height, coverageOf(width, height, text.marks), { ...SCAN, grain: 14, blurPasses: 2, paperDrift: 40, seed: 3 });
    for (const params of [DEFAULT_ENGINE_PARAMS, { ...DEFAULT_ENGINE_PARAMS, profile: 'lineart' as const }]) {
      const result = traceImage(heavy, params);
      expect(result.stats.profile).toBe('lineart');
      expect(result.stats.colors).toBe(2);
      // Blur joins some glyphs, grain leaves a few specks: far from a shape per grain.
      expect(result.shapes.length).toBeLessThan((text.glyphs + text.counters) * 1.1);
      expect(inkAndPaper(result).background.length).toBe(1);
    }
  });

  it('tracelab.profile=lineart on a scan of faint ink (60 levels under the paper, grainy) gives ink and paper only, no paper grain', () => {
    const faint = scanOf(width, height, coverageOf(width, height, text.marks), { ...SCAN, ink: [150, 146, 140], paper: [214, 210, 200], grain: 12, seed: 4 });
    const result = traceImage(faint, { ...DEFAULT_ENGINE_PARAMS, profile: 'lineart' });
    expect(result.stats.colors).toBe(2);
    // Faint, blurred rings break in places, but no shape per grain (before: 6,087 shapes in 5 colours).
    expect(result.shapes.length).toBeLessThan((text.glyphs + text.counters) * 1.6);
    expect(inkAndPaper(result).background.length).toBe(1);
  });

  it('ink on transparent paper is line art and comes back as ink only (no paper shape)', () => {
    const result = traceImage(inkOnTransparent(width, height, coverageOf(width, height, drawing.marks), [20, 20, 20]), DEFAULT_ENGINE_PARAMS);
    expect(result.stats.profile).toBe('lineart');
    expect(result.shapes.length).toBe(drawing.strokes);
    for (const shape of result.shapes) expect([shape.color.r, shape.color.g, shape.color.b]).toEqual([20, 20, 20]);
    // Traced with sub-pixel edges from the alpha coverage: curves, not a staircase.
    expect(result.chains.flatMap((c) => c.segments.toSegments()).some((s) => s.kind !== 'line')).toBe(true);
  });

  it('a logo outlined with a 0.4-px hairline is flat art, not pixel art', () => {
    const result = traceImage(hairlineLogo(360, 0.4), DEFAULT_ENGINE_PARAMS);
    expect(result.stats.profile).toBe('flat');
    expect(result.stats.colors).toBeLessThanOrEqual(6);
  });

  it('lettering outlined with a 0.4-px hairline on transparent paper is flat art, not a photo or pixel art', () => {
    const lettering = hairlineLettering();
    const facts = classifyImage(lettering.data, lettering.width, lettering.height, neighbourSpread(lettering.data, lettering.width, lettering.height));
    // Too thin for flat areas: the rule for thin anti-aliased art decides, not the fallbacks.
    expect(facts.flatShare).toBeLessThan(0.45);
    expect(facts.reason).toMatch(/too thin for flat areas: flat art$/);
    expect(traceImage(lettering, DEFAULT_ENGINE_PARAMS).stats.profile).toBe('flat');
  });

  it('a grey-shaded pixel-art sprite sheet keeps its greys, also when forced to line art', () => {
    for (const scale of [1, 2]) {
      const sheet = greySpriteSheet(scale);
      const auto = traceImage(sheet, DEFAULT_ENGINE_PARAMS);
      expect(auto.stats.profile).toBe('pixel');
      const forced = traceImage(sheet, { ...DEFAULT_ENGINE_PARAMS, profile: 'lineart' });
      for (const result of [auto, forced]) {
        const greys = new Set(result.shapes.map((s) => s.color.r));
        expect([...greys].sort((a, b) => a - b)).toEqual([...SPRITE_GREYS].sort((a, b) => a - b));
      }
    }
  });
});
