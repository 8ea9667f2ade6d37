/**
 * Issue 41 item 2: processing.color_profile.input / output = preserve. The embedded profile is read from PNG, JPEG,
 * WebP and TIFF; input `preserve` converts the colours to sRGB as lcms2 (ImageMagick's colour management) does;
 * output `preserve` embeds the profile, read back by the real readers (ImageMagick for PNG, pdftoppm and
 * Ghostscript for PDF, which convert the page's colours through it). Profiles: a Display P3 profile built by the
 * test (tests/helpers/icc.ts) and Adobe RGB (1998) as Debian's Ghostscript ships it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import jpegJs from 'jpeg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { planVectorize, runVectorize } from '../../src/api/pipeline.js';
import { deserializeTrace, render, serializeTrace } from '../../src/api/service-render.js';
import { decodeImage, setWebpWasm } from '../../src/decode/index.js';
import { displayP3LutProfile, displayP3MabProfile, displayP3Profile } from '../helpers/icc.js';
import { decodePngRgba, renderPdfWithPoppler, runTool, WorkDir } from '../helpers/readers.js';
import { buildPng, buildTiff, concat, insertAfterSoi } from './build.js';

const ADOBE_RGB = '/usr/share/color/icc/ghostscript/a98.icc';
const SRGB = '/usr/share/color/icc/ghostscript/srgb.icc';
const SGRAY = '/usr/share/color/icc/ghostscript/sgray.icc';

const dir = new WorkDir();
afterAll(() => dir.remove());
beforeAll(() => {
  const require = createRequire(import.meta.url);
  setWebpWasm(readFileSync(require.resolve('@jsquash/webp/codec/dec/webp_dec.wasm')));
});

/** Colours in the profile's space: mid tones (inside sRGB's gamut from P3 and Adobe RGB) and greys. */
const PATCHES = [
  [200, 100, 50],
  [50, 150, 220],
  [90, 180, 60],
  [128, 128, 128],
  [30, 30, 30],
];
const PATCH_PX = 16;

/** The patches side by side, each PATCH_PX square, as an RGB PNG carrying `icc`. */
function patchesPng(icc?: Uint8Array): Uint8Array {
  const width = PATCHES.length * PATCH_PX;
  const samples: number[] = [];
  for (let y = 0; y < PATCH_PX; y++) for (let x = 0; x < width; x++) samples.push(...PATCHES[Math.floor(x / PATCH_PX)]!);
  return buildPng({ width, height: PATCH_PX, colorType: 2, depth: 8, samples, ...(icc ? { icc } : {}) });
}

/** Each patch's centre colour in `rgba` (width PATCHES.length × PATCH_PX). */
function patchColours(rgba: { width: number; data: ArrayLike<number> }, scale = 1): number[][] {
  return PATCHES.map((_, i) => {
    const o = ((Math.floor((PATCH_PX * scale) / 2)) * rgba.width + Math.floor((i + 0.5) * PATCH_PX * scale)) * 4;
    return [rgba.data[o]!, rgba.data[o + 1]!, rgba.data[o + 2]!];
  });
}

/** lcms2's conversion (through ImageMagick) of the tagged PNG to sRGB: the expected colours. */
function lcmsToSrgb(png: Uint8Array): number[][] {
  const out = dir.file('png');
  const run = runTool('convert', [dir.file('png', png), '-profile', SRGB, '-depth', '8', `PNG24:${out}`]);
  expect(run.status, run.stderr).toBe(0);
  return patchColours(decodePngRgba(readFileSync(out)));
}

const fills = (svg: string) => [...svg.matchAll(/fill="#([0-9a-f]{6})"/g)].map((m) => [0, 2, 4].map((i) => parseInt(m[1]!.slice(i, i + 2), 16)));

function expectWithin(actual: number[][], expected: number[][], levels: number): void {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((c, i) => c.forEach((v, k) => expect(Math.abs(v - expected[i]![k]!), `patch ${i} channel ${k}: ${c} vs ${expected[i]}`).toBeLessThanOrEqual(levels)));
}

async function svgOf(png: Uint8Array, fields: Array<[string, string]>): Promise<string> {
  return new TextDecoder().decode((await runVectorize(planVectorize(fields), png)).body);
}

describe('embedded ICC profiles are read', () => {
  const profile = displayP3Profile();

  it('PNG iCCP', async () => {
    expect(Array.from((await decodeImage(patchesPng(profile))).iccProfile ?? [])).toEqual(Array.from(profile));
    expect((await decodeImage(patchesPng())).iccProfile).toBeUndefined();
  });

  it('JPEG APP2 ICC_PROFILE in two parts, out of order', async () => {
    const jpeg = jpegJs.encode({ width: 8, height: 8, data: new Uint8Array(8 * 8 * 4).fill(200) }, 95).data;
    const half = 300;
    const app2 = (sequence: number, part: Uint8Array) => {
      const body = concat(Array.from('ICC_PROFILE\0', (c) => c.charCodeAt(0)), [sequence, 2], part);
      return concat([0xff, 0xe2, (body.length + 2) >> 8, (body.length + 2) & 255], body);
    };
    const tagged = insertAfterSoi(new Uint8Array(jpeg), concat(app2(2, profile.subarray(half)), app2(1, profile.subarray(0, half))));
    expect(Array.from((await decodeImage(tagged)).iccProfile ?? [])).toEqual(Array.from(profile));
  });

  it('WebP ICCP chunk (VP8X)', async () => {
    const lossy = new Uint8Array(readFileSync(new URL('../fixtures/decode/webp-lossy.webp', import.meta.url)));
    const le32 = (v: number) => [v & 255, (v >> 8) & 255, (v >> 16) & 255, (v >>> 24) & 255];
    const vp8x = concat(Array.from('VP8X', (c) => c.charCodeAt(0)), le32(10), [0x20, 0, 0, 0, 15, 0, 0, 15, 0, 0]);
    const iccp = concat(Array.from('ICCP', (c) => c.charCodeAt(0)), le32(profile.length), profile, profile.length % 2 ? [0] : []);
    const body = concat(Array.from('WEBP', (c) => c.charCodeAt(0)), vp8x, iccp, lossy.subarray(12));
    const webp = concat(Array.from('RIFF', (c) => c.charCodeAt(0)), le32(body.length), body);
    const decoded = await decodeImage(webp);
    expect(decoded.width).toBe(16);
    expect(Array.from(decoded.iccProfile ?? [])).toEqual(Array.from(profile));
  });

  it('TIFF tag 34675', async () => {
    const tiff = buildTiff({ width: 2, height: 1, depth: 8, photometric: 2, channels: 3, samples: [1, 2, 3, 4, 5, 6], icc: profile });
    expect(Array.from((await decodeImage(tiff)).iccProfile ?? [])).toEqual(Array.from(profile));
  });
});

describe('processing.color_profile.input = preserve converts to sRGB as lcms2 does', () => {
  it.each([
    ['Display P3 (built by the test)', () => displayP3Profile()],
    ['Adobe RGB (1998) (Ghostscript)', () => new Uint8Array(readFileSync(ADOBE_RGB))],
    ['Display P3 as an A2B0 lookup table only (mft2, PCS XYZ)', () => displayP3LutProfile('XYZ')],
    ['Display P3 as an A2B0 lookup table only (mft2, PCS Lab)', () => displayP3LutProfile('Lab')],
    ['Display P3 as a v4 mAB colour table (PCS XYZ)', () => displayP3MabProfile('clut', 'XYZ')],
    ['Display P3 as a v4 mAB colour table (PCS Lab)', () => displayP3MabProfile('clut', 'Lab')],
    ['Display P3 as a v4 mAB of curves and matrix (PCS XYZ)', () => displayP3MabProfile('matrix')],
  ])('%s: traced colours within 1/255 of lcms2', async (_name, make) => {
    const png = patchesPng(make());
    const expected = lcmsToSrgb(png);
    // The profile changes these colours by several levels, so the check tells conversion from none.
    expect(Math.max(...expected.flatMap((c, i) => c.map((v, k) => Math.abs(v - PATCHES[i]![k]!))))).toBeGreaterThan(8);
    const svg = await svgOf(png, [['processing.color_profile.input', 'preserve']]);
    const written = fills(svg);
    expect(written).toHaveLength(PATCHES.length);
    // Fill order is the engine's; match each expected colour to its nearest fill.
    const nearest = expected.map((e) => written.reduce((best, c) => (dist(c, e) < dist(best, e) ? c : best)));
    expectWithin(nearest, expected, 1);
  });

  it('a grey profile (kTRC; Ghostscript\'s sGray) on a grey PNG: traced greys within 1/255 of lcms2', async () => {
    const greys = PATCHES.map(([r]) => r!);
    const width = greys.length * PATCH_PX;
    const samples: number[] = [];
    for (let y = 0; y < PATCH_PX; y++) for (let x = 0; x < width; x++) samples.push(greys[Math.floor(x / PATCH_PX)]!);
    const png = buildPng({ width, height: PATCH_PX, colorType: 0, depth: 8, samples, icc: new Uint8Array(readFileSync(SGRAY)) });
    const expected = lcmsToSrgb(png);
    expect(Math.max(...expected.map((c, i) => Math.abs(c[0]! - greys[i]!)))).toBeGreaterThan(8);
    const written = fills(await svgOf(png, [['processing.color_profile.input', 'preserve']]));
    const nearest = expected.map((e) => written.reduce((best, c) => (dist(c, e) < dist(best, e) ? c : best)));
    expectWithin(nearest, expected, 1);
  });

  it('ignore (the default) traces the stored values: byte-identical to the same picture without a profile', async () => {
    const untagged = await svgOf(patchesPng(), []);
    expect(await svgOf(patchesPng(displayP3Profile()), [])).toBe(untagged);
    // preserve on a picture without a profile changes nothing either
    expect(await svgOf(patchesPng(), [['processing.color_profile.input', 'preserve'], ['processing.color_profile.output', 'preserve']])).toBe(untagged);
  });

  it('an sRGB profile converts nothing', async () => {
    const tagged = patchesPng(new Uint8Array(readFileSync(SRGB)));
    expect(await svgOf(tagged, [['processing.color_profile.input', 'preserve']])).toBe(await svgOf(patchesPng(), []));
  });
});

describe('processing.color_profile.output = preserve embeds the profile', () => {
  const profile = displayP3Profile();
  const png = patchesPng(profile);

  it('PNG: an iCCP chunk ImageMagick extracts byte for byte', async () => {
    const out = (await runVectorize(planVectorize([['output.file_format', 'png'], ['processing.color_profile.output', 'preserve']]), png)).body;
    const icc = dir.file('icc');
    const run = runTool('convert', [dir.file('png', out), icc]);
    expect(run.status, run.stderr).toBe(0);
    expect(Array.from(readFileSync(icc))).toEqual(Array.from(profile));
    // Without the option the file has no profile, as before.
    const plain = (await runVectorize(planVectorize([['output.file_format', 'png']]), png)).body;
    expect(Buffer.from(plain).includes(Buffer.from('iCCP'))).toBe(false);
  });

  it("PDF: the page's DefaultRGB; pdftoppm and Ghostscript show the colours converted through it", async () => {
    const pdf = (await runVectorize(planVectorize([['output.file_format', 'pdf'], ['processing.color_profile.output', 'preserve']]), png)).body;
    const expected = lcmsToSrgb(png);
    const poppler = await renderPdfWithPoppler(dir, pdf, 72 * 4);
    expect(poppler.run.status, poppler.run.stderr).toBe(0);
    expectWithin(patchColours(poppler.image!, 4), expected, 2);
    const out = dir.file('png');
    const gs = runTool('gs', ['-dSAFER', '-dBATCH', '-dNOPAUSE', '-dQUIET', '-sDEVICE=png16m', '-r288', `-sOutputFile=${out}`, dir.file('pdf', pdf)]);
    expect(gs.status, gs.stderr).toBe(0);
    expectWithin(patchColours(decodePngRgba(readFileSync(out)), 4), expected, 2);
  });

  it('EPS: a DSC %%BeginICCProfile block holding the profile', async () => {
    const eps = new TextDecoder().decode((await runVectorize(planVectorize([['output.file_format', 'eps'], ['processing.color_profile.output', 'preserve']]), png)).body);
    const block = /%%BeginICCProfile: \(Embedded\) (\d+) Hex\n((?:%[0-9a-f]+\n)+)%%EndICCProfile\n/.exec(eps);
    expect(block).not.toBeNull();
    const lines = block![2]!.trim().split('\n');
    expect(lines).toHaveLength(Number(block![1]));
    const hex = lines.map((l) => l.slice(1)).join('');
    expect(Array.from(Buffer.from(hex, 'hex'))).toEqual(Array.from(profile));
  });

  it('a retained trace keeps the profile: /download writes it again', async () => {
    const { result } = await runVectorize(planVectorize([['processing.color_profile.output', 'preserve']]), png);
    const stored = deserializeTrace('t', serializeTrace(result));
    expect(Array.from(stored.colorProfile ?? [])).toEqual(Array.from(profile));
    const again = await render(stored, { outputOptions: planVectorize([['output.file_format', 'png']]).outputOptions, preview: false, watermark: 'none' });
    const icc = dir.file('icc');
    expect(runTool('convert', [dir.file('png', again.body), icc]).status).toBe(0);
    expect(Array.from(readFileSync(icc))).toEqual(Array.from(profile));
  });

  it('input preserve converts to sRGB, so there is nothing left to embed', async () => {
    const both = [['output.file_format', 'png'], ['processing.color_profile.input', 'preserve'], ['processing.color_profile.output', 'preserve']] as Array<[string, string]>;
    const out = (await runVectorize(planVectorize(both), png)).body;
    expect(Buffer.from(out).includes(Buffer.from('iCCP'))).toBe(false);
  });
});

function dist(a: number[], b: number[]): number {
  return Math.abs(a[0]! - b[0]!) + Math.abs(a[1]! - b[1]!) + Math.abs(a[2]! - b[2]!);
}
