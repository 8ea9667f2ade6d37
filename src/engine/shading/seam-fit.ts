/**
 * Seams between gradient pieces: each piece of a smooth field (a photo's shade pieces and split
 * parts, shading.ts) refitted so that its ramp also matches the picture along its seams with the
 * field's other pieces — both sides of a seam then meet the same colour, without a step.
 * In: the pieces (each a fitted ramp, its samples and the pixels a sample stands for), each
 * region's piece and soft group, the pixels. Out: new stops per piece (the geometry unchanged,
 * the inner stops' t too).
 *
 * Method: the end stops moved out to the piece's seams (past its last stop a ramp is padded, flat),
 * then the piece's least-squares stop fit (ramp-fit.ts, hat functions of t) with more rows:
 * each sample pulls the ramp towards its colour; each crack between the piece and another piece
 * of its soft group pulls the ramp at the crack towards the mean colour of the two pixels either
 * side (SEAM_WEIGHT pixels' worth). A piece's own samples are interior pixels only, so without
 * these rows its ramp's ends — where it meets the next piece — are extrapolated.
 */
import { rampColorAt, solveStopColours, type FittedRamp } from './ramp-fit.js';
import { geometryT, STOP_STRIDE, stopCount, type RampSamples } from './ramp-samples.js';

/** A crack on a seam weighs as much as this many pixels of the piece (squared sRGB distance). */
const SEAM_WEIGHT = 2;

/** A stop no row weighs on keeps its own fit's colour (a pull of this many pixels' worth). */
const ANCHOR_WEIGHT = 1e-3;

/** One gradient piece: its ramp, its sample sets and how many pixels a sample of each stands for. */
export interface SeamPiece {
  readonly ramp: FittedRamp;
  readonly samples: readonly RampSamples[];
  readonly pixelsPerSample: readonly number[];
}

export interface SeamInput {
  /** RGBA pixels. */
  readonly data: Uint8Array | Uint8ClampedArray;
  readonly width: number;
  readonly height: number;
  readonly regionOf: Int32Array;
  /** Per region: its piece, or −1. */
  readonly pieceOf: Int32Array;
  /** Per region: its soft group (smooth-areas.ts), or −1; only seams within one group count. */
  readonly groupOf: Int32Array;
}

/** The normal equations of one piece's stop fit (ramp-fit.ts's tridiagonal system). */
class PieceSystem {
  readonly diag: Float64Array;
  readonly off: Float64Array;
  readonly rhs: Float64Array;
  /** Stops with the ramp's t and channel 0 = the stop's index: rampColorAt gives the fractional index at t. */
  readonly probe: Float64Array;
  readonly colour = new Float64Array(3);

  constructor(stops: Float64Array) {
    const k = stopCount(stops);
    this.diag = new Float64Array(k);
    this.off = new Float64Array(k);
    this.rhs = new Float64Array(k * 3);
    this.probe = new Float64Array(stops.length);
    for (let i = 0; i < k; i++) {
      this.probe[i * STOP_STRIDE] = stops[i * STOP_STRIDE]!;
      this.probe[i * STOP_STRIDE + 1] = i;
    }
  }

  /** One row: the ramp at t pulled towards colour (r, g, b) with weight w (the ramp's own hat functions). */
  add(t: number, w: number, r: number, g: number, b: number): void {
    const k = this.diag.length;
    rampColorAt(this.probe, t, this.colour);
    const s = this.colour[0]!;
    const u = Math.max(0, Math.min(k - 2, Math.floor(s)));
    const f = k < 2 ? 0 : Math.max(0, Math.min(1, s - u));
    const a = 1 - f;
    this.diag[u]! += w * a * a;
    this.rhs[u * 3]! += w * a * r;
    this.rhs[u * 3 + 1]! += w * a * g;
    this.rhs[u * 3 + 2]! += w * a * b;
    if (f === 0) return;
    this.diag[u + 1]! += w * f * f;
    this.off[u]! += w * a * f;
    this.rhs[(u + 1) * 3]! += w * f * r;
    this.rhs[(u + 1) * 3 + 1]! += w * f * g;
    this.rhs[(u + 1) * 3 + 2]! += w * f * b;
  }
}

/** Each piece's samples as rows, and each stop's faint pull towards its own fit. */
function addSamples(systems: readonly PieceSystem[], pieces: readonly SeamPiece[]): void {
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    const system = systems[i]!;
    const g = piece.ramp.geometry;
    for (let set = 0; set < piece.samples.length; set++) {
      const s = piece.samples[set]!;
      const w = piece.pixelsPerSample[set]!;
      for (let n = 0; n < s.count; n++) system.add(geometryT(g, s.x[n]!, s.y[n]!), w, s.rgb[n * 3]!, s.rgb[n * 3 + 1]!, s.rgb[n * 3 + 2]!);
    }
    const stops = piece.ramp.stops;
    for (let k = 0; k < stopCount(stops); k++) {
      system.diag[k]! += ANCHOR_WEIGHT;
      for (let c = 0; c < 3; c++) system.rhs[k * 3 + c]! += ANCHOR_WEIGHT * stops[k * STOP_STRIDE + 1 + c]!;
    }
  }
}

/** The seams' rows: per crack side, its piece, its t on that piece's ramp and the two pixels' mean colour. */
interface SeamRows {
  readonly piece: number[];
  readonly t: number[];
  readonly rgb: number[];
}

/** Every crack between pixels of two pieces of one soft group (right and lower neighbours): a row for each side. */
function seamRows(pieces: readonly SeamPiece[], input: SeamInput): SeamRows {
  const { data, width, height, regionOf, pieceOf, groupOf } = input;
  const rows: SeamRows = { piece: [], t: [], rgb: [] };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = y * width + x;
      const r = regionOf[p]!;
      if (r < 0 || pieceOf[r]! < 0 || groupOf[r]! < 0) continue;
      for (let side = 0; side < 2; side++) {
        if (side === 0 ? x + 1 >= width : y + 1 >= height) continue;
        const q = side === 0 ? p + 1 : p + width;
        const o = regionOf[q]!;
        if (o < 0 || pieceOf[o]! < 0 || pieceOf[o] === pieceOf[r] || groupOf[o] !== groupOf[r]) continue;
        // The crack's midpoint, and the mean colour of its two pixels.
        const cx = side === 0 ? x + 1 : x + 0.5;
        const cy = side === 0 ? y + 0.5 : y + 1;
        for (const i of [pieceOf[r]!, pieceOf[o]!]) {
          rows.piece.push(i);
          rows.t.push(geometryT(pieces[i]!.ramp.geometry, cx, cy));
          for (let c = 0; c < 3; c++) rows.rgb.push((data[p * 4 + c]! + data[q * 4 + c]!) / 2);
        }
      }
    }
  }
  return rows;
}

/**
 * Each piece's stops with the first and last moved out to its seams' t where these lie beyond
 * them: a ramp's end stops sit at its outermost interior pixels, and past them it is padded —
 * flat up to the seam, where the next piece goes on. Colours unchanged.
 */
function reachingSeams(pieces: readonly SeamPiece[], rows: SeamRows): Float64Array[] {
  const out = pieces.map((p) => Float64Array.from(p.ramp.stops));
  for (let k = 0; k < rows.piece.length; k++) {
    const stops = out[rows.piece[k]!]!;
    const last = stops.length - STOP_STRIDE;
    const t = rows.t[k]!;
    if (t < stops[0]!) stops[0] = t;
    if (t > stops[last]!) stops[last] = t;
  }
  return out;
}

/**
 * New stops for each piece, in the pieces' order: the end stops moved out to the piece's seams,
 * colours of the refit (kept within 0–255). A piece with no seam to another keeps its own fit
 * (nearly: the samples are all its pixels here, not the fit's 1-px bins).
 */
export function fitSeams(pieces: readonly SeamPiece[], input: SeamInput): Float64Array[] {
  const rows = seamRows(pieces, input);
  const out = reachingSeams(pieces, rows);
  const systems = out.map((stops) => new PieceSystem(stops));
  addSamples(systems, pieces);
  for (let k = 0; k < rows.piece.length; k++) systems[rows.piece[k]!]!.add(rows.t[k]!, SEAM_WEIGHT, rows.rgb[k * 3]!, rows.rgb[k * 3 + 1]!, rows.rgb[k * 3 + 2]!);
  return out.map((stops, i) => {
    const system = systems[i]!;
    solveStopColours(system.diag, system.off, system.rhs, stops);
    for (let k = 0; k < stopCount(stops); k++) for (let c = 1; c <= 3; c++) stops[k * STOP_STRIDE + c] = Math.max(0, Math.min(255, stops[k * STOP_STRIDE + c]!));
    return stops;
  });
}
