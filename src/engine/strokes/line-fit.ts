/**
 * The curves a centre-line is written as: the fit options per mode and line width, and the fitted
 * curve sampled back as a polyline (what the render check draws).
 * In: a centre-line (centerline.ts). Out: fit options (fit.ts), sampled points (fitted-points.ts).
 */
import { fitWithArcs } from '../fit/arcs.js';
import type { ArcRule } from '../fit/fit.js';
import type { FitOptions, FitScratch } from '../fit/fit.js';
import type { CenterPath } from './centerline.js';
import { fittedPoints } from './fitted-points.js';

/** The centre-line fit: the flat-art tolerance of the outlines' fit, a little looser for a line's wobble. */
export const CENTERLINE_FIT: FitOptions = { tolerancePx: 0.4, cornerAngleDeg: 50, detectCircles: true, detectEllipses: true };
/**
 * An arc's widest piece (fit/fit.ts ArcRule): near a half circle an SVG arc's centre moves across
 * its chord by tan(sweep / 2) / 2 times any change of the chord.
 */
const MAX_PIECE_SWEEP_RAD = (2 * Math.PI) / 3;
/**
 * tracelab.strokes=centerline's lines as written: bends that are circular arcs as arcs (a file for
 * machines, and fewer bytes), within half the fit's tolerance: a circle is rigid where a cubic
 * bends with the samples, and an arc at the full tolerance (0.4 px) moved whole glyph bowls that
 * far (22-px sans text: SSIM 0.9480 → 0.9460); at half, 0.9488, and the icons' bends are still
 * arcs (a heroicons link: 0.9917 → 0.9977).
 */
const CENTERLINE_ARCS: ArcRule = { tolerancePx: CENTERLINE_FIT.tolerancePx / 2, maxPieceSweepRad: MAX_PIECE_SWEEP_RAD };
export const CENTERLINE_OUTPUT_FIT: FitOptions = { ...CENTERLINE_FIT, arcs: CENTERLINE_ARCS };
/**
 * The fit of tracelab.strokes=auto's wide lines (from WIDE_LINE_PX), drawn over fills where the
 * input's edges were: a centre-line off by 0.4 px moves both of the stroke's edges by 0.4 px (a
 * 16-px icon stroke's rounded corner bulged ~1 px out of the ink, SSIM −0.01); at 0.2 px it stays
 * within the edges' anti-aliasing. Thinner lines keep the centre-line fit (a 3-px 1-bit ring's
 * smoothed staircase, fitted closer, no longer held its ink). Its bends may be circular arcs
 * (fit/arcs.ts, within the fit's own tolerance) where those write fewer numbers: an icon's round
 * ends and rounded corners as the artist drew them (a link icon 1.81× → 1.25× the artist's gzip,
 * SSIM +0.004; on thin lines arcs grew three tango icons' files, so they keep curves).
 */
const WIDE_LINE_TOLERANCE_PX = 0.2;
const WIDE_LINE_FIT: FitOptions = { ...CENTERLINE_FIT, tolerancePx: WIDE_LINE_TOLERANCE_PX, arcs: { tolerancePx: WIDE_LINE_TOLERANCE_PX, maxPieceSweepRad: MAX_PIECE_SWEEP_RAD } };
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
  const f = fitWithArcs(scratch, path.points, path.closed, options);
  return f.segments.length > 0 ? fittedPoints(f.startX, f.startY, f.segments) : path.points;
}
