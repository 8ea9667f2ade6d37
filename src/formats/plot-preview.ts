/**
 * The plot preview of pen strokes (tracelab.strokes=centerline): what a pen plotter will do.
 * In: a TraceResult with strokes. Out: an SVG document: every stroke as a thin line (1 screen
 * pixel, its colour) in pen order, and the pen-up moves between them (the end of one stroke to
 * the start of the next) as faint dashed lines, so the travel the ordering saved can be seen.
 * The playground's outline mode shows it for a result with strokes. Not an output format: the
 * downloaded files are the writers' (svg.ts …).
 */
import type { Chain, ChainUse, StrokeLine, TraceResult } from '../engine/types.js';
import { walkStart } from './plan.js';
import { writeSvg } from './svg.js';
import { DEFAULT_OUTPUT_OPTIONS, type OutputOptions } from './types.js';

/** Colour and opacity of the pen-up moves: a magenta that no ink of a line drawing is. */
const PEN_UP_COLOR = '#d0f';
const PEN_UP_OPACITY = 0.5;

export function plotPreviewSvg(result: TraceResult, options: OutputOptions = DEFAULT_OUTPUT_OPTIONS): string {
  const strokes = result.strokes ?? [];
  // The strokes one input pixel wide, and 1 px on screen (non-scaling): the pen's path, not its ink.
  const onePx = result.width / result.inputWidth;
  const thin = { ...result, strokes: strokes.map((s) => ({ ...s, widthPx: onePx })) };
  const svg = writeSvg(thin, { ...options, fileFormat: 'svg', drawStyle: 'stroke_shapes', strokes: { strokeWidthPx: 1, nonScalingStroke: true } }).replace(
    /<path /g,
    '<path vector-effect="non-scaling-stroke" ',
  );
  const k = result.inputWidth / result.width;
  const moves: string[] = [];
  for (let i = 1; i < strokes.length; i++) {
    const from = strokeEnd(result.chains, strokes[i - 1]!);
    const to = walkStart(result.chains, strokes[i]!.uses);
    if (from.x === to.x && from.y === to.y) continue;
    moves.push(`M${round(from.x * k)} ${round(from.y * k)}L${round(to.x * k)} ${round(to.y * k)}`);
  }
  if (moves.length === 0) return svg;
  const overlay = `<path id="pen-up" fill="none" stroke="${PEN_UP_COLOR}" stroke-opacity="${PEN_UP_OPACITY}" stroke-width="1" stroke-dasharray="3 3" vector-effect="non-scaling-stroke" d="${moves.join('')}"/>\n`;
  return svg.replace(/<\/svg>\n$/, `${overlay}</svg>\n`);
}

/** Where the pen leaves a stroke: its start again when it is closed, else the end of its last chain use. */
function strokeEnd(chains: readonly Chain[], stroke: StrokeLine): { x: number; y: number } {
  if (stroke.closed) return walkStart(chains, stroke.uses);
  const last: ChainUse = stroke.uses[stroke.uses.length - 1]!;
  const c = chains[last.chain]!;
  const n = c.segments.length;
  if (last.reversed || n === 0) return { x: c.startX, y: c.startY };
  return { x: c.segments.x(n - 1), y: c.segments.y(n - 1) };
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}
