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
  const box = pageBox(size, format, iw, ih, inputDpi);
  const offsetX = (box.width - iw * box.fitX) * size.alignX;
  const offsetY = (box.height - ih * box.fitY) * size.alignY;
  return {
    width: box.width,
    height: box.height,
    unit: box.unit,
    scaleX: (box.fitX * iw) / input.width,
    scaleY: (box.fitY * ih) / input.height,
    offsetX,
    offsetY,
    unitsPerInputPx: (box.fitX + box.fitY) / 2,
    explicitSize: box.explicitSize,
    inputDpi,
    outputDpi,
  };
}

/** The page's size (in its unit) and the picture's page units per input pixel along x and y. */
interface PageBox {
  readonly unit: SizeUnit;
  readonly width: number;
  readonly height: number;
  readonly fitX: number;
  readonly fitY: number;
  /** False for the format's natural size (no size option given). */
  readonly explicitSize: boolean;
}

/** The page box of an input of iw × ih pixels: from the scale, the size asked for, or the format's natural size. */
function pageBox(size: SizeOptions, format: FileFormat, iw: number, ih: number, inputDpi: number): PageBox {
  // Page units per input pixel for the natural size of this format.
  const physical = format === 'pdf' || format === 'eps';
  const naturalUnit: SizeUnit = physical ? 'pt' : 'none';
  if (size.scale !== undefined) {
    // Scale multiplies the natural size in pixels (PNG: not the 4× default).
    const perPx = physical ? (72 / inputDpi) * size.scale : size.scale;
    return { unit: naturalUnit, width: iw * perPx, height: ih * perPx, fitX: perPx, fitY: perPx, explicitSize: true };
  }
  if (size.width !== undefined || size.height !== undefined) return sizedBox(size, iw, ih);
  const naturalPerPx = physical ? 72 / inputDpi : format === 'png' ? PNG_NATURAL_SCALE : 1;
  return { unit: naturalUnit, width: iw * naturalPerPx, height: ih * naturalPerPx, fitX: naturalPerPx, fitY: naturalPerPx, explicitSize: false };
}

/**
 * The page box for a width and/or height in the size's unit: both given, the picture fits by
 * its aspect-ratio rule (stretch, inset or cover); one given, the other follows the picture's.
 */
function sizedBox(size: SizeOptions, iw: number, ih: number): PageBox {
  const unit = size.unit;
  if (size.width !== undefined && size.height !== undefined) {
    const sx = size.width / iw;
    const sy = size.height / ih;
    if (size.aspectRatio === 'stretch') return { unit, width: size.width, height: size.height, fitX: sx, fitY: sy, explicitSize: true };
    const fit = size.aspectRatio === 'preserve_inset' ? Math.min(sx, sy) : Math.max(sx, sy);
    return { unit, width: size.width, height: size.height, fitX: fit, fitY: fit, explicitSize: true };
  }
  if (size.width !== undefined) {
    const fit = size.width / iw;
    return { unit, width: size.width, height: ih * fit, fitX: fit, fitY: fit, explicitSize: true };
  }
  const fit = size.height! / ih;
  return { unit, width: iw * fit, height: size.height!, fitX: fit, fitY: fit, explicitSize: true };
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
