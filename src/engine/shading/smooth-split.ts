/**
 * Stage 4b, fallback: split a group of softly joined regions that is not one gradient (a sky with
 * clouds, a shadow fading into a flat background) into parts that are smooth each.
 * In: the pixels, the regions, the group's members and the soft pairs among them. Out: clusters of
 * members (each a candidate area for ramp-fit.ts).
 *
 * Method: greedy region merging under a quadratic colour model (per channel c ≈ a + b·x + c·y +
 * d·x² + e·xy + f·y²), cheapest merge first — the classic piecewise-smooth region merging of
 * Mumford–Shah segmentation, with the model's sufficient statistics (moments of x, y up to degree
 * 4 and colour moments) kept per cluster and added on merging. A merge costs the increase in
 * squared error of one field for both parts over a field each, per pixel of the smaller part: a
 * ramp cut into shades merges at no cost, a shade beside a flat area or two flat colours with a
 * step between them do not.
 */
/** A merge may add at most this much squared error (sRGB units²) per pixel of the smaller part. */
const MERGE_COST = 2.5 * 2.5;
/** Clusters fitted worse than this RMS (sRGB units) are texture, not shading: no merging beyond. */
const MAX_RMS = 9;

/** Monomials x^i y^j with i + j ≤ 4, in a fixed order. */
const MONO_I: number[] = [];
const MONO_J: number[] = [];
const MONO_INDEX: number[][] = [];
for (let d = 0; d <= 4; d++) {
  for (let j = 0; j <= d; j++) {
    const i = d - j;
    (MONO_INDEX[i] ??= [])[j] = MONO_I.length;
    MONO_I.push(i);
    MONO_J.push(j);
  }
}
const MONOS = MONO_I.length; // 15
/** The quadratic basis 1, x, y, x², xy, y² as monomial indices (they are the first six). */
const BASIS = 6;
/** Per cluster: 15 geometric moments, 6 colour moments × 3 channels, Σ|c|². */
const STRIDE = MONOS + BASIS * 3 + 1;

const BINOMIAL = [
  [1],
  [1, 1],
  [1, 2, 1],
  [1, 3, 3, 1],
  [1, 4, 6, 4, 1],
];

/** Moments of one cluster about its own origin (the first pixel of its first region). */
interface Cluster {
  ox: number;
  oy: number;
  readonly m: Float64Array;
}

/**
 * Clusters of `members` (region ids) joined across `pairs` (index pairs into members, flat: a, b,
 * a, b …) by cheapest quadratic-model merges. Returns a cluster id per member, clusters numbered
 * by their first member.
 * @param localIndex scratch, one entry per region, all −1 (left so).
 */
export function splitSmooth(
  data: Uint8Array | Uint8ClampedArray,
  width: number,
  regionOf: Int32Array,
  pixels: Int32Array,
  members: readonly number[],
  pairs: Int32Array,
  localIndex: Int32Array,
): Int32Array {
  const k = members.length;
  // Member index per region (−1 elsewhere), set for this call and cleared after.
  for (let i = 0; i < k; i++) localIndex[members[i]!] = i;
  const clusters = accumulate(data, width, regionOf, pixels, localIndex, k);
  for (let i = 0; i < k; i++) localIndex[members[i]!] = -1;
  const work = new SplitScratch();
  const rss = new Float64Array(k);
  for (let i = 0; i < k; i++) rss[i] = clusterRss(work, clusters[i]!);
  // Adjacency between clusters; union-find maps a member to its cluster.
  const parent = new Int32Array(k);
  for (let i = 0; i < k; i++) parent[i] = i;
  const neighbours: Set<number>[] = [];
  for (let i = 0; i < k; i++) neighbours.push(new Set());
  for (let p = 0; p < pairs.length; p += 2) {
    neighbours[pairs[p]!]!.add(pairs[p + 1]!);
    neighbours[pairs[p + 1]!]!.add(pairs[p]!);
  }
  const version = new Int32Array(k);
  const heap = new MergeHeap();
  const push = (a: number, b: number): void => {
    const cost = mergeCost(work, clusters[a]!, clusters[b]!, rss[a]!, rss[b]!);
    if (cost <= MERGE_COST) heap.push(cost, a, b, version[a]!, version[b]!);
  };
  for (let p = 0; p < pairs.length; p += 2) push(Math.min(pairs[p]!, pairs[p + 1]!), Math.max(pairs[p]!, pairs[p + 1]!));
  while (heap.size > 0) {
    const e = heap.pop();
    if (version[e.a] !== e.va || version[e.b] !== e.vb || parent[e.a] !== e.a || parent[e.b] !== e.b) continue;
    // Merge the smaller cluster into the larger (ties: into the lower id).
    const na = clusters[e.a]!.m[0]!;
    const nb = clusters[e.b]!.m[0]!;
    const [into, from] = na > nb || (na === nb && e.a < e.b) ? [e.a, e.b] : [e.b, e.a];
    addInto(work, clusters[into]!, clusters[from]!);
    rss[into] = clusterRss(work, clusters[into]!);
    parent[from] = into;
    version[into]!++;
    version[from]!++;
    for (const n of neighbours[from]!) {
      if (n === into) continue;
      neighbours[n]!.delete(from);
      neighbours[n]!.add(into);
      neighbours[into]!.add(n);
    }
    neighbours[into]!.delete(from);
    neighbours[from]!.clear();
    if (Math.sqrt(rss[into]! / clusters[into]!.m[0]!) > MAX_RMS) continue;
    for (const n of [...neighbours[into]!].sort((p, q) => p - q)) push(Math.min(into, n), Math.max(into, n));
  }
  const out = new Int32Array(k);
  const idOfRoot = new Int32Array(k).fill(-1);
  let next = 0;
  for (let i = 0; i < k; i++) {
    let root = i;
    while (parent[root] !== root) root = parent[root]!;
    if (idOfRoot[root]! < 0) idOfRoot[root] = next++;
    out[i] = idOfRoot[root]!;
  }
  return out;
}

/**
 * Moments per member region, about each region's first pixel (the pixels come in raster order).
 */
function accumulate(data: Uint8Array | Uint8ClampedArray, width: number, regionOf: Int32Array, pixels: Int32Array, local: Int32Array, k: number): Cluster[] {
  const clusters: Cluster[] = [];
  for (let i = 0; i < k; i++) clusters.push({ ox: NaN, oy: 0, m: new Float64Array(STRIDE) });
  // The row of the current pixel (pixels come in raster order: one division per row, not per pixel).
  let rowStart = 0;
  let rowEnd = 0;
  let y = 0;
  for (let n = 0; n < pixels.length; n++) {
    const p = pixels[n]!;
    const o = p * 4;
    if (data[o + 3] !== 255) continue;
    const i = local[regionOf[p]!]!;
    if (i < 0) continue;
    const c = clusters[i]!;
    if (p >= rowEnd || p < rowStart) {
      rowStart = p - (p % width);
      rowEnd = rowStart + width;
      y = rowStart / width;
    }
    const x = p - rowStart;
    if (Number.isNaN(c.ox)) {
      c.ox = x;
      c.oy = y;
    }
    const dx = x - c.ox;
    const dy = y - c.oy;
    addPixelMoments(c.m, dx, dy, data[o]!, data[o + 1]!, data[o + 2]!);
  }
  for (const c of clusters) if (Number.isNaN(c.ox)) c.ox = 0;
  return clusters;
}

/**
 * One pixel's moments (colour r, g, b at dx, dy from its cluster's origin) added into m: written
 * out monomial by monomial, as this is done for every pixel of a split group.
 */
function addPixelMoments(m: Float64Array, dx: number, dy: number, r: number, g: number, b: number): void {
  const x2 = dx * dx;
  const xy = dx * dy;
  const y2 = dy * dy;
  // Geometric moments in MONO order: 1; x, y; x², xy, y²; x³, x²y, xy², y³; x⁴, x³y, x²y², xy³, y⁴.
  m[0]! += 1;
  m[1]! += dx;
  m[2]! += dy;
  m[3]! += x2;
  m[4]! += xy;
  m[5]! += y2;
  m[6]! += x2 * dx;
  m[7]! += x2 * dy;
  m[8]! += xy * dy;
  m[9]! += y2 * dy;
  m[10]! += x2 * x2;
  m[11]! += x2 * xy;
  m[12]! += x2 * y2;
  m[13]! += xy * y2;
  m[14]! += y2 * y2;
  m[15]! += r;
  m[16]! += r * dx;
  m[17]! += r * dy;
  m[18]! += r * x2;
  m[19]! += r * xy;
  m[20]! += r * y2;
  m[21]! += g;
  m[22]! += g * dx;
  m[23]! += g * dy;
  m[24]! += g * x2;
  m[25]! += g * xy;
  m[26]! += g * y2;
  m[27]! += b;
  m[28]! += b * dx;
  m[29]! += b * dy;
  m[30]! += b * x2;
  m[31]! += b * xy;
  m[32]! += b * y2;
  m[33]! += r * r + g * g + b * b;
}

/** Moments of `c` about the point (ox + dx, oy + dy), into out (geometric and colour). */
function shifted(work: SplitScratch, c: Cluster, dx: number, dy: number, out: Float64Array): void {
  const m = c.m;
  const px = work.powersX;
  const py = work.powersY;
  px[0] = 1;
  px[1] = -dx;
  px[2] = dx * dx;
  px[3] = -dx * dx * dx;
  px[4] = dx * dx * dx * dx;
  py[0] = 1;
  py[1] = -dy;
  py[2] = dy * dy;
  py[3] = -dy * dy * dy;
  py[4] = dy * dy * dy * dy;
  for (let t = 0; t < MONOS; t++) {
    const i = MONO_I[t]!;
    const j = MONO_J[t]!;
    let sum = 0;
    for (let a = 0; a <= i; a++) for (let b = 0; b <= j; b++) sum += BINOMIAL[i]![a]! * BINOMIAL[j]![b]! * px[i - a]! * py[j - b]! * m[MONO_INDEX[a]![b]!]!;
    out[t] = sum;
    if (t < BASIS) {
      for (let ch = 0; ch < 3; ch++) {
        let s = 0;
        for (let a = 0; a <= i; a++) for (let b = 0; b <= j; b++) s += BINOMIAL[i]![a]! * BINOMIAL[j]![b]! * px[i - a]! * py[j - b]! * m[MONOS + ch * BASIS + MONO_INDEX[a]![b]!]!;
        out[MONOS + ch * BASIS + t] = s;
      }
    }
  }
  out[STRIDE - 1] = m[STRIDE - 1]!;
}

/**
 * Scratch of shifted, addInto and clusterRss (none calls itself or another that uses the same),
 * one per splitSmooth call, passed down: powers of the shift, a shifted or centred moment set,
 * the normal matrix and right-hand side of the field's least squares, the scale per degree.
 */
class SplitScratch {
  readonly powersX = new Float64Array(5);
  readonly powersY = new Float64Array(5);
  readonly moved = new Float64Array(STRIDE);
  readonly centred = new Float64Array(STRIDE);
  readonly normal = new Float64Array(BASIS * BASIS);
  readonly rhs = new Float64Array(BASIS);
  readonly scale = new Float64Array(5);
  /** mergeCost's union of two clusters. */
  readonly union: Cluster = { ox: 0, oy: 0, m: new Float64Array(STRIDE) };
}

function addInto(work: SplitScratch, into: Cluster, from: Cluster): void {
  const moved = work.moved;
  shifted(work, from, into.ox - from.ox, into.oy - from.oy, moved);
  for (let t = 0; t < STRIDE; t++) into.m[t]! += moved[t]!;
}

/** Residual sum of squares of the best quadratic field per channel (solved about the centroid, scaled). */
function clusterRss(work: SplitScratch, c: Cluster): number {
  const n = c.m[0]!;
  if (n < 1) return 0;
  const cx = c.m[MONO_INDEX[1]![0]!]! / n;
  const cy = c.m[MONO_INDEX[0]![1]!]! / n;
  const centred = work.centred;
  shifted(work, c, cx, cy, centred);
  const varSum = (centred[MONO_INDEX[2]![0]!]! + centred[MONO_INDEX[0]![2]!]!) / n;
  const s = Math.sqrt(varSum / 2) + 0.5;
  // Scale x, y by 1/s: a moment of degree d by s^−d (s ** d once per degree).
  const scale = work.scale;
  for (let d = 0; d <= 4; d++) scale[d] = s ** d;
  for (let t = 0; t < MONOS; t++) centred[t]! /= scale[MONO_I[t]! + MONO_J[t]!]!;
  for (let ch = 0; ch < 3; ch++) for (let t = 0; t < BASIS; t++) centred[MONOS + ch * BASIS + t]! /= scale[MONO_I[t]! + MONO_J[t]!]!;
  const a = work.normal;
  for (let p = 0; p < BASIS; p++) {
    for (let q = 0; q < BASIS; q++) a[p * BASIS + q] = centred[MONO_INDEX[MONO_I[p]! + MONO_I[q]!]![MONO_J[p]! + MONO_J[q]!]!]!;
    // A light ridge: a small cluster (a few pixels, a one-pixel line) has no curvature to fit.
    if (p > 0) a[p * BASIS + p]! += (p < 3 ? 1e-6 : 1e-3) * n;
  }
  if (!cholesky(a, BASIS)) return centred[STRIDE - 1]! - sumSquaresOfMeans(centred, n);
  let fitted = 0;
  const rhs = work.rhs;
  for (let ch = 0; ch < 3; ch++) {
    for (let t = 0; t < BASIS; t++) rhs[t] = centred[MONOS + ch * BASIS + t]!;
    // βᵀb = bᵀA⁻¹b = |L⁻¹b|².
    forwardSolve(a, BASIS, rhs);
    for (let t = 0; t < BASIS; t++) fitted += rhs[t]! * rhs[t]!;
  }
  return Math.max(0, centred[STRIDE - 1]! - fitted);
}

/** n·|mean|²: what a flat colour explains (the fallback when the system is singular). */
function sumSquaresOfMeans(m: Float64Array, n: number): number {
  const r = m[MONOS]!;
  const g = m[MONOS + BASIS]!;
  const b = m[MONOS + 2 * BASIS]!;
  return (r * r + g * g + b * b) / n;
}

/** In-place Cholesky factor (lower) of a symmetric n × n matrix; false when not positive definite. */
function cholesky(a: Float64Array, n: number): boolean {
  for (let j = 0; j < n; j++) {
    let d = a[j * n + j]!;
    for (let k = 0; k < j; k++) d -= a[j * n + k]! * a[j * n + k]!;
    if (!(d > 1e-12)) return false;
    const l = Math.sqrt(d);
    a[j * n + j] = l;
    for (let i = j + 1; i < n; i++) {
      let s = a[i * n + j]!;
      for (let k = 0; k < j; k++) s -= a[i * n + k]! * a[j * n + k]!;
      a[i * n + j] = s / l;
    }
  }
  return true;
}

/** Solves L y = b in place (L from cholesky). */
function forwardSolve(l: Float64Array, n: number, b: Float64Array): void {
  for (let i = 0; i < n; i++) {
    let s = b[i]!;
    for (let k = 0; k < i; k++) s -= l[i * n + k]! * b[k]!;
    b[i] = s / l[i * n + i]!;
  }
}

/** Increase of squared error from fitting one field to both, per pixel of the smaller. */
function mergeCost(work: SplitScratch, a: Cluster, b: Cluster, rssA: number, rssB: number): number {
  const both = work.union;
  both.ox = a.ox;
  both.oy = a.oy;
  both.m.set(a.m);
  addInto(work, both, b);
  const union = clusterRss(work, both);
  return (union - rssA - rssB) / Math.max(1, Math.min(a.m[0]!, b.m[0]!));
}

/** Binary min-heap of candidate merges (cost, then a, then b: deterministic). */
class MergeHeap {
  private cost: number[] = [];
  private a: number[] = [];
  private b: number[] = [];
  private va: number[] = [];
  private vb: number[] = [];
  get size(): number {
    return this.cost.length;
  }
  push(cost: number, a: number, b: number, va: number, vb: number): void {
    this.cost.push(cost);
    this.a.push(a);
    this.b.push(b);
    this.va.push(va);
    this.vb.push(vb);
    let i = this.cost.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }
  pop(): { a: number; b: number; va: number; vb: number } {
    const top = { a: this.a[0]!, b: this.b[0]!, va: this.va[0]!, vb: this.vb[0]! };
    const last = this.cost.length - 1;
    this.swap(0, last);
    this.cost.pop();
    this.a.pop();
    this.b.pop();
    this.va.pop();
    this.vb.pop();
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.cost.length && this.less(l, m)) m = l;
      if (r < this.cost.length && this.less(r, m)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
    return top;
  }
  private less(i: number, j: number): boolean {
    return this.cost[i]! < this.cost[j]! || (this.cost[i] === this.cost[j] && (this.a[i]! < this.a[j]! || (this.a[i] === this.a[j] && this.b[i]! < this.b[j]!)));
  }
  private swap(i: number, j: number): void {
    for (const arr of [this.cost, this.a, this.b, this.va, this.vb]) {
      const t = arr[i]!;
      arr[i] = arr[j]!;
      arr[j] = t;
    }
  }
}
