import { encode } from 'fast-png';
import { describe, expect, it } from 'vitest';

import { countFilledPaths } from '../../tests/helpers/svg-count.js';
import { decodeBytes } from '../api/pipeline.js';
import { decodePng } from '../decode/png.js';
import { encodePng, renderPlan } from '../formats/png.js';
import { DRAFT_ABOVE_PIXELS, DRAFT_PIXELS, isWorkerErrorPayload, LARGE_SVG_BYTES, type TraceProgress, type VectorizeResult } from './protocol.js';
import { cancelVectorize, exportInWorker, forgetLastTrace, renderOutlineInWorker, toErrorPayload, TraceSupersededError, vectorizeInWorker, type PreviewCodec } from './vectorize.js';

/** 24×16 PNG: left half red, right half blue, on nothing else. */
function twoColourPng(): Uint8Array {
  const width = 24;
  const height = 16;
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      data.set(x < 12 ? [220, 30, 40, 255] : [30, 60, 220, 255], o);
    }
  }
  return encode({ width, height, data, channels: 4, depth: 8 });
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

describe('vectorizeInWorker', () => {
  it('decodes, traces and writes an SVG with stats, reporting progress per step', async () => {
    const steps: { step: string; fraction: number }[] = [];
    const result = await vectorizeInWorker(twoColourPng(), [], (p) => steps.push(p));
    expect(steps.map((p) => p.step)).toEqual(['decode', 'resize', 'profile', 'palette', 'label', 'regions', 'shading', 'boundary', 'fit', 'shapes']);
    expect(steps.every((p, i) => i === 0 || p.fraction > steps[i - 1]!.fraction)).toBe(true);
    expect(result.svg.startsWith('<?xml')).toBe(true);
    expect(result.width).toBe(24);
    expect(result.height).toBe(16);
    expect(result.stats.colors).toBe(2);
    expect(result.stats.shapes).toBe(2);
    expect(result.stats.shapes).toBe(countFilledPaths(result.svg));
    expect(result.stats.bytes).toBe(new TextEncoder().encode(result.svg).length);
    expect(result.ms).toBeGreaterThanOrEqual(0);
  });

  it('stroke draw styles count the shapes they outline, not "Shapes: 0" (issue 17)', async () => {
    const filled = await vectorizeInWorker(twoColourPng(), []);
    for (const style of ['stroke_shapes', 'stroke_edges']) {
      const stroked = await vectorizeInWorker(twoColourPng(), [['output.draw_style', style]]);
      expect(countFilledPaths(stroked.svg)).toBe(0);
      expect(stroked.stats.shapes).toBe(filled.stats.shapes);
    }
  });

  it('applies API fields', async () => {
    const withFiller = await vectorizeInWorker(twoColourPng(), []);
    const without = await vectorizeInWorker(twoColourPng(), [['output.gap_filler.enabled', 'false']]);
    expect(withFiller.svg).toContain('stroke=');
    expect(without.svg).not.toContain('stroke=');
  });

  it('rejects unreadable bytes with 1006 and bad fields with 1019, as plain payloads', async () => {
    const corrupt = toErrorPayload(await rejection(vectorizeInWorker(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]), [])));
    expect(corrupt.code).toBe(1006);
    expect(corrupt.message).toMatch(/^Failed to read the supplied image: /);
    const bad = toErrorPayload(await rejection(vectorizeInWorker(twoColourPng(), [['processing.max_colors', '999']])));
    expect(bad.code).toBe(1019);
    expect(bad.message).toContain('processing.max_colors');
    // The payload survives structured clone unchanged.
    expect(structuredClone(bad)).toEqual(bad);
    expect(isWorkerErrorPayload(structuredClone(bad))).toBe(true);
  });

  it('turns unexpected errors into code 0', () => {
    expect(toErrorPayload(new RangeError('boom'))).toEqual({
      code: 0,
      status: 500,
      message: 'Internal error while tracing (RangeError: boom)',
    });
  });
});

describe('countFilledPaths', () => {
  it('counts filled paths, not gap-filler strokes', () => {
    const svg =
      '<svg><g fill="none"><path stroke="#000" d="m0 0h1"/></g><path fill="#f00" d="m0 0h1"/><path fill="#00f" d="m0 0h2"/></svg>';
    expect(countFilledPaths(svg)).toBe(2);
  });
});

describe('vectorizeInWorker across calls: reuse, drafts and supersession', () => {
  it('an output-only change writes the file again from the last trace (no decode, no engine stage); a processing change traces again', async () => {
    forgetLastTrace();
    const png = twoColourPng();
    const first: string[] = [];
    const a = await vectorizeInWorker(png, [], (p) => first.push(p.step));
    expect(first).toContain('fit');
    expect(a.reusedTrace).toBe(false);
    const second: string[] = [];
    const b = await vectorizeInWorker(png.slice(), [['output.svg.fixed_size', 'true']], (p) => second.push(p.step));
    expect(b.reusedTrace).toBe(true);
    expect(second.filter((s) => s !== 'decode')).toEqual([]);
    expect(b.svg).toContain('width="24"');
    expect(b.svg).not.toBe(a.svg);
    // Another format of the same trace (a download) is written from it too, byte for byte what a
    // fresh trace gives.
    const pdf = await exportInWorker(png.slice(), [['output.file_format', 'pdf']]);
    forgetLastTrace();
    const fresh = await exportInWorker(png.slice(), [['output.file_format', 'pdf']]);
    expect(Buffer.from(pdf.body).equals(Buffer.from(fresh.body))).toBe(true);
    // A processing option or other bytes change the trace.
    const third: string[] = [];
    const c = await vectorizeInWorker(png.slice(), [['processing.max_colors', '1']], (p) => third.push(p.step));
    expect(c.reusedTrace).toBe(false);
    expect(third).toContain('fit');
  });

  it('the outlines are written on request from the last trace (outline mode), not with every result', async () => {
    forgetLastTrace();
    const png = twoColourPng();
    const result = await vectorizeInWorker(png, [['output.gap_filler.enabled', 'false']]);
    expect(Object.keys(result)).not.toContain('outlineSvg');
    // The file's bytes come with the text (the page saves and shows them without encoding it).
    expect(new TextDecoder().decode(result.svgBytes)).toBe(result.svg);
    const file = await renderOutlineInWorker(png.slice(), [['output.gap_filler.enabled', 'false']]);
    expect(file.contentType).toBe('image/svg+xml');
    const outline = new TextDecoder().decode(file.body);
    // Every shape outlined by a hairline, nothing filled: the stroke_shapes style of the same trace.
    expect(countFilledPaths(outline)).toBe(0);
    expect(outline).toContain('vector-effect="non-scaling-stroke"');
    const stroked = await vectorizeInWorker(png.slice(), [['output.gap_filler.enabled', 'false'], ['output.draw_style', 'stroke_shapes']]);
    expect(stroked.reusedTrace).toBe(true);
    expect(outline.match(/<path/g)?.length).toBe(stroked.svg.match(/<path/g)?.length);
  });

  it('a processing change traces again from the decoded pixels of the same image, giving what a fresh worker gives', async () => {
    forgetLastTrace();
    const png = twoColourPng();
    const a = await vectorizeInWorker(png.slice(), []);
    expect(a.reusedDecode).toBe(false);
    const b = await vectorizeInWorker(png.slice(), [['processing.max_colors', '1']]);
    expect([b.reusedTrace, b.reusedDecode]).toEqual([false, true]);
    // A colour change re-runs from the palette on (src/engine/memo.ts).
    expect(b.reusedStages).toEqual(['resize', 'profile']);
    expect(b.stats.rerunFrom).toBe('palette');
    expect(a.stats.rerunFrom).toBeUndefined();
    const c = await vectorizeInWorker(png.slice(), [['processing.max_colors', '1'], ['output.shape_stacking', 'stacked']]);
    expect(c.reusedStages).toEqual(['resize', 'profile', 'palette', 'label', 'regions', 'shading', 'boundary', 'fit']);
    expect(c.stats.rerunFrom).toBe('shapes');
    // Back to the first options from the same pixels: the engine left them as they were.
    const again = await vectorizeInWorker(png.slice(), []);
    expect(again.reusedDecode).toBe(true);
    expect(again.svg).toBe(a.svg);
    forgetLastTrace();
    const fresh = await vectorizeInWorker(png.slice(), [['processing.max_colors', '1']]);
    expect(fresh.reusedDecode).toBe(false);
    expect(fresh.svg).toBe(b.svg);
    // Another file is decoded, even one of the same length.
    const other = encode({ width: 24, height: 16, data: new Uint8Array(24 * 16 * 4).fill(200), channels: 4, depth: 8 });
    const changed = await vectorizeInWorker(other, []);
    expect(changed.reusedDecode).toBe(false);
    expect(changed.svg).not.toBe(a.svg);
  });

  it('a newer call supersedes the running one at its next checkpoint and starts from the stages it finished (same bytes as a fresh trace)', async () => {
    forgetLastTrace();
    const png = twoColourPng();
    const fields: [string, string][] = [['output.shape_stacking', 'stacked']];
    let newer: Promise<VectorizeResult> | undefined;
    const stale = vectorizeInWorker(png.slice(), [], (p) => {
      // The page's next change arrives while this trace is past its labels (stored with their
      // links, the step after 'label') and finding its regions.
      if (p.step === 'regions' && !newer) newer = vectorizeInWorker(png.slice(), fields);
    });
    const err = await rejection(stale);
    expect(err).toBeInstanceOf(TraceSupersededError);
    expect((err as Error).name).toBe('AbortError');
    const b = await newer!;
    // Decoded, resized, profiled, palette and labels by the stale trace; stopped before its regions were stored.
    expect(b.reusedDecode).toBe(true);
    expect(b.reusedStages).toEqual(['resize', 'profile', 'palette', 'label']);
    expect(b.stats.rerunFrom).toBe('regions');
    forgetLastTrace();
    expect((await vectorizeInWorker(png.slice(), fields)).svg).toBe(b.svg);
  });

  it('calls made back to back: only the newest is traced; cancelVectorize stops the running one', async () => {
    forgetLastTrace();
    const png = twoColourPng();
    const calls = [vectorizeInWorker(png.slice(), []), vectorizeInWorker(png.slice(), [['processing.max_colors', '1']]), vectorizeInWorker(png.slice(), [['processing.max_colors', '2']])];
    const settled = await Promise.allSettled(calls);
    expect(settled.map((r) => r.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
    // The superseded calls stopped before decoding: the newest one decoded the image.
    expect((settled[2] as PromiseFulfilledResult<VectorizeResult>).value.reusedDecode).toBe(false);
    const running = vectorizeInWorker(png.slice(), [['processing.max_colors', '3']], (p) => {
      if (p.step === 'profile') cancelVectorize();
    });
    expect(await rejection(running)).toBeInstanceOf(TraceSupersededError);
    // The worker is idle again: the next call runs.
    expect((await vectorizeInWorker(png.slice(), [])).svg.startsWith('<?xml')).toBe(true);
  });

  /** 1,200 × 1,000 px (above DRAFT_ABOVE_PIXELS): a red disc and a blue bar on white. */
  function largePng(): Uint8Array {
    const width = 1200;
    const height = 1000;
    const data = new Uint8Array(width * height * 4).fill(255);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const o = (y * width + x) * 4;
        if ((x - 400) ** 2 + (y - 500) ** 2 < 300 ** 2) data.set([210, 30, 40], o);
        else if (x > 800 && x < 1000 && y > 150 && y < 850) data.set([30, 60, 220], o);
      }
    }
    return encode({ width, height, data, channels: 4, depth: 8 });
  }

  /** What the browser's codec does, in plain code: decode, keep every k-th pixel; PNG by Tracelab's writer. */
  const nodeCodec: PreviewCodec = {
    async shrink(bytes, targetPixels, minInputPixels) {
      const full = await decodeBytes(bytes);
      if (full.width * full.height <= minInputPixels) return undefined;
      const k = Math.ceil(Math.sqrt((full.width * full.height) / targetPixels));
      const width = Math.floor(full.width / k);
      const height = Math.floor(full.height / k);
      const data = new Uint8Array(width * height * 4);
      for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set(full.data.subarray(((y * k) * full.width + x * k) * 4, ((y * k) * full.width + x * k) * 4 + 4), (y * width + x) * 4);
      return { pixels: { width, height, data }, inputWidth: full.width, inputHeight: full.height };
    },
    async paint(plan) {
      const { rgba, width, height } = renderPlan(plan);
      return { png: encodePng(rgba, width, height), width, height };
    },
  };

  it('a large image reports a draft (a small PNG of a shrunk trace) before its full trace, and the full result is unchanged by it', async () => {
    forgetLastTrace();
    const png = largePng();
    expect(1200 * 1000).toBeGreaterThan(DRAFT_ABOVE_PIXELS);
    const reports: TraceProgress[] = [];
    const withDraft = await vectorizeInWorker(png.slice(), [], (p) => reports.push(p), undefined, nodeCodec);
    const steps = reports.map((p) => p.step);
    expect(steps.slice(0, 3)).toEqual(['decode', 'draft', 'resize']);
    const draft = reports[1]!.draft!;
    expect(draft.width * draft.height).toBeLessThanOrEqual(DRAFT_PIXELS);
    expect(draft.width * draft.height).toBeGreaterThan(DRAFT_PIXELS / 4);
    // The draft is a picture of the result: its PNG shows the red disc and the blue bar where they are.
    const image = decodePng(draft.png);
    expect([image.width, image.height]).toEqual([draft.width, draft.height]);
    const at = (fx: number, fy: number) => {
      const o = (Math.floor(fy * image.height) * image.width + Math.floor(fx * image.width)) * 4;
      return [image.data[o], image.data[o + 1], image.data[o + 2]];
    };
    expect(at(400 / 1200, 0.5)).toEqual([210, 30, 40]);
    expect(at(900 / 1200, 0.5)).toEqual([30, 60, 220]);
    expect(at(0.05, 0.05)).toEqual([255, 255, 255]);
    forgetLastTrace();
    const plain = await vectorizeInWorker(png.slice(), [], () => undefined);
    expect(withDraft.svg).toBe(plain.svg);
    // An output option change writes from the cached trace: nothing to draft.
    const again: string[] = [];
    await vectorizeInWorker(png.slice(), [['output.gap_filler.enabled', 'false']], (p) => again.push(p.step), undefined, nodeCodec);
    expect(again).toEqual(['decode']);
  });

  it('outlines whose SVG is over LARGE_SVG_BYTES come painted as a PNG at the input size (an SVG <img> is drawn on the main thread)', async () => {
    forgetLastTrace();
    // 600 × 500 of 6-px cells in five colours, no two neighbours alike: thousands of shapes.
    const width = 600;
    const height = 500;
    const colours = [[220, 30, 40], [30, 60, 220], [40, 160, 60], [240, 200, 20], [20, 20, 20]];
    const data = new Uint8Array(width * height * 4);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set([...colours[(Math.floor(x / 6) * 2 + Math.floor(y / 6)) % 5]!, 255], (y * width + x) * 4);
    const png = encode({ width, height, data, channels: 4, depth: 8 });
    const fields: [string, string][] = [['output.gap_filler.enabled', 'false']];
    await vectorizeInWorker(png.slice(), fields);
    const svg = await renderOutlineInWorker(png.slice(), fields);
    expect(svg.contentType).toBe('image/svg+xml');
    expect(svg.body.length).toBeGreaterThan(LARGE_SVG_BYTES);
    const painted = await renderOutlineInWorker(png.slice(), fields, undefined, nodeCodec);
    expect(painted.contentType).toBe('image/png');
    const image = decodePng(painted.body);
    expect([image.width, image.height]).toEqual([width, height]);
    // Outlines only: a cell's middle stays transparent, its border is drawn.
    const alphaAt = (x: number, y: number) => image.data[(y * image.width + x) * 4 + 3];
    expect(alphaAt(9, 9)).toBe(0);
    expect(alphaAt(6, 9)).toBeGreaterThan(0);
  });

  it('no draft for an image of at most DRAFT_ABOVE_PIXELS, and a failing draft only skips the draft', async () => {
    forgetLastTrace();
    const small: string[] = [];
    await vectorizeInWorker(twoColourPng(), [], (p) => small.push(p.step), undefined, nodeCodec);
    expect(small).not.toContain('draft');
    forgetLastTrace();
    const broken: PreviewCodec = { ...nodeCodec, paint: async () => Promise.reject(new Error('no canvas')) };
    const steps: string[] = [];
    const result = await vectorizeInWorker(largePng(), [], (p) => steps.push(p.step), undefined, broken);
    expect(steps).not.toContain('draft');
    expect(steps).toContain('fit');
    expect(result.stats.colors).toBe(3);
  });

  it('a picture over the pixel limit is refused from its header: 1013 before any step or draft (issue 29 item 4)', async () => {
    forgetLastTrace();
    // 8000 × 8000 = 64 MP, over MAX_ACCEPTED_PIXELS: 1-bit grey, left half black, right half white.
    const width = 8000;
    const row = new Uint8Array(width / 8).fill(0xff, width / 16);
    const data = new Uint8Array(row.length * width);
    for (let y = 0; y < width; y++) data.set(row, y * row.length);
    const png = encode({ width, height: width, data, channels: 1, depth: 1 });
    const steps: string[] = [];
    const err = toErrorPayload(await rejection(vectorizeInWorker(png, [], (p) => steps.push(p.step), undefined, nodeCodec)));
    expect(err.code).toBe(1013);
    expect(err.message).toContain('8000×8000');
    // Neither the decode step nor the draft (which decodes the whole picture) began.
    expect(steps).toEqual([]);
  });
});

describe('colour profiles in the playground worker (issue 41)', () => {
  it('switching processing.color_profile.input traces again instead of reusing the cached trace', async () => {
    const { buildPng } = await import('../../tests/decode/build.js');
    const { displayP3Profile } = await import('../../tests/helpers/icc.js');
    const samples: number[] = [];
    for (let i = 0; i < 24 * 16; i++) samples.push(...(i % 24 < 12 ? [200, 100, 50] : [50, 150, 220]));
    const png = buildPng({ width: 24, height: 16, colorType: 2, depth: 8, samples, icc: displayP3Profile() });
    forgetLastTrace();
    const stored = await vectorizeInWorker(png, []);
    const converted = await vectorizeInWorker(png, [['processing.color_profile.input', 'preserve']]);
    const back = await vectorizeInWorker(png, []);
    expect(stored.svg).toContain('fill="#c86432"');
    // Display P3 (200, 100, 50) in sRGB, as lcms2 converts it (tests/decode/icc.test.ts checks against it).
    expect(converted.svg).toContain('fill="#d75d1f"');
    expect(back.svg).toBe(stored.svg);
  });
});
