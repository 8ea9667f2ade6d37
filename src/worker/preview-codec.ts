/**
 * The browser's own codecs in the trace worker, for what is only shown on screen: its decoder
 * shrinks a large input for the draft (createImageBitmap, drawn smaller on an OffscreenCanvas),
 * its 2D canvas paints a plan — the draft's, or a large result's 1× preview
 * (fills and strokes of the context's own path in paint order, clipped gap fillers clipped,
 * gradient paints as canvas gradients: linear ones exact, circular ones circles at the mean scale,
 * which previews keep uniform, elliptical ones exact — a unit-disc gradient drawn through the ellipse's frame: the
 * transform set around a fill, a pattern of the gradient under a stroke, whose pen the transform
 * would distort)
 * and its own PNG encoder
 * writes it (OffscreenCanvas.convertToBlob). All of it runs as native code, so a draft costs its
 * small trace and not a JS decode of every input pixel (≈ 0.6 s for a 2-MP PNG in a fresh
 * worker) nor a JS rasteriser that is still cold (≈ 0.15 s for a 0.1-MP draft, measured).
 *
 * A draft only stands in on screen until the full trace is done, and a preview is a picture of the
 * SVG that is downloaded (the browser paints both with the same 2D library); the full trace decodes the file
 * with Tracelab's own decoders, so its bytes are the same in the browser, the CLI and the server.
 * In: image bytes, or an output plan. Out: shrunk straight-alpha RGBA, or PNG bytes.
 * Undefined where the browser lacks createImageBitmap or OffscreenCanvas (then there is no draft).
 * shrinkToPng is the one exception to "only shown": a picture over the pixel limit, shrunk at the
 * user's request, becomes the input that is traced.
 */

import type { ChainUse, Gradient, GradientStop, Rgba } from '../engine/types.js';
import { axisAffine, composeAffine, type Affine } from '../formats/affine.js';
import { isElliptical, mapGradient, radialFrame } from '../formats/gradient.js';
import type { FillItem, OutputPlan, PlanItem, StrokeItem } from '../formats/plan.js';
import { ChainCache } from '../formats/raster.js';
import { pngSize, type PngSize } from '../formats/raster-plan.js';
import { ERROR_CODES, groupDigits, TracelabError } from '../engine/errors.js';
import { shrunkSize } from '../engine/profile/resize.js';
import type { ShrunkImage } from './protocol.js';
import type { PreviewCodec } from './vectorize.js';

/** Flattening tolerance of the painted curves, in device pixels (the canvas anti-aliases). */
const PAINT_TOLERANCE_PX = 0.25;

/** The browser's decode of `bytes`, or undefined when it cannot read them (TIFF, too large for it…). */
async function browserBitmap(bytes: Uint8Array): Promise<ImageBitmap | undefined> {
  try {
    return await createImageBitmap(new Blob([bytes as Uint8Array<ArrayBuffer>]), { premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
  } catch {
    return undefined;
  }
}

/**
 * `full` drawn on a new canvas at about `targetPixels` (never enlarged), or undefined without a
 * 2D context. Closes `full`.
 */
function drawShrunk(full: ImageBitmap, targetPixels: number, quality: ImageSmoothingQuality): OffscreenCanvasRenderingContext2D | undefined {
  // The tracer's own rule (input.max_pixels), so the playground can name the size beforehand.
  const { width, height } = shrunkSize(full.width, full.height, targetPixels) ?? full;
  const ctx = new OffscreenCanvas(width, height).getContext('2d');
  if (ctx) {
    ctx.imageSmoothingQuality = quality;
    ctx.drawImage(full, 0, 0, width, height);
  }
  full.close();
  return ctx ?? undefined;
}

/**
 * `bytes` shrunk to at most `maxPixels` pixels by the browser's decoder and canvas, as a PNG: the
 * playground's offer for a picture over the pixel limit, which Tracelab's own decoders refuse
 * from its header (1013, MAX_ACCEPTED_PIXELS). The PNG is then traced like any input, so it is
 * drawn at the canvas's best smoothing. Throws 1013 again when the browser cannot read the
 * picture either.
 */
export async function shrinkToPng(bytes: Uint8Array, maxPixels: number): Promise<ShrunkImage> {
  const cannot = (why: string) =>
    new TracelabError(ERROR_CODES.tooManyPixels, 413, `The browser could not shrink this picture (${why}); shrink it to at most ${groupDigits(maxPixels)} pixels in an image editor first.`);
  if (typeof createImageBitmap !== 'function' || typeof OffscreenCanvas !== 'function') throw cannot('it has no canvas in workers');
  const full = await browserBitmap(bytes);
  if (!full) throw cannot('it cannot read it');
  const [inputWidth, inputHeight] = [full.width, full.height];
  const ctx = drawShrunk(full, maxPixels, 'high');
  if (!ctx) throw cannot('no 2D canvas');
  const { width, height } = ctx.canvas;
  const png = await encodePng(ctx.canvas);
  return { png, width, height, inputWidth, inputHeight };
}

export function browserPreviewCodec(): PreviewCodec | undefined {
  if (typeof createImageBitmap !== 'function' || typeof OffscreenCanvas !== 'function') return undefined;
  return {
    async shrink(bytes, targetPixels, minInputPixels) {
      // A format the browser cannot read (TIFF…): no draft, the full trace decides.
      const full = await browserBitmap(bytes);
      if (!full) return undefined;
      const inputWidth = full.width;
      const inputHeight = full.height;
      if (inputWidth * inputHeight <= minInputPixels) {
        full.close();
        return undefined;
      }
      const ctx = drawShrunk(full, targetPixels, 'medium');
      if (!ctx) return undefined;
      const { width, height } = ctx.canvas;
      const data = new Uint8Array(ctx.getImageData(0, 0, width, height).data.buffer);
      releaseCanvas(ctx.canvas);
      return { pixels: { width, height, data }, inputWidth, inputHeight };
    },
    async paint(plan) {
      const size = pngSize(plan);
      const canvas = new OffscreenCanvas(size.width, size.height);
      const ctx = canvas.getContext('2d');
      if (!ctx) throw new Error('no 2D context to paint on');
      const chains = new ChainCache(plan.chains, size.scaleX, size.scaleY, PAINT_TOLERANCE_PX, size.offsetX, size.offsetY);
      paintItems(ctx, plan, chains, size, plan.items);
      const png = await encodePng(canvas);
      return { png, width: size.width, height: size.height };
    },
  };
}

/** The canvas as PNG bytes (the browser's encoder); its pixels are released once encoded (releaseCanvas). */
async function encodePng(canvas: OffscreenCanvas): Promise<Uint8Array> {
  const blob = await canvas.convertToBlob({ type: 'image/png' });
  releaseCanvas(canvas);
  return new Uint8Array(await blob.arrayBuffer());
}

/**
 * Frees a canvas's pixels now instead of at the worker's next garbage collection: a canvas keeps
 * its backing store (width × height × 4 bytes: 8 MB for a 2-MP preview) as long as the object
 * lives, and the preview is painted at the end of a trace, when the worker goes idle and its next
 * collection may be seconds away (at Done, a 2-MP photo's trace worker still held about 58 MB of
 * garbage, measured). A 0 × 0 canvas has none.
 */
function releaseCanvas(canvas: OffscreenCanvas): void {
  canvas.width = 0;
  canvas.height = 0;
}

function cssColor(c: Rgba): string {
  return `rgba(${c.r},${c.g},${c.b},${c.a / 255})`;
}

/**
 * An item's paint: its flat colour, or its gradient in device pixels (mapGradient: exact for
 * linear axes) with the item's alpha as globalAlpha, which the caller's save/restore resets.
 * Elliptical gradients are painted by fillThroughFrame and strokePattern instead.
 */
function itemPaint(ctx: OffscreenCanvasRenderingContext2D, item: FillItem | StrokeItem, size: PngSize): string | CanvasGradient {
  if (!item.gradient) return cssColor(item.color);
  ctx.globalAlpha = item.color.a / 255;
  return canvasGradient(ctx, mapGradient(item.gradient, size.scaleX, size.scaleY, size.offsetX, size.offsetY));
}

function canvasGradient(ctx: OffscreenCanvasRenderingContext2D, g: Gradient): CanvasGradient {
  const gradient = g.kind === 'linear' ? ctx.createLinearGradient(g.x1, g.y1, g.x2, g.y2) : ctx.createRadialGradient(g.cx, g.cy, 0, g.cx, g.cy, g.r);
  return withStops(gradient, g.stops);
}

function withStops(gradient: CanvasGradient, stops: readonly GradientStop[]): CanvasGradient {
  for (const stop of stops) gradient.addColorStop(Math.max(0, Math.min(1, stop.offset)), cssColor({ ...stop.color, a: 255 }));
  return gradient;
}

/** An elliptical gradient's frame in device pixels: unit-disc coordinates → device (t = 1 on the unit circle). */
function deviceFrame(item: FillItem | StrokeItem, size: PngSize): Affine | undefined {
  const g = item.gradient;
  return g && isElliptical(g) ? composeAffine(axisAffine(size.scaleX, size.scaleY, size.offsetX, size.offsetY), radialFrame(g)) : undefined;
}

/**
 * Fills the context's current path (built in device pixels) with the unit-disc gradient seen
 * through `frame`: the canvas transforms a path when its points are added, but a gradient when it
 * paints, so setting the transform just before the fill moves the gradient and not the path.
 */
function fillThroughFrame(ctx: OffscreenCanvasRenderingContext2D, item: FillItem, frame: Affine): void {
  ctx.globalAlpha = item.color.a / 255;
  ctx.setTransform(...frame);
  ctx.fillStyle = withStops(ctx.createRadialGradient(0, 0, 0, 0, 0, 1), item.gradient!.stops);
  ctx.fill('nonzero');
}

/**
 * A stroke's elliptical gradient as a pattern in device pixels over the stroke's box (`box`:
 * left, top, right, bottom, whole pixels): a stroke drawn under the frame's transform would have
 * its pen stretched too, so the gradient is painted once into a scratch canvas of that box
 * (each pixel the gradient at its centre, as the canvas paints gradients) and the stroke samples
 * it one to one.
 */
function strokePattern(ctx: OffscreenCanvasRenderingContext2D, item: StrokeItem, frame: Affine, box: readonly number[]): CanvasPattern | undefined {
  const [left, top, right, bottom] = box as [number, number, number, number];
  if (!(right > left && bottom > top)) return undefined;
  const scratch = new OffscreenCanvas(right - left, bottom - top);
  const sctx = scratch.getContext('2d');
  if (!sctx) return undefined;
  sctx.rect(0, 0, right - left, bottom - top);
  sctx.setTransform(...composeAffine([1, 0, 0, 1, -left, -top], frame));
  sctx.fillStyle = withStops(sctx.createRadialGradient(0, 0, 0, 0, 0, 1), item.gradient!.stops);
  sctx.fill();
  const pattern = ctx.createPattern(scratch, 'no-repeat');
  pattern?.setTransform(new DOMMatrix([1, 0, 0, 1, left, top]));
  ctx.globalAlpha = item.color.a / 255;
  return pattern ?? undefined;
}

/** A stroke's box in whole device pixels (its chains' bounds, widened by half the width), clipped to the canvas. */
function strokeBox(chains: ChainCache, item: StrokeItem, width: number, size: PngSize): number[] {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const p of item.paths) {
    for (const use of p.uses) {
      const b = chains.bounds(use.chain);
      minX = Math.min(minX, b[0]);
      minY = Math.min(minY, b[1]);
      maxX = Math.max(maxX, b[2]);
      maxY = Math.max(maxY, b[3]);
    }
  }
  const pad = width / 2 + 1;
  return [
    Math.max(0, Math.floor(minX - pad)),
    Math.max(0, Math.floor(minY - pad)),
    Math.min(size.width, Math.ceil(maxX + pad)),
    Math.min(size.height, Math.ceil(maxY + pad)),
  ];
}

/** Adds one loop or open path (chain uses in order, reversed ones backwards) to `path` (a Path2D or the context's current path). */
function addUses(path: CanvasPath, chains: ChainCache, uses: readonly ChainUse[], closed: boolean): void {
  let first = true;
  for (const use of uses) {
    const p = chains.points(use.chain);
    const n = p.length >> 1;
    for (let k = 0; k < n; k++) {
      const i = use.reversed ? n - 1 - k : k;
      if (first) path.moveTo(p[2 * i]!, p[2 * i + 1]!);
      else path.lineTo(p[2 * i]!, p[2 * i + 1]!);
      first = false;
    }
  }
  if (closed && !first) path.closePath();
}

/**
 * Every item is drawn with the context's own path (beginPath, then its loops), not a Path2D of
 * its own: the same geometry, fill and stroke (the PNGs are byte-identical), but each Path2D holds
 * its points in native memory until the worker's next garbage collection, which comes rarely
 * once the trace is done (thousands of items for a photo).
 */
function paintItems(ctx: OffscreenCanvasRenderingContext2D, plan: OutputPlan, chains: ChainCache, size: PngSize, items: readonly PlanItem[]): void {
  const strokeScale = plan.page.unitsPerInputPx * size.pixelsPerUnit;
  for (const item of items) {
    if (item.kind === 'group') {
      paintItems(ctx, plan, chains, size, item.items);
    } else if (item.kind === 'fill') {
      if (item.color.a <= 0) continue;
      const frame = deviceFrame(item, size);
      ctx.save();
      ctx.beginPath();
      for (const loop of item.loops) addUses(ctx, chains, loop, true);
      if (frame) {
        fillThroughFrame(ctx, item, frame);
      } else {
        ctx.fillStyle = itemPaint(ctx, item, size);
        ctx.fill('nonzero');
      }
      ctx.restore();
    } else {
      const width = item.nonScaling ? item.widthPx : item.widthPx * strokeScale;
      if (!(width > 0) || item.color.a <= 0) continue;
      ctx.save();
      if (item.clipShapes) {
        // Gap fillers drawn only inside these shapes: the union of their outlines.
        ctx.beginPath();
        for (const index of item.clipShapes) {
          const shape = plan.result.shapes[index];
          if (shape) for (const loop of [shape.outer, ...shape.holes]) addUses(ctx, chains, loop, true);
        }
        ctx.clip('nonzero');
      }
      ctx.beginPath();
      for (const p of item.paths) addUses(ctx, chains, p.uses, p.closed);
      const frame = deviceFrame(item, size);
      const pattern = frame ? strokePattern(ctx, item, frame, strokeBox(chains, item, width, size)) : undefined;
      if (frame && !pattern) {
        ctx.restore();
        continue; // nothing to paint: the stroke lies outside the canvas
      }
      ctx.strokeStyle = pattern ?? itemPaint(ctx, item, size);
      ctx.lineWidth = width;
      ctx.lineJoin = item.join ?? 'round';
      ctx.lineCap = item.cap ?? 'round';
      ctx.stroke();
      ctx.restore();
    }
  }
}
