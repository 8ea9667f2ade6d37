/**
 * Page geometry from `output.size.*` (reference §3.10).
 * In: the traced result's sizes, the size options and the file format. Out: the page (width and
 * height in a unit) and the affine map from traced coordinates to page units, y down.
 *
 * Natural size (no size option): SVG and DXF use input pixels; PDF and EPS use points at the
 * input's resolution (file metadata or `input_dpi`, else 72 dpi, so one pixel is one point);
 * PNG renders at 4× the input size. `scale` multiplies the natural size and wins over
 * width/height. With one of width/height the other follows the picture's aspect ratio; with both,
 * `aspect_ratio` fits the picture inside the box (preserve_inset), covers it (preserve_overflow,
 * the page clips) or stretches it, aligned by `align_x`/`align_y`.
 */
import type { FileFormat, SizeOptions, SizeUnit } from './types.js';

/** The resolution assumed when neither the file nor `input_dpi` gives one. */
export const DEFAULT_DPI = 72;
/** PNG output is this many times the input size unless output.size says otherwise. */
export const PNG_NATURAL_SCALE = 4;

export interface Page {
  /** Page size in `unit`. */
  readonly width: number;
  readonly height: number;
  readonly unit: SizeUnit;
  /** Traced coordinates → page units: x' = offsetX + scaleX·x, y' = offsetY + scaleY·y. */
  readonly scaleX: number;
  readonly scaleY: number;
  readonly offsetX: number;
  readonly offsetY: number;
  /** Page units per input pixel (mean of both axes): converts widths given in input pixels. */
  readonly unitsPerInputPx: number;
  /** True when output.size set the size (SVG then writes width/height). */
  readonly explicitSize: boolean;
  /** Input pixels per inch (file metadata, `input_dpi` or 72). */
  readonly inputDpi: number;
  /** Device pixels per inch for physical units in PNG output (`output_dpi`, else inputDpi). */
  readonly outputDpi: number;
}

export interface PageInput {
  /** Traced bitmap size (chain coordinates). */
  readonly width: number;
  readonly height: number;
  /** Input bitmap size. */
  readonly inputWidth: number;
  readonly inputHeight: number;
  /** Resolution from the file's metadata, if it had one. */
  readonly inputDpi?: number;
}

const INCHES_PER_UNIT: Readonly<Record<'pt' | 'in' | 'cm' | 'mm', number>> = { pt: 1 / 72, in: 1, cm: 1 / 2.54, mm: 1 / 25.4 };

export function computePage(input: PageInput, size: SizeOptions, format: FileFormat): Page {
  const inputDpi = size.inputDpi ?? (input.inputDpi !== undefined && input.inputDpi > 0 ? input.inputDpi : DEFAULT_DPI);
  const outputDpi = size.outputDpi ?? inputDpi;
  const iw = input.inputWidth;
  const ih = input.inputHeight;
  // Page units per input pixel for the natural size of this format.
  const physical = format === 'pdf' || format === 'eps';
  const naturalUnit: SizeUnit = physical ? 'pt' : 'none';
  const naturalPerPx = physical ? 72 / inputDpi : format === 'png' ? PNG_NATURAL_SCALE : 1;

  let unit: SizeUnit = naturalUnit;
  let boxW: number;
  let boxH: number;
  let explicitSize = true;
  let fitX: number;
  let fitY: number;
  if (size.scale !== undefined) {
    // Scale multiplies the natural size in pixels (PNG: not the 4× default).
    const perPx = physical ? (72 / inputDpi) * size.scale : size.scale;
    fitX = fitY = perPx;
    boxW = iw * perPx;
    boxH = ih * perPx;
  } else if (size.width !== undefined || size.height !== undefined) {
    unit = size.unit;
    if (size.width !== undefined && size.height !== undefined) {
      boxW = size.width;
      boxH = size.height;
      const sx = boxW / iw;
      const sy = boxH / ih;
      if (size.aspectRatio === 'stretch') {
        fitX = sx;
        fitY = sy;
      } else {
        fitX = fitY = size.aspectRatio === 'preserve_inset' ? Math.min(sx, sy) : Math.max(sx, sy);
      }
    } else if (size.width !== undefined) {
      boxW = size.width;
      fitX = fitY = boxW / iw;
      boxH = ih * fitY;
    } else {
      boxH = size.height!;
      fitX = fitY = boxH / ih;
      boxW = iw * fitX;
    }
  } else {
    explicitSize = false;
    fitX = fitY = naturalPerPx;
    boxW = iw * naturalPerPx;
    boxH = ih * naturalPerPx;
  }
  const offsetX = (boxW - iw * fitX) * size.alignX;
  const offsetY = (boxH - ih * fitY) * size.alignY;
  return {
    width: boxW,
    height: boxH,
    unit,
    scaleX: (fitX * iw) / input.width,
    scaleY: (fitY * ih) / input.height,
    offsetX,
    offsetY,
    unitsPerInputPx: (fitX + fitY) / 2,
    explicitSize,
    inputDpi,
    outputDpi,
  };
}

/** PostScript points per page unit (PDF, EPS). Pixel units use the input resolution. */
export function pointsPerUnit(page: Page): number {
  return page.unit === 'none' || page.unit === 'px' ? 72 / page.inputDpi : INCHES_PER_UNIT[page.unit] * 72;
}

/** Device pixels per page unit (PNG). Physical units use the output resolution. */
export function pixelsPerUnit(page: Page): number {
  return page.unit === 'none' || page.unit === 'px' ? 1 : INCHES_PER_UNIT[page.unit] * page.outputDpi;
}

/** The SVG length suffix of a unit (`none` = user units). */
export function svgUnitSuffix(unit: SizeUnit): string {
  return unit === 'none' ? '' : unit;
}

/**
 * True when the page map keeps circles circular, so arcs survive the transform. The bound allows
 * the ≤ 0.1 % axis mismatch a shrink to input.max_pixels leaves (sizes are rounded per axis).
 */
export function isUniform(page: Page): boolean {
  return Math.abs(page.scaleX - page.scaleY) <= 1e-3 * Math.max(page.scaleX, page.scaleY);
}
