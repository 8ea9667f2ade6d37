/**
 * Output options every format writer receives, already validated and converted from the API's
 * `output.*` fields by src/api (the only place that knows the API names).
 */

export type FileFormat = 'svg' | 'eps' | 'pdf' | 'dxf' | 'png';
export type DrawStyle = 'fill_shapes' | 'stroke_shapes' | 'stroke_edges';
export type GroupBy = 'none' | 'color' | 'parent' | 'layer';

export interface GapFillerOptions {
  readonly enabled: boolean;
  readonly nonScalingStroke: boolean;
  readonly clip: boolean;
  /** Stroke width in pixels of the traced image's input size. */
  readonly strokeWidth: number;
}

export interface OutputOptions {
  readonly fileFormat: FileFormat;
  readonly drawStyle: DrawStyle;
  readonly groupBy: GroupBy;
  readonly gapFiller: GapFillerOptions;
  readonly svg: {
    readonly version: 'svg_1_0' | 'svg_1_1' | 'svg_tiny_1_2';
    readonly fixedSize: boolean;
    readonly adobeCompatibilityMode: boolean;
  };
}

export const DEFAULT_OUTPUT_OPTIONS: OutputOptions = {
  fileFormat: 'svg',
  drawStyle: 'fill_shapes',
  groupBy: 'none',
  gapFiller: { enabled: true, nonScalingStroke: true, clip: false, strokeWidth: 2 },
  svg: { version: 'svg_1_1', fixedSize: false, adobeCompatibilityMode: false },
};
