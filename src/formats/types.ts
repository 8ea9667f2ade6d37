/**
 * Output options every format writer receives, already validated and converted from the API's
 * `output.*` fields by src/api (the only place that knows the API names).
 * Lengths named `…Px` are in pixels of the input image (the SVG viewBox unit).
 */
import type { Rgba } from '../engine/types.js';

export type FileFormat = 'svg' | 'eps' | 'pdf' | 'dxf' | 'png';
export type DrawStyle = 'fill_shapes' | 'stroke_shapes' | 'stroke_edges';
export type GroupBy = 'none' | 'color' | 'parent' | 'layer';
export type SizeUnit = 'none' | 'px' | 'pt' | 'in' | 'cm' | 'mm';
export type AspectRatio = 'preserve_inset' | 'preserve_overflow' | 'stretch';
export type DxfCompatibility = 'lines_only' | 'lines_and_arcs' | 'lines_arcs_and_splines';

export interface GapFillerOptions {
  readonly enabled: boolean;
  readonly nonScalingStroke: boolean;
  readonly clip: boolean;
  readonly strokeWidthPx: number;
}

export interface StrokeOptions {
  readonly strokeWidthPx: number;
  readonly nonScalingStroke: boolean;
  /** Replaces the traced stroke colour when present (`use_override_color`). */
  readonly overrideColor?: Rgba;
}

/** Which curve kinds the user allows (`output.curves.*`); formats restrict further. */
export interface CurveOptions {
  readonly quadraticBezier: boolean;
  readonly cubicBezier: boolean;
  readonly circularArc: boolean;
  readonly ellipticalArc: boolean;
  /** Largest distance (input px) between a curve and the lines that replace it. */
  readonly lineFitTolerancePx: number;
}

/** `output.size.*` (reference §3.10). Absent numbers = not given. */
export interface SizeOptions {
  readonly scale?: number;
  readonly width?: number;
  readonly height?: number;
  readonly unit: SizeUnit;
  readonly aspectRatio: AspectRatio;
  /** 0 = left/top … 1 = right/bottom. */
  readonly alignX: number;
  readonly alignY: number;
  /** Overrides the input file's own resolution. */
  readonly inputDpi?: number;
  readonly outputDpi?: number;
}

export interface OutputOptions {
  readonly fileFormat: FileFormat;
  readonly drawStyle: DrawStyle;
  readonly groupBy: GroupBy;
  readonly gapFiller: GapFillerOptions;
  readonly strokes: StrokeOptions;
  readonly curves: CurveOptions;
  /** `output.parameterized_shapes.flatten`: write detected primitives as ordinary curves. */
  readonly flattenPrimitives: boolean;
  readonly svg: {
    readonly version: 'svg_1_0' | 'svg_1_1' | 'svg_tiny_1_2';
    readonly fixedSize: boolean;
    readonly adobeCompatibilityMode: boolean;
  };
  readonly pdf: { readonly compress: boolean };
  readonly dxf: { readonly compatibility: DxfCompatibility };
  readonly bitmap: { readonly antiAliased: boolean };
  readonly size: SizeOptions;
}

export const DEFAULT_OUTPUT_OPTIONS: OutputOptions = {
  fileFormat: 'svg',
  drawStyle: 'fill_shapes',
  groupBy: 'none',
  gapFiller: { enabled: true, nonScalingStroke: true, clip: false, strokeWidthPx: 2 },
  strokes: { strokeWidthPx: 1, nonScalingStroke: true },
  curves: { quadraticBezier: true, cubicBezier: true, circularArc: true, ellipticalArc: true, lineFitTolerancePx: 0.1 },
  flattenPrimitives: false,
  svg: { version: 'svg_1_1', fixedSize: false, adobeCompatibilityMode: false },
  pdf: { compress: true },
  dxf: { compatibility: 'lines_and_arcs' },
  bitmap: { antiAliased: true },
  size: { unit: 'none', aspectRatio: 'preserve_inset', alignX: 0.5, alignY: 0.5 },
};

/** Convenience for tests and callers: defaults with some fields replaced. */
export function outputOptions(overrides: Partial<OutputOptions> = {}): OutputOptions {
  return { ...DEFAULT_OUTPUT_OPTIONS, ...overrides };
}
