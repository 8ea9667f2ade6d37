/**
 * A span of samples as straight lines and circular arcs (FitOptions.spanArcs: tracelab.strokes=auto's
 * wide pen lines).
 * In: samples (x, y pairs), the span first..last, the tolerance (px). Out: line and arc segments
 * from sample `first` to sample `last` appended to a SegmentBuilder, or false when some stretch
 * fits neither (the span is left to the cubic fitter).
 * Why: an icon's pen line is lines and arcs (a link's round ends, a rounded rectangle's corners);
 * the cubic fitter splits a span where a line meets an arc (the curvature jumps there) anywhere
 * near it, and a half circle with a line either side comes out as four cubics where the artist
 * wrote one arc.
 * Algorithm: greedily from the span's start, the longest stretch whose samples lie within the
 * tolerance of the chord (a line) or of the arc of one circle through its two end samples (the
 * radius of the Kåsa fit of its samples, Kåsa 1976; the arc as SVG writes it: end points, radius,
 * sweep), whichever reaches farther (found by doubling and halving its length); each stretch ends
 * on a sample, so the pieces join. An arc bulging less than the tolerance off its chord is written
 * as that chord (its samples then within twice the tolerance of it).
 */
import type { SegmentBuilder } from '../segment-path.js';
import { fitCircle } from './ellipse.js';

/** A stretch spans at least this many samples beyond its first. */
const MIN_STRETCH_SAMPLES = 2;
/** An arc flatter than this radius (px) is a line (a Kåsa fit of near-collinear samples blows up). */
const MAX_RADIUS_PX = 5000;
/**
 * SVG places an arc's centre from its ends and radius: the centre lies h = √(r² − chord²/4) from
 * the chord, so a radius written rounded by δ moves it by δ·r/h, which grows without bound as the
 * arc nears a half circle (a 180° arc's radius rounded 39.94 → 39.9 moved its centre 1.4 px).
 * An arc is kept within r/h ≤ this (arcs under 141° or over 219°; a half circle is two arcs):
 * a radius rounded to 0.05 px moves the centre at most 0.15 px.
 */
const MAX_CENTRE_SHIFT_PER_RADIUS = 3;

export function linesAndArcs(p: Float64Array, first: number, last: number, tolerancePx: number, out: SegmentBuilder): boolean {
  let i = first;
  while (i < last) {
    const line = longestLine(p, i, last, tolerancePx);
    const arc = longestArc(p, i, last, tolerancePx);
    if (arc && arc.end > line) {
      // A near-straight arc is written as its chord (within its sagitta of it, under the tolerance):
      // a huge radius writes the most digits of any piece (a2375.1 2375.1 0 0 1 …).
      if (arc.sagittaPx < tolerancePx) out.line(p[arc.end * 2]!, p[arc.end * 2 + 1]!);
      else out.arc(arc.r, arc.r, 0, arc.largeArc, arc.sweep, p[arc.end * 2]!, p[arc.end * 2 + 1]!);
      i = arc.end;
    } else if (line > i) {
      out.line(p[line * 2]!, p[line * 2 + 1]!);
      i = line;
    } else return false;
  }
  return true;
}

/** The farthest sample j (≤ last) whose samples from i lie within tolerancePx of the chord i–j; at least i + 1. */
function longestLine(p: Float64Array, i: number, last: number, tolerancePx: number): number {
  return farthest(i + 1, last, (j) => withinChord(p, i, j, tolerancePx));
}

/**
 * The largest j in from..last for which `fits` holds, taking it to hold from `from` up to some
 * sample and not beyond (a stretch that fits, shortened, still fits): doubling steps, then
 * halving (a logarithmic number of tests where growing a sample at a time made a quadratic
 * number of samples' work per stretch).
 */
function farthest(from: number, last: number, fits: (j: number) => boolean): number {
  let good = from;
  let step = 1;
  while (good + step <= last && fits(good + step)) {
    good += step;
    step *= 2;
  }
  for (step >>= 1; step >= 1; step >>= 1) if (good + step <= last && fits(good + step)) good += step;
  return good;
}

function withinChord(p: Float64Array, i: number, j: number, tolerancePx: number): boolean {
  const dx = p[j * 2]! - p[i * 2]!;
  const dy = p[j * 2 + 1]! - p[i * 2 + 1]!;
  const length = Math.hypot(dx, dy);
  if (length < 1e-9) return false;
  for (let k = i + 1; k < j; k++) {
    if (Math.abs((p[k * 2]! - p[i * 2]!) * dy - (p[k * 2 + 1]! - p[i * 2 + 1]!) * dx) / length > tolerancePx) return false;
  }
  return true;
}

interface ArcStretch {
  readonly end: number;
  readonly r: number;
  readonly largeArc: boolean;
  readonly sweep: boolean;
  /** How far the arc bulges off its chord (px). */
  readonly sagittaPx: number;
}

/** The longest stretch from sample i drawn by one arc within tolerancePx (undefined: none of at least MIN_STRETCH_SAMPLES). */
function longestArc(p: Float64Array, i: number, last: number, tolerancePx: number): ArcStretch | undefined {
  const from = i + MIN_STRETCH_SAMPLES;
  if (from > last || !arcThrough(p, i, from, tolerancePx)) return undefined;
  return arcThrough(p, i, farthest(from, last, (j) => arcThrough(p, i, j, tolerancePx) !== undefined), tolerancePx);
}

/** The arc from sample i to sample j with the radius of the samples' circle, when every sample lies within tolerancePx of it. */
function arcThrough(p: Float64Array, i: number, j: number, tolerancePx: number): ArcStretch | undefined {
  const circle = fitCircle(p.subarray(i * 2, j * 2 + 2));
  if (!circle || !(circle.r < MAX_RADIUS_PX)) return undefined;
  const ax = p[i * 2]!;
  const ay = p[i * 2 + 1]!;
  const bx = p[j * 2]!;
  const by = p[j * 2 + 1]!;
  const chord = Math.hypot(bx - ax, by - ay);
  if (chord < 1e-9 || chord > 2 * circle.r) return undefined;
  // The centre of the circle of radius r through both ends, on the side the fitted centre is.
  const mx = (ax + bx) / 2;
  const my = (ay + by) / 2;
  const nx = -(by - ay) / chord;
  const ny = (bx - ax) / chord;
  const side = Math.sign((circle.cx - mx) * nx + (circle.cy - my) * ny) || 1;
  const h = Math.sqrt(Math.max(0, circle.r * circle.r - (chord * chord) / 4)) * side;
  if (Math.abs(h) * MAX_CENTRE_SHIFT_PER_RADIUS < circle.r) return undefined;
  const cx = mx + nx * h;
  const cy = my + ny * h;
  // Every sample near the circle, each step turning the same way about its centre (the signs of
  // the steps' cross products), the whole under a full turn (its length over the radius).
  const r = circle.r;
  let sweepSign = 0;
  let lengthPx = 0;
  for (let k = i; k <= j; k++) {
    const ux = p[k * 2]! - cx;
    const uy = p[k * 2 + 1]! - cy;
    if (Math.abs(Math.sqrt(ux * ux + uy * uy) - r) > tolerancePx) return undefined;
    if (k === i) continue;
    const vx = p[k * 2 - 2]! - cx;
    const vy = p[k * 2 - 1]! - cy;
    const cross = vx * uy - vy * ux;
    if (cross !== 0) {
      if (sweepSign !== 0 && Math.sign(cross) !== sweepSign) return undefined;
      sweepSign = Math.sign(cross);
    }
    lengthPx += Math.hypot(ux - vx, uy - vy);
  }
  if (sweepSign === 0 || lengthPx >= 2 * Math.PI * r * 0.95) return undefined;
  // The arc is the larger one when the centre lies on its side of the chord (h and the sweep agree).
  const largeArc = h * sweepSign < 0;
  // y down: a positive cross product turns clockwise on screen, SVG's sweep 1.
  return { end: j, r, largeArc, sweep: sweepSign > 0, sagittaPx: r + (largeArc ? 1 : -1) * Math.abs(h) };
}
