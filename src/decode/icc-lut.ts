/**
 * The lookup-table transforms of ICC profiles (ICC.1:2010 §10.8 lut16Type `mft2`, §10.9 lut8Type `mft1`), for RGB
 * profiles an A2B0 table describes instead of colorants and curves (scanner and many v2 printer-proofing profiles).
 * In: the profile bytes and the A2B0 tag's place. Out: a function from 8-bit device RGB to the table's three
 * outputs, each 0–1 (the caller decodes them as PCS XYZ or Lab, which differ by table type).
 * Algorithm: per-channel input tables (linear interpolation), the 3-D colour table read by tetrahedral
 * interpolation between its grid points (as lcms2 does), per-channel output tables. The 3 × 3 matrix of these types applies only
 * when the input is PCS XYZ, never for device RGB, so it is not read. `mAB` (lutAtoBType) tables are read in
 * icc.ts, with its curve reader, through `tetrahedral` here.
 */

import { u16be } from './common.js';

export type LutTransform = (r8: number, g8: number, b8: number) => [number, number, number];

export interface LutTag {
  readonly at: number;
  readonly size: number;
}

/** A 3-in, 3-out mft1 or mft2 table as a function, or undefined when the tag is another type or is damaged. */
export function readLut(bytes: Uint8Array, tag: LutTag): { transform: LutTransform; labEncoding: 'legacy16' | 'full' } | undefined {
  const type = String.fromCharCode(...bytes.subarray(tag.at, tag.at + 4));
  if (type !== 'mft1' && type !== 'mft2') return undefined;
  const wide = type === 'mft2';
  const inputs = bytes[tag.at + 8]!;
  const outputs = bytes[tag.at + 9]!;
  const grid = bytes[tag.at + 10]!;
  if (inputs !== 3 || outputs !== 3 || grid < 2) return undefined;
  const inEntries = wide ? u16be(bytes, tag.at + 48) : 256;
  const outEntries = wide ? u16be(bytes, tag.at + 50) : 256;
  if (inEntries < 2 || outEntries < 2) return undefined;
  const sample = wide ? 2 : 1;
  const max = wide ? 65535 : 255;
  const inputAt = tag.at + (wide ? 52 : 48);
  const clutAt = inputAt + 3 * inEntries * sample;
  const clutValues = grid ** 3 * 3;
  const outputAt = clutAt + clutValues * sample;
  if (outputAt + 3 * outEntries * sample > tag.at + tag.size || tag.at + tag.size > bytes.length) return undefined;
  const read = (offset: number, index: number) => (wide ? u16be(bytes, offset + index * 2) : bytes[offset + index]!) / max;
  const table = (offset: number, entries: number) => Float64Array.from({ length: entries }, (_, i) => read(offset, i));
  const inTables = [0, 1, 2].map((c) => table(inputAt + c * inEntries * sample, inEntries));
  const outTables = [0, 1, 2].map((c) => table(outputAt + c * outEntries * sample, outEntries));
  const clut = table(clutAt, clutValues);
  // Device levels through the input tables, once per level.
  const inLevels = inTables.map((t) => Float64Array.from({ length: 256 }, (_, v) => interpolate(t, v / 255)));
  const transform: LutTransform = (r8, g8, b8) => {
    const mid = tetrahedral(clut, [grid, grid, grid], inLevels[0]![r8]!, inLevels[1]![g8]!, inLevels[2]![b8]!);
    return [interpolate(outTables[0]!, mid[0]), interpolate(outTables[1]!, mid[1]), interpolate(outTables[2]!, mid[2])];
  };
  return { transform, labEncoding: wide ? 'legacy16' : 'full' };
}

/** A 1-D table of values at evenly spaced inputs 0…1, read at `x` (clamped). */
function interpolate(table: Float64Array, x: number): number {
  const p = Math.min(Math.max(x, 0), 1) * (table.length - 1);
  const i = Math.min(Math.floor(p), table.length - 2);
  return table[i]! + (table[i + 1]! - table[i]!) * (p - i);
}

/**
 * The colour table (grid³ points of 3 outputs, first input slowest) at (x, y, z) in 0…1, by tetrahedral
 * interpolation (as lcms2 reads such tables): from the cell's first corner along the axes in order of their
 * fractions, largest first, each step weighted by its fraction's difference to the next.
 */
export function tetrahedral(clut: Float64Array, grid: readonly [number, number, number], x: number, y: number, z: number): [number, number, number] {
  const cell = (v: number, points: number): [number, number] => {
    const p = Math.min(Math.max(v, 0), 1) * (points - 1);
    const i = Math.min(Math.floor(p), points - 2);
    return [i, p - i];
  };
  const [xi, xf] = cell(x, grid[0]);
  const [yi, yf] = cell(y, grid[1]);
  const [zi, zf] = cell(z, grid[2]);
  const sx = grid[1] * grid[2] * 3, sy = grid[2] * 3, sz = 3;
  // The axes by fraction, largest first (ties in x, y, z order, as the sort of the corners goes).
  let f1 = xf, s1 = sx, f2 = yf, s2 = sy, f3 = zf, s3 = sz;
  if (f2 > f1) [f1, s1, f2, s2] = [f2, s2, f1, s1];
  if (f3 > f2) [f2, s2, f3, s3] = [f3, s3, f2, s2];
  if (f2 > f1) [f1, s1, f2, s2] = [f2, s2, f1, s1];
  const c0 = xi * sx + yi * sy + zi * sz;
  const c1 = c0 + s1, c2 = c1 + s2, c3 = c2 + s3;
  const out: [number, number, number] = [0, 0, 0];
  for (let c = 0; c < 3; c++) {
    const v0 = clut[c0 + c]!, v1 = clut[c1 + c]!, v2 = clut[c2 + c]!, v3 = clut[c3 + c]!;
    out[c] = v0 + f1 * (v1 - v0) + f2 * (v2 - v1) + f3 * (v3 - v2);
  }
  return out;
}
