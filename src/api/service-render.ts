/**
 * Rendering a TraceResult into the response file of each mode (reference §6.2, §6.3), and the
 * TraceResult (de)serialisation kept with Image Tokens so `/download` never re-traces.
 */

import { SegmentPath } from '../engine/segment-path.js';
import type { Chain, Segment, TraceResult } from '../engine/types.js';
import { writeFile, writePlanFile } from './write-file.js';
import { summarize, type TraceSummary } from './pipeline.js';
import { buildPlan } from '../formats/plan.js';
import { writeSvg } from '../formats/svg.js';
import { DEFAULT_OUTPUT_OPTIONS, type OutputOptions } from '../formats/types.js';
import { corruptTokenError } from './storage/errors.js';
import { FILE_FORMAT_MEDIA } from './media-types.js';
import type { WatermarkStyle } from './watermark.js';

export interface RenderRequest {
  /** Output options, including the format. */
  readonly outputOptions: OutputOptions;
  /** Preview modes answer a 4× PNG whatever the format and size options say (reference §3.1). */
  readonly preview: boolean;
  readonly watermark: WatermarkStyle | 'none';
  /** Also return the stats of the written file (library calls; only without a watermark). */
  readonly summary?: boolean;
}

export interface Rendered {
  readonly body: Uint8Array;
  readonly contentType: string;
  readonly extension: string;
  /** Stats of the trace as written (when the request asked for `summary`). */
  readonly summary?: TraceSummary;
}

export async function render(result: TraceResult, req: RenderRequest): Promise<Rendered> {
  const options: OutputOptions = req.preview
    ? { ...req.outputOptions, fileFormat: 'png', size: DEFAULT_OUTPUT_OPTIONS.size }
    : req.outputOptions;
  const format = options.fileFormat;
  const media = FILE_FORMAT_MEDIA[format];
  if (req.watermark === 'none') {
    // The plan is built once: the writer draws it and the summary counts its filled shapes.
    const plan = buildPlan(result, options);
    const body = await writePlanFile(plan);
    return req.summary ? { body, ...media, summary: summarize(result, plan) } : { body, ...media };
  }
  // Watermarks (test and preview modes of the service) and the PNG rasteriser load on first use:
  // the library's worker, which never watermarks, stays without them.
  const { watermarkRgba, watermarkSvg, watermarkTrace } = await import('./watermark.js');
  switch (format) {
    case 'svg': {
      const svg = watermarkSvg(writeSvg(result, options), result.inputWidth, result.inputHeight);
      return { body: new TextEncoder().encode(svg), ...media };
    }
    case 'png': {
      // The pixels of the PNG writer, with the watermark drawn into them before encoding.
      const { encodePng, renderPlan } = await import('../formats/png.js');
      const { rgba, width, height } = renderPlan(buildPlan(result, options));
      watermarkRgba(rgba, width, height, req.watermark);
      return { body: encodePng(rgba, width, height, result.colorProfile), ...media };
    }
    default:
      // PDF, EPS and DXF carry the watermark as shapes.
      return { body: await writeFile(watermarkTrace(result, req.watermark), options), ...media };
  }
}

/** TraceResult → bytes stored in `ImageRecord.trace` (JSON; doubles round-trip exactly; the colour profile as a byte list). */
export function serializeTrace(result: TraceResult): Uint8Array {
  const stored = result.colorProfile ? { ...result, colorProfile: Array.from(result.colorProfile) } : result;
  return new TextEncoder().encode(JSON.stringify(stored));
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
  // Chains are stored with their segments as objects (SegmentPath.toJSON); back to typed paths.
  const chains = r.chains.map((c: unknown): Chain => {
    const chain = c as Partial<Omit<Chain, 'segments'>> & { segments?: unknown };
    if (chain === null || typeof chain !== 'object' || !Array.isArray(chain.segments)) {
      throw corruptTokenError(token, 'stored trace has a chain without segments');
    }
    return { ...(chain as Chain), segments: SegmentPath.of(chain.segments as Segment[]) };
  });
  const profile = (r as { colorProfile?: unknown }).colorProfile;
  if (profile !== undefined && !(Array.isArray(profile) && profile.every((v) => Number.isInteger(v) && v >= 0 && v < 256))) {
    throw corruptTokenError(token, 'stored trace has a colour profile that is not a byte list');
  }
  return { ...(r as TraceResult), chains, ...(profile ? { colorProfile: Uint8Array.from(profile as number[]) } : {}) };
}
