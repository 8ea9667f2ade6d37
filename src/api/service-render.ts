/**
 * Rendering a TraceResult into the response file of each mode (reference §6.2, §6.3), and the
 * TraceResult (de)serialisation kept with Image Tokens so `/download` never re-traces.
 */

import type { TraceResult } from '../engine/types.js';
import { encodePng, renderPixels, writePng } from '../formats/png.js';
import { writeSvg } from '../formats/svg.js';
import type { OutputOptions } from '../formats/types.js';
import { corruptTokenError } from './storage/errors.js';
import { FILE_FORMAT_MEDIA } from './media-types.js';
import { watermarkRgba, watermarkSvg, type WatermarkStyle } from './watermark.js';

/** PNG results are 4× the input size (§6.2) … */
export const PNG_SCALE = 4;
/** … unless that exceeds this many pixels; then the scale is lowered to fit (memory bound). */
export const MAX_PNG_PIXELS = 16_777_216;

export interface RenderRequest {
  /** Requested format: only `svg` and `png` reach here (the rest are refused earlier). */
  readonly format: 'svg' | 'png';
  readonly outputOptions: OutputOptions;
  readonly antiAliased: boolean;
  readonly watermark: WatermarkStyle | 'none';
}

export interface Rendered {
  readonly body: Uint8Array;
  readonly contentType: string;
  readonly extension: string;
}

/** The PNG scale for `result`: 4, or less when 4× would exceed MAX_PNG_PIXELS. */
export function pngScale(result: TraceResult): number {
  const area = result.inputWidth * result.inputHeight * PNG_SCALE * PNG_SCALE;
  return area <= MAX_PNG_PIXELS ? PNG_SCALE : PNG_SCALE * Math.sqrt(MAX_PNG_PIXELS / area) * 0.999;
}

export function render(result: TraceResult, req: RenderRequest): Rendered {
  if (req.format === 'svg') {
    let svg = writeSvg(result, req.outputOptions);
    if (req.watermark === 'heavy') svg = watermarkSvg(svg, result.inputWidth, result.inputHeight);
    return { body: new TextEncoder().encode(svg), ...FILE_FORMAT_MEDIA.svg };
  }
  const scale = pngScale(result);
  if (req.watermark === 'none') return { body: writePng(result, { scale, antiAliased: req.antiAliased }), ...FILE_FORMAT_MEDIA.png };
  // Same pixels as writePng, with the watermark drawn into them before encoding.
  const { rgba, width, height } = renderPixels(result, { scale, antiAliased: req.antiAliased });
  watermarkRgba(rgba, width, height, req.watermark);
  return { body: encodePng(rgba, width, height), ...FILE_FORMAT_MEDIA.png };
}

/** TraceResult → bytes stored in `ImageRecord.trace` (JSON; doubles round-trip exactly). */
export function serializeTrace(result: TraceResult): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(result));
}

/** Stored trace bytes → TraceResult; anything unreadable is 500/1028 (corrupt token). */
export function deserializeTrace(token: string, bytes: Uint8Array): TraceResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (e) {
    throw corruptTokenError(token, `stored trace is not valid JSON (${(e as Error).message})`);
  }
  const r = parsed as Partial<TraceResult> | null;
  if (
    r === null ||
    typeof r !== 'object' ||
    typeof r.width !== 'number' ||
    typeof r.height !== 'number' ||
    typeof r.inputWidth !== 'number' ||
    typeof r.inputHeight !== 'number' ||
    !Array.isArray(r.chains) ||
    !Array.isArray(r.shapes)
  ) {
    throw corruptTokenError(token, 'stored trace does not have the shape of a trace result');
  }
  return r as TraceResult;
}
