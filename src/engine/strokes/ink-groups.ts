/**
 * Shades of one ink read as one line (tracelab.strokes=centerline and auto).
 * In: the picture (its regions and their colours), each region's label, the paper's colour (none:
 * transparent paper, nothing is merged), and the regions' widths when the caller has them.
 * Out: the picture again with its regions grouped — a thin region (under 2 px across: a line or a
 * fringe) whose colour lies between the paper's and a neighbour's, the neighbour's anti-aliased
 * shade, is one group with it — each group's label (its darkest member's) and members.
 * Why: an anti-aliased hairline (a map's borders, 1 px of grey) is quantised into two or three
 * shades that alternate along it and beside it; read one region at a time, each shade became its
 * own broken centre-line beside the other's (doubled, fragmented lines). The group's coverage
 * (coverage.ts) reads the lighter shades as partly covered pixels of the darkest.
 * Groups are numbered by their lowest region, so with nothing merged group g is region g.
 */
import { regionWidthsPx, type InkPicture } from './coverage.js';

export interface InkGroups {
  /** The picture with regionOf and regionColor per group. */
  readonly picture: InkPicture;
  readonly count: number;
  /** Per group: its label (its darkest member's). */
  readonly labelOf: Int32Array;
  /** Per group: its regions, lowest first. */
  readonly members: readonly number[][];
}

/** Under this mean width (px: twice the area over the border) a region is thin. */
const THIN_PX = 2;
/** A shade's colour may lie this far from the paper–ink line, relative to the ink's distance from the paper. */
const OFF_LINE = 0.15;

export function inkGroups(picture: InkPicture, labelOf: Int32Array, regionCount: number, paper: readonly [number, number, number] | undefined, widthsPx?: Float64Array): InkGroups {
  const parent = new Int32Array(regionCount);
  for (let r = 0; r < regionCount; r++) parent[r] = r;
  if (paper) mergeShades(picture, regionCount, paper, parent, widthsPx ?? regionWidthsPx(picture, regionCount));
  const rootOf = (r: number): number => {
    while (parent[r] !== r) r = parent[r]!;
    return r;
  };
  const groupOfRoot = new Int32Array(regionCount).fill(-1);
  const members: number[][] = [];
  const groupOf = new Int32Array(regionCount);
  for (let r = 0; r < regionCount; r++) {
    const root = rootOf(r);
    if (groupOfRoot[root]! < 0) {
      groupOfRoot[root] = members.length;
      members.push([]);
    }
    groupOf[r] = groupOfRoot[root]!;
    members[groupOf[r]!]!.push(r);
  }
  if (members.length === regionCount) return { picture, count: regionCount, labelOf, members };
  // A loop, not TypedArray.map: map's callback per pixel cost a fifth of the shade groups.
  const regionOf = new Int32Array(picture.regionOf.length);
  for (let i = 0; i < regionOf.length; i++) {
    const r = picture.regionOf[i]!;
    regionOf[i] = r < 0 ? r : groupOf[r]!;
  }
  const regionColor = new Float64Array(members.length * 3);
  const groupLabel = new Int32Array(members.length);
  members.forEach((list, g) => {
    const ink = darkest(picture.regionColor, list, paper!);
    regionColor.set(picture.regionColor.subarray(ink * 3, ink * 3 + 3), g * 3);
    groupLabel[g] = labelOf[ink]!;
  });
  return { picture: { ...picture, regionOf, regionColor }, count: members.length, labelOf: groupLabel, members };
}

/** Unites (in `parent`, the root always the lower region) each thin region with the neighbour it is a shade of. */
function mergeShades(picture: InkPicture, regionCount: number, paper: readonly [number, number, number], parent: Int32Array, widthsPx: Float64Array): void {
  const { width, height, regionOf, regionColor } = picture;
  const thin = thinRegions(widthsPx, regionCount);
  const tried = new Set<number>();
  const rootOf = (r: number): number => {
    while (parent[r] !== r) r = parent[r]!;
    return r;
  };
  // The pair visited last: along a border the same pair comes again pixel after pixel.
  let lastKey = -1;
  const visit = (a: number, b: number): void => {
    // Only a thin region is merged (as `near`): a pair of wide regions is not even looked up.
    if (a === b || a < 0 || b < 0 || (!thin[a] && !thin[b])) return;
    const key = a < b ? a * regionCount + b : b * regionCount + a;
    if (key === lastKey) return;
    lastKey = key;
    if (tried.has(key)) return;
    tried.add(key);
    const [near, far] = paperDistance(regionColor, a, paper) < paperDistance(regionColor, b, paper) ? [a, b] : [b, a];
    if (!thin[near] || !isShadeOf(regionColor, near, far, paper)) return;
    const ra = rootOf(a);
    const rb = rootOf(b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (x + 1 < width) visit(regionOf[i]!, regionOf[i + 1]!);
      if (y + 1 < height) visit(regionOf[i]!, regionOf[i + width]!);
    }
  }
}

/** Per region: under THIN_PX across (its width: twice its area over its border, coverage.ts regionWidthsPx). */
function thinRegions(widths: Float64Array, regionCount: number): Uint8Array {
  const thin = new Uint8Array(regionCount);
  for (let r = 0; r < regionCount; r++) thin[r] = widths[r]! > 0 && widths[r]! < THIN_PX ? 1 : 0;
  return thin;
}

function paperDistance(color: Float64Array, r: number, paper: readonly [number, number, number]): number {
  return Math.hypot(color[r * 3]! - paper[0], color[r * 3 + 1]! - paper[1], color[r * 3 + 2]! - paper[2]);
}

/** Region `shade`'s colour lies between the paper's and region `ink`'s (a blend of the two, 10–95 % ink). */
function isShadeOf(color: Float64Array, shade: number, ink: number, paper: readonly [number, number, number]): boolean {
  const kx = color[ink * 3]! - paper[0];
  const ky = color[ink * 3 + 1]! - paper[1];
  const kz = color[ink * 3 + 2]! - paper[2];
  const span2 = kx * kx + ky * ky + kz * kz;
  if (span2 < 1) return false;
  const sx = color[shade * 3]! - paper[0];
  const sy = color[shade * 3 + 1]! - paper[1];
  const sz = color[shade * 3 + 2]! - paper[2];
  const t = (sx * kx + sy * ky + sz * kz) / span2;
  if (t < 0.1 || t > 0.95) return false;
  const off = Math.hypot(sx - t * kx, sy - t * ky, sz - t * kz);
  return off <= OFF_LINE * Math.sqrt(span2);
}

/** The member farthest from the paper (the lowest on a tie). */
function darkest(color: Float64Array, list: readonly number[], paper: readonly [number, number, number]): number {
  let best = list[0]!;
  for (const r of list) if (paperDistance(color, r, paper) > paperDistance(color, best, paper)) best = r;
  return best;
}
