/**
 * tracelab.strokes=centerline: a traced picture as pen strokes, no fills (for plotters, lasers,
 * cutters). Runs after the shapes stage, on its regions. (tracelab.strokes=auto: auto.ts finds the
 * lines before the boundary stage; strokesOverShapes here adds them to the traced shapes.)
 * In: the trace result (chains, shapes), the traced pixels with their regions and colours, the
 * widest line (traced px) and how many traced px make 0.05 mm.
 * Out: a TraceResult without shapes whose `strokes` are the pen paths in pen order (plot.ts):
 * each region of ink (every colour but the background's: the colour that holds most of the
 * picture's border, or the one just inside it where that is a thin frame) up to maxWidthPx wide
 * becomes its centre-lines (centerline.ts), fitted with the engine's curve fitter (fit.ts); wider
 * ink becomes its outline loops, as traced, stroked.
 * Its chains are the centre-lines' and the outlines' chains only, renumbered.
 */
import { fitWithArcs } from '../fit/arcs.js';
import { FitScratch } from '../fit/fit.js';
import { SegmentBuilder, type SegmentPath } from '../segment-path.js';
import type { Chain, ChainUse, Loop, Rgba, StrokeLine, StrokeStats, TraceResult } from '../types.js';
import { regionCenterlines, type CenterPath, type LineCap, type PixelBox } from './centerline.js';
import type { InkPicture } from './coverage.js';
import { inkGroups } from './ink-groups.js';
import { drawnAsInk, InkCheckScratch, PEN_LINE_CHECK, type InkCheckRule } from './drawn-as-ink.js';
import { CENTERLINE_FIT, CENTERLINE_OUTPUT_FIT } from './line-fit.js';
import type { StrokeFit } from './stroke-check.js';
import { joinPaths, orderPaths, penLengths, polylinePath, type PenPath } from './plot.js';

/** Width (traced px) of the stroke along the outline of ink wider than a line: a fine pen. */
export const OUTLINE_WIDTH_PX = 1;

export interface CenterlineInput {
  readonly picture: InkPicture;
  /** Regions: label per region and pixel area. */
  readonly labelOf: Int32Array;
  readonly regionCount: number;
  /** Output colour per label. */
  readonly fills: readonly Rgba[];
  readonly maxWidthPx: number;
  /**
   * Ink up to this width (traced px) is a line as it is; wider ink, up to maxWidthPx, only where
   * its centre-lines drawn as strokes reproduce it (drawn-as-ink.ts). Infinity: no check.
   */
  readonly checkedAbovePx: number;
  /** Ends closer than this (traced px) are joined: 0.05 mm. */
  readonly joinPx: number;
}

interface Pending {
  readonly cap: LineCap;
  readonly color: Rgba;
  /** Outline strokes: the shape's loop. */
  readonly loop?: Loop;
}

/** A centre-line in its region's colour (tracelab.strokes=auto). */
export interface ColoredLine {
  readonly path: CenterPath;
  readonly color: Rgba;
}

/**
 * tracelab.strokes=auto: the lines as strokes drawn over the result's shapes (its chains kept,
 * the lines' chains after them), one width per pen as in centerline mode.
 */
export function strokesOverShapes(result: TraceResult, lines: readonly ColoredLine[], joinPx: number): TraceResult {
  const pending: Pending[] = [];
  const pens: PenPath[] = [];
  for (const { path, color } of lines) {
    pens.push(polylinePath(path.points, path.closed, colorNumber(color), path.widthPx, pending.length));
    pending.push({ cap: path.cap, color });
  }
  evenWidths(pens);
  const inputOrder = penLengths(pens);
  return withStrokes(result, orderPaths(joinPaths(pens, joinPx)), pending, inputOrder.penUpPx, true);
}

export function centerlineResult(result: TraceResult, input: CenterlineInput): TraceResult {
  const { fills } = input;
  const background = paperInsideFrame(input.picture, input.labelOf, backgroundLabel(input.picture, input.labelOf));
  // Shades of one ink (an anti-aliased hairline quantised into two greys) are read as one.
  const groups = inkGroups(input.picture, input.labelOf, input.regionCount, paperColor(input.picture, input.labelOf, input.regionCount, background));
  const { picture, labelOf } = groups;
  const boxes = regionBoxes(picture, groups.count);
  const pending: Pending[] = [];
  const pens: PenPath[] = [];
  const shapeOfRegion = new Map<number, number>();
  result.shapes.forEach((s, i) => shapeOfRegion.set(s.region, i));
  const scratch = new InkCheckScratch();
  for (let g = 0; g < groups.count; g++) {
    const label = labelOf[g]!;
    const box = boxes[g];
    if (label === background || !box || !fills[label] || fills[label]!.a === 0) continue;
    const color = fills[label]!;
    const key = colorNumber(color);
    const lines = groupCenterlines(picture, g, box, input, scratch);
    if (lines) {
      for (const path of lines) {
        pens.push(polylinePath(path.points, path.closed, key, path.widthPx, pending.length));
        pending.push({ cap: path.cap, color });
      }
      continue;
    }
    for (const r of groups.members[g]!) {
      const shape = shapeOfRegion.get(r);
      if (shape === undefined) continue;
      const s = result.shapes[shape]!;
      const own = fills[input.labelOf[r]!];
      if (!own || own.a === 0) continue;
      for (const loop of [s.outer, ...s.holes]) {
        pens.push(loopPen(result.chains, loop, colorNumber(own), pending.length));
        pending.push({ cap: 'round', color: own, loop });
      }
    }
  }
  evenWidths(pens);
  const inputOrder = penLengths(pens);
  const ordered = orderPaths(joinPaths(pens, input.joinPx));
  return withStrokes(result, ordered, pending, inputOrder.penUpPx, false);
}

/**
 * The centre-lines of one group of ink, or undefined when it is wider than a line: up to
 * checkedAbovePx as read, wider (up to maxWidthPx) only where they pass the render check.
 */
function groupCenterlines(picture: InkPicture, group: number, box: PixelBox, input: CenterlineInput, scratch: InkCheckScratch): readonly CenterPath[] | undefined {
  const pen = regionCenterlines(picture, group, box, Math.min(input.maxWidthPx, input.checkedAbovePx), { linesBeside: true });
  if (pen.kind === 'lines') return pen.paths;
  if (input.maxWidthPx <= input.checkedAbovePx) return undefined;
  const wide = regionCenterlines(picture, group, box, input.maxWidthPx, { linesBeside: true });
  return wide.kind === 'lines' && wide.paths.length > 0 ? drawnAsInk(picture, group, box, wide.paths, scratch, WIDE_CENTERLINE_CHECK, wide.coverage) : undefined;
}

/**
 * A wide line in centerline mode is kept when its strokes miss at most this share of its ink
 * overall: its alternative is an outline that leaves all of the ink's inside empty, so a local
 * miss (a corner, a junction) is no reason to refuse it. Measured: stroke-drawn icons' 16-px lines
 * 0.02–0.06, outlined clip art 0.06–0.10; a scanned wing's hatched feathers read as one 13-px
 * line 0.65, a cloud's filled shadow 0.40.
 */
const CENTERLINE_MAX_MISMATCH = 0.15;

/** centerline's wide lines: most of the ink held, fitted as centerline writes every line. */
const WIDE_CENTERLINE_CHECK: InkCheckRule = {
  reproduces: (fit: StrokeFit) => fit.mismatch <= CENTERLINE_MAX_MISMATCH,
  lineFit: () => CENTERLINE_FIT,
};

/**
 * The chains the strokes use (renumbered; after the shapes' chains when `overShapes` — auto's
 * lines, fitted as their render check fitted them —, else in
 * their place), the strokes in pen order and their stats.
 */
function withStrokes(result: TraceResult, ordered: readonly PenPath[], pending: readonly Pending[], penUpInputOrderPx: number, overShapes: boolean): TraceResult {
  // The fitter's scratch for this picture's strokes (a context, not module state).
  const fitScratch = new FitScratch();
  const chains: Chain[] = overShapes ? [...result.chains] : [];
  const renumbered = new Map<number, number>();
  const strokes: StrokeLine[] = [];
  for (const pen of ordered) {
    const what = pending[pen.tag]!;
    let uses: ChainUse[];
    if (pen.points) {
      // auto's strokes as its render check fitted them; centerline's with its bends as arcs.
      const fit = overShapes ? PEN_LINE_CHECK.lineFit(pen.widthPx) : CENTERLINE_OUTPUT_FIT;
      const fitted = fitWithArcs(fitScratch, pen.points, pen.closed, fit);
      uses = [{ chain: chains.length, reversed: false }];
      // A dot (all its points one point) is a zero-length line: drawn as its round cap.
      const segments = fitted.segments.length > 0 ? fitted.segments : dotSegment(fitted.startX, fitted.startY);
      chains.push({ startX: fitted.startX, startY: fitted.startY, segments, leftRegion: -1, rightRegion: -1, closed: pen.closed });
    } else {
      uses = what.loop!.map((use) => {
        let c = renumbered.get(use.chain);
        if (c === undefined) {
          c = chains.length;
          renumbered.set(use.chain, c);
          chains.push(result.chains[use.chain]!);
        }
        return { chain: c, reversed: use.reversed };
      });
    }
    const widthPx = Math.round(pen.widthPx * 100) / 100;
    strokes.push({
      uses,
      closed: pen.closed,
      color: what.color,
      widthPx,
      cap: what.cap,
      join: what.cap === 'butt' ? 'miter' : 'round',
      outline: pen.points === undefined,
    });
  }
  const { penDownPx, penUpPx } = penLengths(ordered);
  const widths = strokes.map((s) => s.widthPx).sort((a, b) => a - b);
  const stats: StrokeStats = {
    count: strokes.length,
    outlines: strokes.filter((s) => s.outline).length,
    widthMinPx: widths[0] ?? 0,
    widthMedianPx: widths.length > 0 ? widths[widths.length >> 1]! : 0,
    widthMaxPx: widths[widths.length - 1] ?? 0,
    penDownPx: round2(penDownPx),
    penUpPx: round2(penUpPx),
    penUpInputOrderPx: round2(penUpInputOrderPx),
  };
  return { ...result, chains, shapes: overShapes ? result.shapes : [], strokes, stats: { ...result.stats, chains: chains.length, strokes: stats } };
}

/** Widths of one colour within this ratio of a run's thinnest are written as one (evenWidths). */
export const PEN_WIDTH_RUN_RATIO = 1.1;

/**
 * Lines of one colour drawn with one pen measure 3.95, 3.98, 4.02 px where the artist drew 4: the
 * colour's centre-lines, sorted by width, are cut into runs whose widths stay within 10 % of the
 * run's narrowest, and every line of a run gets the run's length-weighted median width (fewer
 * distinct widths: fewer styles in the file, one pen per width on a plotter).
 */
function evenWidths(pens: PenPath[]): void {
  const byColor = new Map<number, number[]>();
  pens.forEach((p, i) => {
    if (!p.points) return;
    const list = byColor.get(p.colorKey);
    if (list) list.push(i);
    else byColor.set(p.colorKey, [i]);
  });
  for (const members of byColor.values()) {
    const sorted = [...members].sort((a, b) => pens[a]!.widthPx - pens[b]!.widthPx || a - b);
    let from = 0;
    while (from < sorted.length) {
      let to = from + 1;
      while (to < sorted.length && pens[sorted[to]!]!.widthPx <= pens[sorted[from]!]!.widthPx * PEN_WIDTH_RUN_RATIO) to++;
      const run = sorted.slice(from, to);
      const widthPx = weightedMedianWidth(pens, run);
      for (const i of run) pens[i] = { ...pens[i]!, widthPx };
      from = to;
    }
  }
}

/** The width at half the total length of `run` (sorted by width). */
function weightedMedianWidth(pens: readonly PenPath[], run: readonly number[]): number {
  const total = run.reduce((sum, i) => sum + pens[i]!.lengthPx, 0);
  let length = 0;
  for (const i of run) {
    length += pens[i]!.lengthPx;
    if (length >= total / 2) return pens[i]!.widthPx;
  }
  return pens[run[run.length - 1]!]!.widthPx;
}

function dotSegment(x: number, y: number): SegmentPath {
  const builder = new SegmentBuilder();
  builder.line(x, y);
  return builder.take(0);
}

function round2(v: number): number {
  return Math.round(v * 100) / 100;
}

/** An outline loop as a pen path: drawn from its first chain's start, as long as its chains' sample chords. */
function loopPen(chains: readonly Chain[], loop: Loop, colorKey: number, tag: number): PenPath {
  const first = chains[loop[0]!.chain]!;
  const n = first.segments.length;
  const startX = loop[0]!.reversed && n > 0 ? first.segments.x(n - 1) : first.startX;
  const startY = loop[0]!.reversed && n > 0 ? first.segments.y(n - 1) : first.startY;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  let length = 0;
  for (const use of loop) {
    const c = chains[use.chain]!;
    let px = c.startX;
    let py = c.startY;
    for (let k = 0; k < c.segments.length; k++) {
      const x = c.segments.x(k);
      const y = c.segments.y(k);
      length += Math.hypot(x - px, y - py);
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x);
      y1 = Math.max(y1, y);
      px = x;
      py = y;
    }
  }
  return { colorKey, widthPx: OUTLINE_WIDTH_PX, closed: true, startX, startY, endX: startX, endY: startY, lengthPx: length, box: [x0, y0, x1, y1], tag };
}

/** The observed colour of the paper (its first region's), or undefined for transparent paper. */
export function paperColor(picture: InkPicture, labelOf: Int32Array, regionCount: number, background: number): [number, number, number] | undefined {
  if (background < 0) return undefined;
  for (let r = 0; r < regionCount; r++) {
    if (labelOf[r] === background) return [picture.regionColor[r * 3]!, picture.regionColor[r * 3 + 1]!, picture.regionColor[r * 3 + 2]!];
  }
  return undefined;
}

/**
 * A frame is no paper: where the regions of `border` (backgroundLabel's) that touch the picture's
 * border are a thin line along it (their area at most FRAME_AREA_BORDERS times the border's
 * pixels: a flag drawn with a 1-px outline round the picture), the paper is the label that holds
 * most of the ring of pixels just inside them (up to FRAME_DEPTH_PX in). Read as paper, a frame
 * made the real paper ink: its white areas came back as outlines along their neighbours' (the
 * validation flag: 6 % of its strokes' ink drawn twice), and the frame itself was lost.
 */
function paperInsideFrame(picture: Pick<InkPicture, 'width' | 'height' | 'regionOf'>, labelOf: Int32Array, border: number): number {
  const { width, height, regionOf } = picture;
  if (border < 0) return border;
  const frame = new Set<number>();
  let borderPixels = 0;
  forRing(width, height, 0, (i) => {
    borderPixels++;
    if (regionOf[i]! >= 0 && labelOf[regionOf[i]!] === border) frame.add(regionOf[i]!);
  });
  let frameArea = 0;
  for (let i = 0; i < regionOf.length && frameArea <= FRAME_AREA_BORDERS * borderPixels; i++) if (frame.has(regionOf[i]!)) frameArea++;
  if (frameArea > FRAME_AREA_BORDERS * borderPixels) return border;
  for (let depth = 1; depth <= FRAME_DEPTH_PX; depth++) {
    const count = new Map<number, number>();
    forRing(width, height, depth, (i) => {
      if (regionOf[i]! < 0 || frame.has(regionOf[i]!)) return;
      const label = labelOf[regionOf[i]!]!;
      count.set(label, (count.get(label) ?? 0) + 1);
    });
    const best = [...count].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0];
    if (best) return best[0];
  }
  return border;
}

/** Calls `visit` with the index of each pixel `depth` pixels in from the picture's border (once each). */
function forRing(width: number, height: number, depth: number, visit: (i: number) => void): void {
  const [x0, y0, x1, y1] = [depth, depth, width - 1 - depth, height - 1 - depth];
  if (x0 > x1 || y0 > y1) return;
  for (let x = x0; x <= x1; x++) {
    visit(y0 * width + x);
    if (y1 > y0) visit(y1 * width + x);
  }
  for (let y = y0 + 1; y < y1; y++) {
    visit(y * width + x0);
    if (x1 > x0) visit(y * width + x1);
  }
}

/** A frame's area is at most this many times the picture's border pixels (a line 3 px wide). */
const FRAME_AREA_BORDERS = 3;
/** A frame is at most this wide (px): the paper is looked for this far in. */
const FRAME_DEPTH_PX = 4;

/** The label that holds most of the picture's border pixels (the paper); −1 when the border is transparent. */
export function backgroundLabel(picture: Pick<InkPicture, 'width' | 'height' | 'regionOf'>, labelOf: Int32Array): number {
  const { width, height, regionOf } = picture;
  const count = new Map<number, number>();
  const add = (i: number): void => {
    const r = regionOf[i]!;
    const label = r < 0 ? -1 : labelOf[r]!;
    count.set(label, (count.get(label) ?? 0) + 1);
  };
  for (let x = 0; x < width; x++) {
    add(x);
    add((height - 1) * width + x);
  }
  for (let y = 1; y < height - 1; y++) {
    add(y * width);
    add(y * width + width - 1);
  }
  let best = -1;
  let bestCount = -1;
  for (const [label, n] of [...count].sort((a, b) => a[0] - b[0])) {
    if (n > bestCount) [best, bestCount] = [label, n];
  }
  return best;
}

/** Each region's pixel box (undefined for a region without pixels). */
export function regionBoxes(picture: InkPicture, regionCount: number): (PixelBox | undefined)[] {
  const { width, height, regionOf } = picture;
  const x0 = new Int32Array(regionCount).fill(width);
  const y0 = new Int32Array(regionCount).fill(height);
  const x1 = new Int32Array(regionCount).fill(-1);
  const y1 = new Int32Array(regionCount).fill(-1);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const r = regionOf[y * width + x]!;
      if (r < 0) continue;
      if (x < x0[r]!) x0[r] = x;
      if (x > x1[r]!) x1[r] = x;
      if (y < y0[r]!) y0[r] = y;
      if (y > y1[r]!) y1[r] = y;
    }
  }
  const boxes: (PixelBox | undefined)[] = [];
  for (let r = 0; r < regionCount; r++) boxes.push(x1[r]! < 0 ? undefined : { x0: x0[r]!, y0: y0[r]!, x1: x1[r]! + 1, y1: y1[r]! + 1 });
  return boxes;
}

function colorNumber(c: Rgba): number {
  return c.r * 16777216 + (c.g << 16) + (c.b << 8) + c.a;
}
