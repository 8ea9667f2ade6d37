/**
 * Smooth shading (shading.ts, ramp-fit.ts, smooth-areas.ts) on pictures the tests draw: a turned
 * rectangle with a linear ramp and a disc with a three-stop radial ramp, anti-aliased, rounded to
 * 8 bits, and JPEG q75 copies of both.
 * - tracelab.gradients on: each ramp comes back as one shape with a gradient of the right kind,
 *   its stops within ΔE00 2 of the drawn ramp, its axis within 2° and 2 px (its centre within
 *   2 px); flat shapes stay flat.
 * - off (the API's default): the ramp comes back as a few monotone bands, one shape per band.
 * - flat art has no smooth areas and the same trace either way; threads change nothing.
 */
import jpeg from 'jpeg-js';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_PARAMS, runJob, traceImage, traceImageWith, type EngineJob, type JobPart, type JobRunner } from '../../src/engine/index.js';
import type { Gradient, RgbaImage, Shape, TraceResult } from '../../src/engine/types.js';
import { writeSvg } from '../../src/formats/svg.js';
import { renderSvgWithResvg } from '../helpers/compare.js';
import { deltaE2000, type Rgb3 } from '../helpers/delta-e.js';
import { encodeJpeg } from '../helpers/encode.js';
import { disc, drawPainted, ellipse, ellipseScene, floorShadowScene, lensScene, linearScene, radialScene, rampColor, rampOffset, rimLineScene, turnedRect, type Ramp } from '../helpers/gradient-scenes.js';

const ON = { ...DEFAULT_ENGINE_PARAMS, gradients: true };
const OFF = DEFAULT_ENGINE_PARAMS;

function jpegCopy(image: RgbaImage, quality: number): RgbaImage {
  const decoded = jpeg.decode(encodeJpeg(image, quality), { useTArray: true, formatAsRGBA: true });
  return { width: decoded.width, height: decoded.height, data: new Uint8Array(decoded.data) };
}

/** The colour of an engine Gradient at (x, y), per its documented formula (not the engine's code). */
function gradientColor(g: Gradient, x: number, y: number): Rgb3 {
  let t: number;
  if (g.kind === 'linear') {
    const dx = g.x2 - g.x1;
    const dy = g.y2 - g.y1;
    t = ((x - g.x1) * dx + (y - g.y1) * dy) / (dx * dx + dy * dy);
  } else {
    const a = ((g.rotationDeg ?? 0) * Math.PI) / 180;
    const u = (x - g.cx) * Math.cos(a) + (y - g.cy) * Math.sin(a);
    const v = -(x - g.cx) * Math.sin(a) + (y - g.cy) * Math.cos(a);
    t = Math.hypot(u / g.r, v / (g.ry ?? g.r));
  }
  const stops = g.stops.map((s) => ({ offset: s.offset, color: [s.color.r, s.color.g, s.color.b] as const }));
  return rampColor(stops, t);
}

const gradientShapes = (r: TraceResult): Shape[] => r.shapes.filter((s) => s.gradient);

/** Flat shapes of at most `maxPx` whose outline starts within `radius` of (cx, cy) (their colours, for messages). */
function flatShapesWithin(r: TraceResult, cx: number, cy: number, radius: number, maxPx = Infinity): string[] {
  const out: string[] = [];
  for (const s of r.shapes) {
    if (s.gradient || s.areaPx > maxPx) continue;
    const chain = r.chains[s.outer[0]!.chain]!;
    if (Math.hypot(chain.startX - cx, chain.startY - cy) < radius) out.push(`${s.color.r},${s.color.g},${s.color.b} (${s.areaPx} px)`);
  }
  return out;
}

/** Stops and geometry checks shared by the linear and radial cases. */
function expectStopsOnRamp(g: Gradient, truth: Ramp): void {
  for (const stop of g.stops) {
    // Where this stop sits: along the axis (linear) or at its radius along +x (radial).
    const a = g.kind === 'radial' ? ((g.rotationDeg ?? 0) * Math.PI) / 180 : 0;
    const [x, y] =
      g.kind === 'linear' ? [g.x1 + (g.x2 - g.x1) * stop.offset, g.y1 + (g.y2 - g.y1) * stop.offset] : [g.cx + g.r * stop.offset * Math.cos(a), g.cy + g.r * stop.offset * Math.sin(a)];
    const expected = rampColor(truth.stops, Math.max(0, Math.min(1, rampOffset(truth, x, y))));
    expect(deltaE2000([stop.color.r, stop.color.g, stop.color.b], expected), `stop at ${stop.offset}`).toBeLessThanOrEqual(2);
  }
}

/** Colours of the fitted gradient at interior points of the shape are the drawn ramp's (ΔE00 ≤ 2). */
function expectColoursOnRamp(g: Gradient, truth: Ramp, inside: (x: number, y: number) => boolean, margin: (x: number, y: number) => boolean): void {
  let checked = 0;
  for (let y = 0.5; y < 200; y += 3) {
    for (let x = 0.5; x < 200; x += 3) {
      if (!inside(x, y) || !margin(x, y)) continue;
      checked++;
      const expected = rampColor(truth.stops, rampOffset(truth, x, y));
      expect(deltaE2000(gradientColor(g, x, y), expected), `at ${x},${y}`).toBeLessThanOrEqual(2);
    }
  }
  expect(checked).toBeGreaterThan(100);
}

describe('tracelab.gradients on: a smooth ramp is one gradient shape', () => {
  for (const quality of [0, 75]) {
    const label = quality ? `JPEG q${quality}` : '8-bit render';
    it(`linear ramp (${label}): one linear gradient, axis within 2° and 2 px, stops within ΔE00 2; the flat disc stays flat`, () => {
      const { image, ramp } = linearScene();
      const result = traceImage(quality ? jpegCopy(image, quality) : image, ON);
      const shaded = gradientShapes(result);
      expect(shaded).toHaveLength(1);
      const g = shaded[0]!.gradient!;
      expect(g.kind).toBe('linear');
      if (g.kind !== 'linear') return;
      // Axis direction (either way along it).
      const angle = (Math.atan2(g.y2 - g.y1, g.x2 - g.x1) * 180) / Math.PI;
      const off = Math.abs(((angle - 30 + 90) % 180 + 180) % 180 - 90);
      expect(off).toBeLessThanOrEqual(2);
      // Axis position: where the fitted ramp shows the drawn ramp's middle colour, along the drawn
      // axis through the middle point.
      const [mx, my] = [(ramp.x1 + ramp.x2) / 2, (ramp.y1 + ramp.y2) / 2];
      const middle = rampColor(ramp.stops, 0.5);
      const ux = Math.cos(Math.PI / 6);
      const uy = Math.sin(Math.PI / 6);
      let best = Infinity;
      let bestAt = NaN;
      for (let d = -10; d <= 10; d += 0.05) {
        const e = deltaE2000(gradientColor(g, mx + ux * d, my + uy * d), middle);
        if (e < best) [best, bestAt] = [e, d];
      }
      expect(Math.abs(bestAt)).toBeLessThanOrEqual(2);
      expectStopsOnRamp(g, ramp);
      const rect = turnedRect(88, 80, 120, 70, 30);
      expectColoursOnRamp(g, ramp, rect, turnedRect(88, 80, 112, 62, 30));
      // The green disc: one flat shape of its colour.
      const green = result.shapes.filter((s) => !s.gradient && deltaE2000([s.color.r, s.color.g, s.color.b], [30, 150, 60]) < 3);
      expect(green).toHaveLength(1);
      expect(result.stats.gradients).toBe(1);
    });

    it(`radial ramp with three stops (${label}): one radial gradient, centre within 2 px, stops within ΔE00 2`, () => {
      const { image, ramp } = radialScene();
      const result = traceImage(quality ? jpegCopy(image, quality) : image, ON);
      const shaded = gradientShapes(result);
      expect(shaded).toHaveLength(1);
      const g = shaded[0]!.gradient!;
      expect(g.kind).toBe('radial');
      if (g.kind !== 'radial') return;
      expect(Math.hypot(g.cx - ramp.cx, g.cy - ramp.cy)).toBeLessThanOrEqual(2);
      expect(g.stops.length).toBeLessThanOrEqual(5);
      expectStopsOnRamp(g, ramp);
      expectColoursOnRamp(g, ramp, disc(84, 92, 70), disc(84, 92, 66));
      // Nothing else inside the disc (JPEG's ringing leaves specks outside its rim only).
      expect(flatShapesWithin(result, 84, 92, 64)).toEqual([]);
    });
  }
});

/** Colours along a line through the rendered SVG (sampled every px). */
function renderedAlong(result: TraceResult, from: [number, number], to: [number, number]): Rgb3[] {
  const svg = writeSvg(result);
  const image = renderSvgWithResvg(svg, result.inputWidth);
  const out: Rgb3[] = [];
  const steps = Math.round(Math.hypot(to[0] - from[0], to[1] - from[1]));
  for (let i = 0; i <= steps; i++) {
    const x = Math.floor(from[0] + ((to[0] - from[0]) * i) / steps);
    const y = Math.floor(from[1] + ((to[1] - from[1]) * i) / steps);
    const o = (y * image.width + x) * 4;
    out.push([image.data[o]!, image.data[o + 1]!, image.data[o + 2]!]);
  }
  return out;
}

/**
 * The result's one gradient shape, an elliptical radial gradient: centre within 2 px of the ramp's,
 * axes' ratio within `ratioWithin` of `axesRatio`, major axis within 3° of `rotationDeg`.
 */
function oneEllipticalGradient(result: ReturnType<typeof traceImage>, ramp: { cx: number; cy: number }, want: { axesRatio: number; ratioWithin: number; rotationDeg: number }) {
  const shaded = gradientShapes(result);
  expect(shaded).toHaveLength(1);
  const g = shaded[0]!.gradient!;
  expect(g.kind).toBe('radial');
  if (g.kind !== 'radial') return undefined;
  expect(Math.hypot(g.cx - ramp.cx, g.cy - ramp.cy)).toBeLessThanOrEqual(2);
  expect(g.ry).toBeDefined();
  expect(Math.abs(g.ry! / g.r - want.axesRatio)).toBeLessThanOrEqual(want.ratioWithin);
  const off = Math.abs(((((g.rotationDeg ?? 0) - want.rotationDeg + 90) % 180) + 180) % 180 - 90);
  expect(off).toBeLessThanOrEqual(3);
  return g;
}

describe('tracelab.gradients on: an elliptical ramp is one elliptical radial gradient', () => {
  for (const quality of [0, 75]) {
    it(`turned ellipse (${quality ? `JPEG q${quality}` : '8-bit render'}): centre within 2 px, axis within 3°, axes' ratio within 5 %, colours within ΔE00 2`, () => {
      const { image, ramp } = ellipseScene();
      const result = traceImage(quality ? jpegCopy(image, quality) : image, ON);
      const g = oneEllipticalGradient(result, ramp, { axesRatio: 0.5, ratioWithin: 0.025, rotationDeg: 30 });
      if (!g) return;
      expectStopsOnRamp(g, ramp);
      expectColoursOnRamp(g, ramp, ellipse(100, 80, 80, 40, 30), ellipse(100, 80, 75, 36, 30));
    });
  }
});

describe('tracelab.gradients on: a soft floor shadow on the page is one elliptical gradient', () => {
  for (const rim of [255, 230]) {
    it(`shadow ${rim === 255 ? 'fading into the page' : 'clipped with a step at its rim'}: one gradient, centre within 2 px, axis within 3°, axes' ratio 0.2 within 0.02, colours within ΔE00 2; ball and page flat`, () => {
      const { image, ramp } = floorShadowScene(rim);
      const result = traceImage(image, ON);
      const g = oneEllipticalGradient(result, ramp, { axesRatio: 0.2, ratioWithin: 0.02, rotationDeg: 0 });
      if (!g) return;
      // Inside 80 % of the shadow's reach, off the ball.
      const ball = disc(120, 85, 67);
      expectColoursOnRamp(g, ramp, ellipse(120, 150, 80, 16, 0), (x, y) => !ball(x, y));
      // The page is one flat white shape; the ball one flat red one.
      expect(result.shapes.filter((s) => !s.gradient && s.color.r >= 250 && s.color.g >= 250 && s.areaPx > 0.5 * 240 * 190)).toHaveLength(1);
      expect(result.shapes.filter((s) => !s.gradient && s.areaPx > 1000 && s.color.r > 150 && s.color.g < 80)).toHaveLength(1);
    });
  }
});

describe('tracelab.gradients on: a ramp whose end region holds an outline is still one gradient', () => {
  it('lens: one linear gradient over 95 % of the lens or more, axis within 3°, colours within ΔE00 2 inside the outline', () => {
    const { image, ramp } = lensScene();
    const shaded = gradientShapes(traceImage(image, ON));
    expect(shaded).toHaveLength(1);
    expect(shaded[0]!.areaPx).toBeGreaterThanOrEqual(0.95 * Math.PI * 71 * 71);
    const g = shaded[0]!.gradient!;
    expect(g.kind).toBe('linear');
    if (g.kind !== 'linear') return;
    const turn = Math.atan2(g.y2 - g.y1, g.x2 - g.x1) - Math.atan2(ramp.y2 - ramp.y1, ramp.x2 - ramp.x1);
    expect(Math.abs(turn) * (180 / Math.PI)).toBeLessThanOrEqual(3);
    expectColoursOnRamp(g, ramp, disc(100, 90, 67), () => true);
  });
});

describe('tracelab.gradients on: a ramp whose rim holds a highlight line and an outline is still one gradient', () => {
  it('bubble: one radial gradient over 90 % of the disc or more, colours within ΔE00 2 inside the rim; the highlight line stays', () => {
    const { image, ramp } = rimLineScene();
    const result = traceImage(image, ON);
    const shaded = gradientShapes(result);
    expect(shaded).toHaveLength(1);
    expect(shaded[0]!.areaPx).toBeGreaterThanOrEqual(0.9 * Math.PI * 69 * 69);
    expect(shaded[0]!.gradient!.kind).toBe('radial');
    expectColoursOnRamp(shaded[0]!.gradient!, ramp, disc(100, 95, 64), () => true);
    // The highlight line is not painted over by the gradient: a light flat shape along the top rim.
    const light = result.shapes.filter((s) => !s.gradient && s.color.g >= 245 && s.color.b >= 150);
    expect(light.length).toBeGreaterThanOrEqual(1);
  });
});

describe('tracelab.gradients off: a smooth ramp is a few monotone bands, one shape per band', () => {
  for (const quality of [0, 75]) {
    const label = quality ? `JPEG q${quality}` : '8-bit render';
    it(`linear ramp (${label})`, () => {
      const { image, ramp } = linearScene();
      const result = traceImage(quality ? jpegCopy(image, quality) : image, OFF);
      expect(gradientShapes(result)).toHaveLength(0);
      expect(result.stats.smoothAreas).toBe(1);
      // Band shapes: everything but the white background and the green disc.
      const bands = result.shapes.filter((s) => deltaE2000([s.color.r, s.color.g, s.color.b], [255, 255, 255]) > 3 && deltaE2000([s.color.r, s.color.g, s.color.b], [30, 150, 60]) > 3);
      expect(bands.length).toBeGreaterThanOrEqual(2);
      expect(bands.length).toBeLessThanOrEqual(8);
      // One shape per band: no two band shapes of one colour.
      expect(new Set(bands.map((s) => `${s.color.r},${s.color.g},${s.color.b}`)).size).toBe(bands.length);
      // Along the axis the rendered colours step monotonically (red up, blue down), in as many
      // plateaus as there are bands.
      const inset = 6;
      const len = Math.hypot(ramp.x2 - ramp.x1, ramp.y2 - ramp.y1);
      const ux = (ramp.x2 - ramp.x1) / len;
      const uy = (ramp.y2 - ramp.y1) / len;
      const along = renderedAlong(result, [ramp.x1 + ux * inset, ramp.y1 + uy * inset], [ramp.x2 - ux * inset, ramp.y2 - uy * inset]);
      for (let i = 1; i < along.length; i++) {
        expect(along[i]![0], `red at ${i}`).toBeGreaterThanOrEqual(along[i - 1]![0] - 2);
        expect(along[i]![2], `blue at ${i}`).toBeLessThanOrEqual(along[i - 1]![2] + 2);
      }
    });

    it(`radial ramp (${label})`, () => {
      const { image } = radialScene();
      const result = traceImage(quality ? jpegCopy(image, quality) : image, OFF);
      expect(gradientShapes(result)).toHaveLength(0);
      // Bands: the shapes of the disc; no specks inside it (JPEG's ringing leaves some outside its rim).
      const bands = result.shapes.filter((s) => s.areaPx > 20 && deltaE2000([s.color.r, s.color.g, s.color.b], [255, 255, 255]) > 3);
      expect(flatShapesWithin(result, 84, 92, 64, 20)).toEqual([]);
      expect(bands.length).toBeGreaterThanOrEqual(2);
      expect(bands.length).toBeLessThanOrEqual(8);
      expect(new Set(bands.map((s) => `${s.color.r},${s.color.g},${s.color.b}`)).size).toBe(bands.length);
      // From the centre outwards: green falls band by band (the ramp's green is monotone).
      const along = renderedAlong(result, [86, 92], [150, 92]);
      for (let i = 1; i < along.length; i++) expect(along[i]![1], `green at ${i}`).toBeLessThanOrEqual(along[i - 1]![1] + 2);
    });
  }
});

describe('processing.max_colors and processing.palette keep their meaning', () => {
  it('max_colors = N: without the extension no bands are cut (they would add colours), at most N flat colours; with it, the ramp is a gradient fill not counted in N', () => {
    const { image } = linearScene();
    const off = traceImage(image, { ...OFF, maxColors: 4 });
    expect(off.stats.smoothAreas).toBeUndefined();
    expect(new Set(off.shapes.map((s) => `${s.color.r},${s.color.g},${s.color.b}`)).size).toBeLessThanOrEqual(4);
    const on = traceImage(image, { ...ON, maxColors: 4 });
    expect(gradientShapes(on)).toHaveLength(1);
    expect(new Set(on.shapes.filter((s) => !s.gradient).map((s) => `${s.color.r},${s.color.g},${s.color.b}`)).size).toBeLessThanOrEqual(4);
    expect(on.stats.colors).toBeLessThanOrEqual(4);
  });

  it('processing.palette: no shading either way (the output colours are exactly the palette\'s)', () => {
    const { image } = radialScene();
    const palette = [{ color: { r: 255, g: 255, b: 255, a: 255 }, tolerance: 0.1 }];
    for (const params of [OFF, ON]) {
      const r = traceImage(image, { ...params, palette });
      expect(r.stats.smoothAreas).toBeUndefined();
      expect(gradientShapes(r)).toHaveLength(0);
    }
  });
});

describe('flat art has no smooth areas', () => {
  it('anti-aliased flat shapes: no area found, the same trace with the extension on and off', () => {
    const image = drawPainted(160, 120, [250, 250, 245], [
      { paint: [200, 40, 40], inside: turnedRect(60, 60, 80, 50, 20) },
      { paint: [40, 60, 200], inside: disc(115, 65, 30) },
      { paint: [230, 180, 40], inside: disc(70, 40, 14) },
    ]);
    const off = traceImage(image, OFF);
    const on = traceImage(image, ON);
    expect(off.stats.smoothAreas).toBeUndefined();
    const strip = (r: TraceResult) => ({ ...r, stats: { ...r.stats, stageMs: {} } });
    // As JSON: a chain's SegmentPath is a view into shared arrays, equal by its segments.
    expect(JSON.stringify(strip(on))).toBe(JSON.stringify(strip(off)));
  });
});

/** Runs every part in line on a structured clone of the job, as a thread would receive it. */
function cloningRunner(threads: number): JobRunner {
  return {
    threads,
    minPixels: 0,
    run(job: EngineJob, parts: readonly JobPart[]) {
      return Promise.resolve(parts.map((part) => runJob(structuredClone(job), part)));
    },
  };
}

describe('shaded traces are the same on any number of threads', () => {
  for (const [name, scene] of [['linear', linearScene], ['radial', radialScene]] as const) {
    for (const params of [ON, OFF]) {
      it(`${name}, gradients ${params.gradients ? 'on' : 'off'}`, async () => {
        const { image } = scene();
        const strip = (r: TraceResult) => JSON.stringify({ ...r, stats: { ...r.stats, stageMs: {} } });
        expect(strip(await traceImageWith(cloningRunner(3), image, params))).toBe(strip(traceImage(image, params)));
      });
    }
  }
});

describe('tracelab.gradients on: a gradient with a smaller gradient over it, joined where their colours meet, is still one gradient', () => {
  // The dome's outer ring and the cone's ring beside it have one shade, so one region straddles the
  // two gradients and stays flat: the cone's gradient covers the rest of it.
  it('speaker: the cone is one radial gradient over 75 % of what the dome leaves of it or more, colours within ΔE00 2 where it lies', () => {
    const cone: Ramp = {
      kind: 'radial',
      cx: 118,
      cy: 112,
      r: 95,
      stops: [
        { offset: 0, color: [214, 217, 209] },
        { offset: 1, color: [86, 88, 84] },
      ],
    };
    // The dome: its own highlight at its upper left, its rim the cone's colour at its far side
    // (t ≈ 0.75 there), so a soft seam joins the dome's rings to the cone's.
    const dome: Ramp = {
      kind: 'radial',
      cx: 72,
      cy: 66,
      r: 36,
      stops: [
        { offset: 0, color: [236, 237, 233] },
        { offset: 1, color: [118, 121, 116] },
      ],
    };
    const coneInside = disc(100, 95, 72);
    const domeInside = disc(80, 76, 24);
    const image = drawPainted(200, 190, [255, 255, 255], [
      { paint: cone, inside: coneInside },
      { paint: dome, inside: domeInside },
    ]);
    const shaded = gradientShapes(traceImage(image, ON));
    const coneShapes = shaded.filter((s) => s.areaPx >= 0.5 * Math.PI * (72 * 72 - 24 * 24));
    expect(coneShapes).toHaveLength(1);
    expect(coneShapes[0]!.areaPx).toBeGreaterThanOrEqual(0.75 * Math.PI * (72 * 72 - 24 * 24));
    // Its colours where it lies: inside the straddling ring (t ≤ 0.5 of the cone's ramp).
    expectColoursOnRamp(coneShapes[0]!.gradient!, cone, disc(100, 95, 68), (x, y) => !disc(80, 76, 28)(x, y) && disc(118, 112, 47)(x, y));
  });
});
