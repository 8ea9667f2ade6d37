/**
 * Gradient paints (tracelab.gradients) drawn by the real readers, checked against the gradient
 * formula (tests/helpers/gradients.ts: the stops' ramp at t, sRGB, padded), never against our own
 * renderer. The hand-built trace of that helper (a 2-stop linear rectangle, a vertical one beside
 * it, a 3-stop radial disc, a padded copy of the first gradient, flat shapes) is written as
 *   SVG  → resvg and Chromium,   PDF → pdftoppm,   EPS → Ghostscript,   PNG → our PNG decoder,
 * at 4 device pixels per traced pixel, and pixels are sampled at five points along each axis
 * (and the padded area): each must be within TOLERANCE of the formula at that pixel's centre.
 * Also: gradient strokes (stroke_shapes, 4 px) along the linear rectangle's top edge, and a page
 * stretched 2:1, where the radial gradient must become an ellipse with its disc. The same trace
 * with an elliptical gradient on the disc (ELLIPTICAL: r 40 along 30°, ry 20) is sampled along
 * both of its axes, off them and past its rim — filled, stroked along the disc's outline, and on
 * the stretched page — in the same readers and in the playground's canvas preview
 * (src/worker/preview-codec.ts, run in Chromium). The DXF is read back with ezdxf in
 * tests/formats/gradients.test.ts (ezdxf draws no gradients).
 */
import { Resvg } from '@resvg/resvg-js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePng } from '../../src/decode/png.js';
import type { Gradient, RgbaImage, TraceResult } from '../../src/engine/types.js';
import { writeEps } from '../../src/formats/eps.js';
import { writePdf } from '../../src/formats/pdf.js';
import { buildPlan } from '../../src/formats/plan.js';
import { writePlanPng } from '../../src/formats/png.js';
import { writeSvg } from '../../src/formats/svg.js';
import { outputOptions, type OutputOptions, type SizeOptions } from '../../src/formats/types.js';
import { launchChromium } from '../helpers/chromium.js';
import { BLUE, ELLIPTICAL, LINEAR_X, LINEAR_Y, RADIAL, SHAPE, expectedColor, expectedT, gradientTrace, onAxes, withGradient } from '../helpers/gradients.js';
import { ChromiumPreviewPainter } from '../helpers/preview-canvas.js';
import { ChromiumSvgRenderer, onDeviceGrid, parseXmlFiles, renderEpsWithGhostscript, renderPdfWithPoppler, WorkDir } from '../helpers/readers.js';

/**
 * Largest |Δ| per channel (0–255) between a reader's pixel and the formula, about 3× the worst
 * measured (Debian 12: resvg-js 2.6, Chromium, poppler 22.12): ≤ 1.0 for resvg, Chromium, the
 * canvas preview and our PNG (the rounding of a byte), circles and ellipses alike.
 */
const TOLERANCE = 3;
/** poppler draws radial shadings in steps: worst measured 4.3 (the radial disc on the stretched page; the ellipse there 4.2). */
const POPPLER_TOLERANCE = 10;
/**
 * Ghostscript approximates a radial shading within its own smoothness: over every pixel of the
 * disc (not only the probes) it is off the formula by up to 3.0 (circle) / 3.3 (ellipse) at 4×,
 * 4.8 / 6.4 on the stretched page, the same file read as PDF or EPS (Ghostscript 10.00); at the
 * probes, 5.8 at worst.
 */
const GHOSTSCRIPT_TOLERANCE = 10;

/** Device pixels per traced pixel on each axis. */
interface Scale {
  readonly x: number;
  readonly y: number;
}

interface Probe {
  readonly name: string;
  readonly gradient: Gradient;
  /** Traced points to sample. */
  readonly points: readonly (readonly [number, number])[];
}

const T = [0.1, 0.3, 0.5, 0.7, 0.9];
const FILL_PROBES: readonly Probe[] = [
  { name: 'linear along x (A)', gradient: LINEAR_X, points: T.map((t) => [10 + 50 * t, 25]) },
  { name: 'linear along y (B)', gradient: LINEAR_Y, points: T.map((t) => [35, 40 + 30 * t]) },
  { name: 'radial, 3 stops, along +x (C)', gradient: RADIAL, points: T.map((t) => [100 + 25 * t, 40]) },
  { name: 'radial, 3 stops, along −y (C)', gradient: RADIAL, points: T.map((t) => [100, 40 - 25 * t]) },
  // E: equal to A's gradient, far past its end: the last stop, padded.
  { name: 'padded beyond the last stop (E)', gradient: LINEAR_X, points: [[128, 53], [152, 72], [130, 70]] },
];
/** A's outline, 4 px wide, painted with A's gradient along its top edge (y = 10). */
const STROKE_PROBES: readonly Probe[] = [{ name: 'linear stroke along A’s top edge', gradient: LINEAR_X, points: T.map((t) => [10 + 50 * t, 10]) }];

const NATURAL: Scale = { x: 4, y: 4 };
const STRETCHED: Scale = { x: 4, y: 2 };
/** A 640 × 160 page: the 160 × 80 picture stretched 4× across, 2× down. */
const STRETCH_SIZE: SizeOptions = { unit: 'px', width: 640, height: 160, aspectRatio: 'stretch', alignX: 0.5, alignY: 0.5 };
const STROKES: Partial<OutputOptions> = { drawStyle: 'stroke_shapes', strokes: { strokeWidthPx: 4, nonScalingStroke: false } };

/** Largest channel difference over the probes, with the worst sample for the message. */
function worst(image: RgbaImage, scale: Scale, probes: readonly Probe[]): { diff: number; at: string } {
  let diff = 0;
  let at = '';
  for (const probe of probes) {
    for (const [x, y] of probe.points) {
      const px = Math.floor(x * scale.x);
      const py = Math.floor(y * scale.y);
      // The formula at the centre of the pixel that was sampled.
      const want = expectedColor(probe.gradient, (px + 0.5) / scale.x, (py + 0.5) / scale.y);
      const o = (py * image.width + px) * 4;
      const got = [image.data[o]!, image.data[o + 1]!, image.data[o + 2]!];
      const d = Math.max(...got.map((v, k) => Math.abs(v - want[k]!)));
      if (d > diff) {
        diff = d;
        at = `${probe.name} at (${x}, ${y}): got ${got.join(',')}, want ${want.map((v) => v.toFixed(1)).join(',')}`;
      }
    }
  }
  return { diff, at };
}

/** The radial disc stretched: samples along both axes of the ellipse, in traced coordinates. */
const ELLIPSE_PROBES: readonly Probe[] = FILL_PROBES.filter((p) => p.gradient === RADIAL || p.gradient === LINEAR_X);

/** ELLIPTICAL on the disc C (radius 25): every sample within 23 px of its centre, clear of its rim. */
const ELLIPTICAL_PROBES: readonly Probe[] = [
  { name: 'elliptical, along its first axis (30°)', gradient: ELLIPTICAL, points: [-0.5, -0.25, 0.1, 0.3, 0.5].map((s) => onAxes(ELLIPTICAL, s, 0)) },
  { name: 'elliptical, along its second axis', gradient: ELLIPTICAL, points: [-0.9, -0.5, 0.1, 0.5, 0.9].map((w) => onAxes(ELLIPTICAL, 0, w)) },
  { name: 'elliptical, off its axes', gradient: ELLIPTICAL, points: [onAxes(ELLIPTICAL, 0.3, 0.6), onAxes(ELLIPTICAL, -0.4, 0.5), [112, 31], [87, 55], [92, 28]] },
  { name: 'elliptical, past its rim (padded)', gradient: ELLIPTICAL, points: [onAxes(ELLIPTICAL, 0, 1.15), onAxes(ELLIPTICAL, 0, -1.15)] },
  FILL_PROBES[0]!,
];
/** C's outline (radius 25), 4 px wide, painted with ELLIPTICAL: t from 0.625 to 1.25 around it. */
const ELLIPTICAL_STROKE_PROBES: readonly Probe[] = [
  { name: 'elliptical stroke along the disc’s outline', gradient: ELLIPTICAL, points: [0, 50, 100, 150, 200, 250, 300].map((deg) => [100 + 25 * Math.cos((deg * Math.PI) / 180), 40 + 25 * Math.sin((deg * Math.PI) / 180)]) },
];

const fixture = gradientTrace();
const ellipticalFixture = withGradient(fixture, SHAPE.C, ELLIPTICAL);
const options = (more: Partial<OutputOptions>): OutputOptions => outputOptions(more);
const dir = new WorkDir();
let browser: Browser;
let chromium: ChromiumSvgRenderer;
let preview: ChromiumPreviewPainter;

beforeAll(async () => {
  browser = await launchChromium();
  chromium = new ChromiumSvgRenderer(browser);
  preview = new ChromiumPreviewPainter(browser);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  dir.remove();
});

interface Case {
  readonly name: string;
  readonly fixture: TraceResult;
  readonly more: Partial<OutputOptions>;
  readonly scale: Scale;
  readonly probes: readonly Probe[];
}

/** Each case: the trace, the options, the device scale of the picture and what to sample. */
const CASES: readonly Case[] = [
  { name: 'fills', fixture, more: {}, scale: NATURAL, probes: FILL_PROBES },
  { name: 'strokes', fixture, more: STROKES, scale: NATURAL, probes: STROKE_PROBES },
  { name: 'fills on a page stretched 2:1', fixture, more: { size: STRETCH_SIZE }, scale: STRETCHED, probes: ELLIPSE_PROBES },
];
/** The same with the elliptical gradient on the disc (the canvas preview is checked on these too). */
const ELLIPTICAL_CASES: readonly Case[] = [
  { name: 'elliptical fills', fixture: ellipticalFixture, more: {}, scale: NATURAL, probes: ELLIPTICAL_PROBES },
  { name: 'elliptical strokes', fixture: ellipticalFixture, more: STROKES, scale: NATURAL, probes: ELLIPTICAL_STROKE_PROBES },
  { name: 'elliptical fills on a page stretched 2:1', fixture: ellipticalFixture, more: { size: STRETCH_SIZE }, scale: STRETCHED, probes: ELLIPTICAL_PROBES },
];

/** Device size of the picture at a scale. */
const deviceSize = (scale: Scale) => ({ width: 160 * scale.x, height: 80 * scale.y });

describe.each([...CASES, ...ELLIPTICAL_CASES])('gradient $name, read back', ({ fixture, more, scale, probes }) => {
  const { width, height } = deviceSize(scale);

  it('SVG in resvg matches the formula', () => {
    const svg = onDeviceGrid(writeSvg(fixture, options({ ...more, fileFormat: 'svg' })), width, height);
    const rendered = new Resvg(svg, { background: 'white' }).render();
    const image = { width: rendered.width, height: rendered.height, data: new Uint8Array(rendered.pixels) };
    expect([image.width, image.height]).toEqual([width, height]);
    const { diff, at } = worst(image, scale, probes);
    expect(diff, at).toBeLessThanOrEqual(TOLERANCE);
  });

  it('SVG in Chromium matches the formula', async () => {
    const svg = onDeviceGrid(writeSvg(fixture, options({ ...more, fileFormat: 'svg' })), width, height);
    const { diff, at } = worst(await chromium.render(svg, width, height), scale, probes);
    expect(diff, at).toBeLessThanOrEqual(TOLERANCE);
  }, 30_000);

  it('PDF in pdftoppm matches the formula', async () => {
    const bytes = await writePdf(buildPlan(fixture, options({ ...more, fileFormat: 'pdf' })));
    // Natural size: one point per input pixel; the stretched page is in px = points at 72 dpi.
    const dpi = more.size ? 72 : 72 * scale.x;
    const { run, image } = await renderPdfWithPoppler(dir, bytes, dpi);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    expect([image!.width, image!.height]).toEqual([width, height]);
    const { diff, at } = worst(image!, scale, probes);
    expect(diff, at).toBeLessThanOrEqual(POPPLER_TOLERANCE);
  });

  it('EPS in Ghostscript matches the formula', async () => {
    const text = writeEps(buildPlan(fixture, options({ ...more, fileFormat: 'eps' })));
    const dpi = more.size ? 72 : 72 * scale.x;
    const { run, image } = await renderEpsWithGhostscript(dir, new TextEncoder().encode(text), dpi);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    expect([image!.width, image!.height]).toEqual([width, height]);
    const { diff, at } = worst(image!, scale, probes);
    expect(diff, at).toBeLessThanOrEqual(GHOSTSCRIPT_TOLERANCE);
  });

  it('PNG, through our decoder, matches the formula', () => {
    const png = writePlanPng(buildPlan(fixture, options({ ...more, fileFormat: 'png' })));
    const image = decodePng(png);
    expect([image.width, image.height]).toEqual([width, height]);
    const { diff, at } = worst(image, scale, probes);
    expect(diff, at).toBeLessThanOrEqual(TOLERANCE);
  });
});

describe.each(ELLIPTICAL_CASES)('gradient $name, canvas preview', ({ fixture, more, scale, probes }) => {
  it('the playground’s canvas preview (Chromium) matches the formula', async () => {
    const image = await preview.paint(fixture, more);
    expect([image.width, image.height]).toEqual([deviceSize(scale).width, deviceSize(scale).height]);
    const { diff, at } = worst(image, scale, probes);
    expect(diff, at).toBeLessThanOrEqual(TOLERANCE);
  }, 30_000);
});

it('the elliptical probes see the ellipse: a circle of radius r would differ by far more than any tolerance', () => {
  const circle: Gradient = { ...ELLIPTICAL, ry: undefined, rotationDeg: undefined } as Gradient;
  const off = ELLIPTICAL_PROBES.slice(0, 4).flatMap((p) => p.points.map(([x, y]) => Math.max(...expectedColor(ELLIPTICAL, x, y).map((v, k) => Math.abs(v - expectedColor(circle, x, y)[k]!)))));
  expect(Math.max(...off)).toBeGreaterThan(3 * GHOSTSCRIPT_TOLERANCE);
  expect(expectedT(ELLIPTICAL, ...onAxes(ELLIPTICAL, 0, 1.15))).toBeGreaterThan(1);
});

it('every SVG version, with and without Adobe mode, is well-formed XML that resvg draws with the gradients', () => {
  const files: string[] = [];
  for (const version of ['svg_1_0', 'svg_1_1', 'svg_tiny_1_2'] as const) {
    for (const adobe of [false, true]) {
      const svg = writeSvg(fixture, options({ svg: { version, fixedSize: false, adobeCompatibilityMode: adobe } }));
      files.push(dir.file('svg', svg));
      const rendered = new Resvg(onDeviceGrid(svg, 640, 320), { background: 'white' }).render();
      const { diff, at } = worst({ width: rendered.width, height: rendered.height, data: new Uint8Array(rendered.pixels) }, NATURAL, FILL_PROBES);
      expect(diff, `${version} adobe=${adobe}: ${at}`).toBeLessThanOrEqual(TOLERANCE);
    }
  }
  const { run, reads } = parseXmlFiles(files);
  expect(run.status, run.stderr).toBe(0);
  expect(reads.map((r) => r.error)).toEqual(files.map(() => ''));
});

it('the padded probe really is past the axis end (the last stop)', () => {
  expect(expectedColor(LINEAR_X, 128, 53)).toEqual([BLUE.r, BLUE.g, BLUE.b]);
});
