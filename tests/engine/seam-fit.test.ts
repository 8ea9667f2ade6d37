/**
 * Seams between gradient pieces (issue 39 item 3): two pieces of one grey ramp, each fitted on its
 * interior pixels only (padded, flat, from their outermost stops), whose ramps miss each other
 * where they meet, are refitted so that both reach the seam and meet the picture's colour there;
 * a seam between pieces of two soft groups (an edge) is left alone.
 */
import { describe, expect, it } from 'vitest';
import type { FittedRamp } from '../../src/engine/shading/ramp-fit.js';
import { rampColorAt } from '../../src/engine/shading/ramp-fit.js';
import { emptySamples } from '../../src/engine/shading/ramp-samples.js';
import { fitSeams, type SeamPiece } from '../../src/engine/shading/seam-fit.js';

const WIDTH = 40;
const HEIGHT = 12;
/** The picture: grey 5 units per px along x (x = 20 is the seam: grey 100 there). */
const grey = (x: number): number => 5 * x;

function picture(): Uint8Array {
  const data = new Uint8Array(WIDTH * HEIGHT * 4);
  for (let p = 0; p < WIDTH * HEIGHT; p++) {
    const v = grey((p % WIDTH) + 0.5);
    data.set([v, v, v, 255], p * 4);
  }
  return data;
}

/** A piece over columns [from, to): its interior samples (a column in from each side) and a ramp of two stops. */
function piece(from: number, to: number, stops: readonly [number, number, number, number]): SeamPiece {
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = 1; y < HEIGHT - 1; y++) {
    for (let x = from + 1; x < to - 1; x++) {
      xs.push(x + 0.5);
      ys.push(y + 0.5);
    }
  }
  const samples = emptySamples(xs.length, false);
  for (let k = 0; k < xs.length; k++) {
    samples.x[k] = xs[k]!;
    samples.y[k] = ys[k]!;
    samples.rgb.fill(grey(xs[k]!), k * 3, k * 3 + 3);
  }
  const [t0, c0, t1, c1] = stops;
  const ramp: FittedRamp = { geometry: { kind: 'linear', ux: 1, uy: 0 }, tMin: from, tMax: to, stops: Float64Array.from([t0, c0, c0, c0, t1, c1, c1, c1]), meanError: 0 };
  return { ramp, samples: [samples], pixelsPerSample: [1] };
}

function colourAt(stops: Float64Array, t: number): number {
  const out = new Float64Array(3);
  rampColorAt(stops, t, out);
  return out[0]!;
}

describe('seam-fit: neighbouring gradient pieces meet at the picture colour', () => {
  // The left piece's ramp ends 8 units too dark at its last stop (x = 18.5) and is padded from there,
  // the right one's starts 8 too light at x = 21.5: a 31-unit step at the seam (x = 20) before.
  const pieces = [piece(0, 20, [1.5, grey(1.5), 18.5, grey(18.5) - 8]), piece(20, 40, [21.5, grey(21.5) + 8, 38.5, grey(38.5)])];
  const regionOf = new Int32Array(WIDTH * HEIGHT).map((_, p) => (p % WIDTH < 20 ? 0 : 1));

  it('one soft group: the ramps reach the seam, and the step there falls from 31 units to under 1, each side within 1 of the picture', () => {
    const [left, right] = fitSeams(pieces, { data: picture(), width: WIDTH, height: HEIGHT, regionOf, pieceOf: Int32Array.from([0, 1]), groupOf: Int32Array.from([0, 0]) });
    const before = Math.abs(colourAt(pieces[0]!.ramp.stops, 20) - colourAt(pieces[1]!.ramp.stops, 20));
    expect(before).toBeCloseTo(31, 0);
    expect(Math.abs(colourAt(left!, 20) - colourAt(right!, 20))).toBeLessThan(1);
    expect(Math.abs(colourAt(left!, 20) - grey(20))).toBeLessThan(1);
    expect(Math.abs(colourAt(right!, 20) - grey(20))).toBeLessThan(1);
    // The end stops at the seam move out to it (t = 20); the outer ends have no seam and stay.
    expect([left![0], left![4], right![0], right![4]]).toEqual([1.5, 20, 20, 38.5]);
  });

  it('two soft groups (an edge between them): the seam adds nothing, each ramp is its samples\' fit', () => {
    const [left] = fitSeams(pieces, { data: picture(), width: WIDTH, height: HEIGHT, regionOf, pieceOf: Int32Array.from([0, 1]), groupOf: Int32Array.from([0, 1]) });
    // The samples alone: the exact ramp through them, extrapolated to the seam.
    expect(colourAt(left!, 18.5)).toBeCloseTo(grey(18.5), 1);
  });
});
