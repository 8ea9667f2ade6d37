/**
 * The curves a centre-line is written as: the fit options per mode and line width, and the fitted
 * curve sampled back as a polyline (what the render check draws).
 * In: a centre-line (centerline.ts). Out: fit options (fit.ts), sampled points (fitted-points.ts).
 */
import { fitChain, type FitOptions, type FitScratch } from '../fit/fit.js';
import type { CenterPath } from './centerline.js';
import { fittedPoints } from './fitted-points.js';

/** The centre-line fit: the flat-art tolerance of the outlines' fit, a little looser for a line's wobble. */
export const CENTERLINE_FIT: FitOptions = { tolerancePx: 0.4, cornerAngleDeg: 50, detectCircles: true, detectEllipses: true };
/**
 * The fit of tracelab.strokes=auto's wide lines (from WIDE_LINE_PX), drawn over fills where the
 * input's edges were: a centre-line off by 0.4 px moves both of the stroke's edges by 0.4 px (a
 * 16-px icon stroke's rounded corner bulged ~1 px out of the ink, SSIM −0.01); at 0.2 px it stays
 * within the edges' anti-aliasing. Thinner lines keep the centre-line fit (a 3-px 1-bit ring's
 * smoothed staircase, fitted closer, no longer held its ink). Its spans may be lines and circular
 * arcs (fit/arcs.ts) where those write fewer numbers: an icon's round ends and rounded corners as
 * the artist drew them (a link icon 1.81× → 1.46× the artist's gzip, SSIM +0.001; on thin lines
 * arcs grew three tango icons' files, so they keep curves).
 */
const WIDE_LINE_FIT: FitOptions = { ...CENTERLINE_FIT, tolerancePx: 0.2, spanArcs: true };
const WIDE_LINE_PX = 6;
/**
 * A hairline (under HAIRLINE_PX) moved by the centre-line fit's 0.4 px misses a third of its ink
 * on each side; fitted within 0.25 px it stays within its own anti-aliasing.
 */
const HAIRLINE_FIT: FitOptions = { ...CENTERLINE_FIT, tolerancePx: 0.25 };
const HAIRLINE_PX = 1.5;

/** The fit of a tracelab.strokes=auto line of this width. */
export function autoStrokeFit(widthPx: number): FitOptions {
  if (widthPx >= WIDE_LINE_PX) return WIDE_LINE_FIT;
  return widthPx >= HAIRLINE_PX ? CENTERLINE_FIT : HAIRLINE_FIT;
}

/** The centre-line as the curves written for it with `options`, sampled (a dot stays a dot). */
export function fittedLine(scratch: FitScratch, path: CenterPath, options: FitOptions): Float64Array {
  const f = fitChain(scratch, path.points, path.closed, options);
  return f.segments.length > 0 ? fittedPoints(f.startX, f.startY, f.segments) : path.points;
}
