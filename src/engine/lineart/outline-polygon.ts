/**
 * Line art, step 1 of 2: the polygon with the fewest sides that an aliased outline samples.
 * In: the pixel-corner vertices of one boundary (integer x, y pairs, unit steps), open (its ends
 * are junctions and stay put) or closed. Out: polygon vertices (x, y pairs) placed off the lattice.
 *
 * After Selinger, "Potrace: a polygon-based tracing algorithm" (2003), §2.2–2.3:
 * - a run of the outline is *straight* when its steps do not go all four ways and some line
 *   passes near every vertex on it — here, a line through the run's first vertex, kept as the
 *   cone of directions that still pass every vertex's square (SideRule says how near);
 * - the polygon joins outline vertices by straight runs only, with the fewest sides; among
 *   polygons with as many sides, the one whose sides stray least from the vertices they skip
 *   (length × RMS distance);
 * - each polygon vertex then moves, within the unit square about its outline vertex, to where the
 *   least-squares lines of its two sides meet most nearly.
 */

/**
 * Which runs of the outline one polygon side may replace.
 * - 'chord': the run i … j is straight and the chord from i to j itself passes within half a
 *   pixel (L∞) of every vertex between. The chord test is what keeps a one-pixel spike (a serif,
 *   the stem of a small "d"): some line passes near all its vertices, but not the chord that would
 *   cut it off.
 * - 'straightRun': the paper's possible segment: the run from the vertex before i to the vertex
 *   after j is straight — each chord from its first vertex passes within 1 px (L∞: the paper's
 *   line within half a pixel of every vertex, moved to pass through the first) of every vertex
 *   before its end, and a run reaches no further than the runs from the vertices after its start
 *   do — and the chord from i to j passes within STRAIGHT_RUN_CHORD_PX of every vertex between
 *   (looser than 'chord': a spike still stops it). Fewer, longer sides: a drawing's polygons have
 *   as many vertices as potrace's, about 25 % fewer than under 'chord'.
 */
export type SideRule = 'chord' | 'straightRun';

/** How near (L∞, px) the vertices a 'chord' side skips lie to it. */
const CHORD_PX = 0.5;
/**
 * How near the vertices a 'straightRun' side skips lie to its chord. 0.7 px: on the 1-bit
 * drawings of bench/lineart-bilevel.mjs, 0.5 keeps as many vertices as 'chord' (6 of 16 drawings
 * above potrace's gzip), 0.8 drops biohazard 0.0008 under potrace's SSIM, none beyond the straight
 * run's (1) drops 10 of 16 under it.
 */
const STRAIGHT_RUN_CHORD_PX = 0.7;
/** How near the vertices of a straight run lie to the chords from its first vertex (the paper's). */
const STRAIGHT_RUN_PX = 1;

/**
 * The sides a polygon may use, per outline vertex i: the steps (j − i, ascending; j unwrapped,
 * so it may pass n on a closed outline) to every vertex j the side rule allows.
 * possibleSides lists them; `maxStep` caps a side's steps, and with `budget` it gives up
 * (undefined) once more sides than that are found, or — under 'straightRun' — more outline steps
 * than that are walked to find the straight runs.
 */
export interface PolygonSides {
  /** Steps of vertex i: steps[first[i] … first[i + 1]). */
  readonly first: Int32Array;
  readonly steps: Int32Array;
}

export function possibleSides(points: Float64Array, closed: boolean, rule: SideRule, maxStep = Infinity, budget = Infinity): PolygonSides | undefined {
  const n = points.length / 2;
  const first = new Int32Array(n + 1);
  const list: SideList = { steps: new Int32Array(Math.max(16, Math.min(n * 4, budget))), count: 0, budget };
  // A closed outline's side may not come back round to where it started.
  const longest = Math.min(maxStep, closed ? n - 2 : n - 1);
  const cone = new Float64Array(4);
  const reach = rule === 'straightRun' ? straightRunEnds(points, closed, longest + 2, budget, cone) : undefined;
  if (rule === 'straightRun' && !reach) return undefined;
  for (let i = 0; i < n; i++) {
    first[i] = list.count;
    if (!reach) {
      if (!sidesFrom(points, closed, longest, i, cone, list, CHORD_PX)) return undefined;
      continue;
    }
    if (!sidesFrom(points, closed, Math.min(longest, longestWithin(reach, closed, i)), i, cone, list, STRAIGHT_RUN_CHORD_PX)) return undefined;
    // Every vertex reaches the next.
    if (list.count === first[i] && !pushSide(list, 1)) return undefined;
  }
  first[n] = list.count;
  return { first, steps: list.steps.subarray(0, list.count) };
}

/**
 * Under 'straightRun', the most steps a side from vertex i may take: to the vertex before the end
 * of the straight run from the vertex before i (an open outline's first vertex has none before
 * it: its own run; a run to the open outline's last vertex may end a side there).
 */
function longestWithin(reach: Int32Array, closed: boolean, i: number): number {
  const n = reach.length;
  if (!closed) {
    const end = reach[Math.max(0, i - 1)]!;
    return Math.max(1, (end === n - 1 ? end : end - 1) - i);
  }
  // reach[n − 1] counts from vertex n − 1: vertex 0 is its step 1, unwrapped to n.
  const end = i === 0 ? reach[n - 1]! - n : reach[i - 1]!;
  return Math.max(1, end - 1 - i);
}

/**
 * The end of the straight run from each outline vertex a (unwrapped index ≥ a): the farthest k
 * such that the run a … k does not step all four ways and the chord from a to each vertex up to k
 * passes within STRAIGHT_RUN_PX of every vertex before it; then cut back so that no run ends past
 * the end of the run from the next vertex. Each walk stops after `maxSteps`; undefined once all
 * walks together take more than `budget` steps (a long straight run makes them quadratic).
 */
function straightRunEnds(points: Float64Array, closed: boolean, maxSteps: number, budget: number, cone: Float64Array): Int32Array | undefined {
  const n = points.length / 2;
  const reach = new Int32Array(n);
  let walked = 0;
  for (let a = 0; a < n; a++) {
    const end = straightRunEnd(points, closed, a, maxSteps, cone);
    walked += end - a + 1;
    if (walked > budget) return undefined;
    reach[a] = end;
  }
  if (!closed) {
    for (let a = n - 2; a >= 0; a--) reach[a] = Math.min(reach[a]!, reach[a + 1]!);
    return reach;
  }
  // Round the loop twice: the run from vertex n − 1 is cut by the one from vertex 0 (n steps on).
  for (let round = 0; round < 2; round++) {
    for (let a = n - 1; a >= 0; a--) {
      const next = a === n - 1 ? (round === 0 ? Infinity : reach[0]! + n) : reach[a + 1]!;
      reach[a] = Math.min(reach[a]!, next);
    }
  }
  return reach;
}

/** straightRunEnds' walk from vertex a (cone: sidesFrom's scratch). */
function straightRunEnd(points: Float64Array, closed: boolean, a: number, maxSteps: number, cone: Float64Array): number {
  const n = points.length / 2;
  const x0 = points[a * 2]!;
  const y0 = points[a * 2 + 1]!;
  const last = closed ? a + Math.min(maxSteps, n - 1) : Math.min(n - 1, a + maxSteps);
  let directions = 0;
  let px = x0;
  let py = y0;
  let constrained = false;
  let end = a;
  for (let k = a + 1; k <= last; k++) {
    const w = k % n;
    const x = points[w * 2]!;
    const y = points[w * 2 + 1]!;
    directions |= directionBit(x - px, y - py);
    if (directions === 15) break;
    px = x;
    py = y;
    const cx = x - x0;
    const cy = y - y0;
    if (constrained && !(cross(cone[0]!, cone[1]!, cx, cy) >= 0 && cross(cx, cy, cone[2]!, cone[3]!) >= 0)) break;
    end = k;
    // A vertex whose square holds the run's first vertex rules out no direction.
    if (Math.abs(cx) <= STRAIGHT_RUN_PX && Math.abs(cy) <= STRAIGHT_RUN_PX) continue;
    if (!narrowCone(cone, cx, cy, !constrained, STRAIGHT_RUN_PX)) break;
    constrained = true;
  }
  return end;
}

/** The sides found so far: steps[0 … count), grown by doubling up to the budget. */
interface SideList {
  steps: Int32Array;
  count: number;
  readonly budget: number;
}

/**
 * Appends the sides from vertex i to the list (possibleSides): the chords that pass within
 * `nearPx` (L∞) of every vertex between, up to `longest` steps; false once the list is over its
 * budget. `cone` is scratch: the directions (from vertex i) that pass every square so far,
 * lo = (cone[0], cone[1]) … hi = (cone[2], cone[3]) counter-clockwise.
 */
function sidesFrom(points: Float64Array, closed: boolean, longest: number, i: number, cone: Float64Array, list: SideList, nearPx: number): boolean {
  const n = points.length / 2;
  const x0 = points[i * 2]!;
  const y0 = points[i * 2 + 1]!;
  let directions = 0;
  let px = x0;
  let py = y0;
  for (let step = 1; step <= longest; step++) {
    const k = i + step;
    if (!closed && k >= n) break;
    const w = k % n;
    const x = points[w * 2]!;
    const y = points[w * 2 + 1]!;
    directions |= directionBit(x - px, y - py);
    if (directions === 15) break;
    px = x;
    py = y;
    const cx = x - x0;
    const cy = y - y0;
    // The chord to this vertex is a side if it passes the squares of the vertices between.
    if (step === 1 || (cross(cone[0]!, cone[1]!, cx, cy) >= 0 && cross(cx, cy, cone[2]!, cone[3]!) >= 0)) {
      if (!pushSide(list, step)) return false;
    }
    if (!narrowCone(cone, cx, cy, step === 1, nearPx)) break;
  }
  return true;
}

/** Appends a side's steps to the list, or false when it is full at its budget. */
function pushSide(list: SideList, step: number): boolean {
  if (list.count === list.steps.length) {
    if (list.count >= list.budget) return false;
    const grown = new Int32Array(Math.min(list.steps.length * 2, list.budget));
    grown.set(list.steps);
    list.steps = grown;
  }
  list.steps[list.count++] = step;
  return true;
}

/**
 * Narrows the cone (sidesFrom) to the directions that also pass the square of half-side `half`
 * about the vertex at (cx, cy) from vertex i — its extreme corners seen from there — or sets it
 * to them when `first`. False when the cone is empty: no longer run from i is straight.
 */
function narrowCone(cone: Float64Array, cx: number, cy: number, first: boolean, half: number): boolean {
  let aX = cx - half;
  let aY = cy - half;
  let bX = aX;
  let bY = aY;
  for (let corner = 1; corner < 4; corner++) {
    const qx = cx + (corner & 1 ? half : -half);
    const qy = cy + (corner & 2 ? half : -half);
    if (cross(qx, qy, aX, aY) > 0) {
      aX = qx;
      aY = qy;
    }
    if (cross(bX, bY, qx, qy) > 0) {
      bX = qx;
      bY = qy;
    }
  }
  if (first) {
    cone[0] = aX;
    cone[1] = aY;
    cone[2] = bX;
    cone[3] = bY;
    return true;
  }
  if (cross(cone[0]!, cone[1]!, aX, aY) > 0) {
    cone[0] = aX;
    cone[1] = aY;
  }
  if (cross(bX, bY, cone[2]!, cone[3]!) > 0) {
    cone[2] = bX;
    cone[3] = bY;
  }
  return !(cross(cone[0]!, cone[1]!, cone[2]!, cone[3]!) < 0);
}

/** The longest side from vertex i (in steps). */
function longestSide(sides: PolygonSides, i: number): number {
  return sides.first[i + 1]! > sides.first[i]! ? sides.steps[sides.first[i + 1]! - 1]! : 0;
}

function cross(ax: number, ay: number, bx: number, by: number): number {
  return ax * by - ay * bx;
}

function directionBit(dx: number, dy: number): number {
  if (dx > 0) return 1;
  if (dx < 0) return 2;
  return dy > 0 ? 4 : 8;
}

/**
 * Prefix sums of x, y, x², xy, y² over the outline, run twice round a closed one, so that any
 * unwrapped run [i, j] has its sums as a difference. Coordinates are taken relative to the first
 * vertex (integers: the sums are exact).
 */
interface Moments {
  readonly sx: Float64Array;
  readonly sy: Float64Array;
  readonly sxx: Float64Array;
  readonly sxy: Float64Array;
  readonly syy: Float64Array;
  readonly originX: number;
  readonly originY: number;
}

function outlineMoments(points: Float64Array, closed: boolean): Moments {
  const n = points.length / 2;
  const length = closed ? 2 * n + 1 : n + 1;
  const sx = new Float64Array(length);
  const sy = new Float64Array(length);
  const sxx = new Float64Array(length);
  const sxy = new Float64Array(length);
  const syy = new Float64Array(length);
  const originX = points[0]!;
  const originY = points[1]!;
  for (let k = 0; k + 1 < length; k++) {
    const w = k % n;
    const x = points[w * 2]! - originX;
    const y = points[w * 2 + 1]! - originY;
    sx[k + 1] = sx[k]! + x;
    sy[k + 1] = sy[k]! + y;
    sxx[k + 1] = sxx[k]! + x * x;
    sxy[k + 1] = sxy[k]! + x * y;
    syy[k + 1] = syy[k]! + y * y;
  }
  return { sx, sy, sxx, sxy, syy, originX, originY };
}

/** Length × RMS distance of the vertices i … j (unwrapped) from the chord between i and j. */
function sidePenalty(points: Float64Array, m: Moments, i: number, j: number): number {
  const n = points.length / 2;
  const ax = points[(i % n) * 2]! - m.originX;
  const ay = points[(i % n) * 2 + 1]! - m.originY;
  const dx = points[(j % n) * 2]! - m.originX - ax;
  const dy = points[(j % n) * 2 + 1]! - m.originY - ay;
  const length = Math.sqrt(dx * dx + dy * dy);
  if (length === 0) return 0;
  const count = j - i + 1;
  // Σ ((p − a) · normal)² from the second moments about a.
  const sxx = m.sxx[j + 1]! - m.sxx[i]! - 2 * ax * (m.sx[j + 1]! - m.sx[i]!) + count * ax * ax;
  const syy = m.syy[j + 1]! - m.syy[i]! - 2 * ay * (m.sy[j + 1]! - m.sy[i]!) + count * ay * ay;
  const sxy = m.sxy[j + 1]! - m.sxy[i]! - ax * (m.sy[j + 1]! - m.sy[i]!) - ay * (m.sx[j + 1]! - m.sx[i]!) + count * ax * ay;
  const nx = -dy / length;
  const ny = dx / length;
  const squares = nx * nx * sxx + 2 * nx * ny * sxy + ny * ny * syy;
  return length * Math.sqrt(Math.max(0, squares) / count);
}

/**
 * Indices (unwrapped, ascending) of the outline vertices the polygon keeps, from `start` to
 * `start + n` (closed: the same vertex again) or from 0 to n − 1 (open). Fewest sides first,
 * then the smallest total side penalty. `maxSide` caps a side's run (closed outlines need three
 * sides at least).
 */
function shortestPolygon(points: Float64Array, sides: PolygonSides, moments: Moments, closed: boolean, start: number, maxSide: number): number[] {
  const n = points.length / 2;
  const end = closed ? start + n : n - 1;
  const span = end - start;
  const sideCount = new Int32Array(span + 1).fill(0x7fffffff);
  const penalty = new Float64Array(span + 1).fill(Infinity);
  const previous = new Int32Array(span + 1).fill(-1);
  sideCount[0] = 0;
  penalty[0] = 0;
  for (let a = 0; a < span; a++) {
    if (sideCount[a] === 0x7fffffff) continue;
    const i = start + a;
    const base = i % n;
    for (let k = sides.first[base]!; k < sides.first[base + 1]!; k++) {
      const j = i + sides.steps[k]!;
      if (j > end || j > i + maxSide) break;
      const b = j - start;
      const count = sideCount[a]! + 1;
      if (count > sideCount[b]!) continue;
      const p = penalty[a]! + sidePenalty(points, moments, i, j);
      if (count < sideCount[b]! || p < penalty[b]!) {
        sideCount[b] = count;
        penalty[b] = p;
        previous[b] = a;
      }
    }
  }
  const kept: number[] = [];
  for (let b = span; b > 0; b = previous[b]!) {
    if (previous[b]! < 0) return [];
    kept.push(start + b);
  }
  kept.push(start);
  return kept.reverse();
}

/**
 * The optimal polygon of an outline, its vertices adjusted off the lattice. A closed outline has
 * no first vertex. Take its most constrained vertex s (the shortest longest side: a corner): the
 * best polygon either has a vertex at s or a side that passes over s, and that side starts at a
 * vertex a little before s whose sides reach past s. The search runs from s and from each such
 * vertex (at most MAX_STARTS, nearest first); fewest sides, then the smallest penalty, wins.
 */
export function outlinePolygon(points: Float64Array, closed: boolean, rule: SideRule): Float64Array {
  const n = points.length / 2;
  if (n < 2) return Float64Array.from(points);
  // Straight runs make the sides quadratic in the run's length (every vertex reaches every
  // other): past SIDE_BUDGET, sides are capped so that there are at most that many.
  const sides = possibleSides(points, closed, rule, Infinity, SIDE_BUDGET) ?? possibleSides(points, closed, rule, Math.max(MIN_CAPPED_STEP, Math.floor(SIDE_BUDGET / n)))!;
  const moments = outlineMoments(points, closed);
  let kept: number[] = [];
  if (closed) {
    let start = 0;
    let farthest = 0;
    for (let i = 0; i < n; i++) {
      const longest = longestSide(sides, i);
      if (longest < longestSide(sides, start)) start = i;
      if (longest > farthest) farthest = longest;
    }
    const starts = [start];
    for (let back = 1; back <= farthest && back < n && starts.length <= MAX_STARTS; back++) {
      const a = (start - back + n) % n;
      if (longestSide(sides, a) > back) starts.push(a);
    }
    let best = Infinity;
    for (const s of starts) {
      const candidate = closedPolygon(points, sides, moments, s);
      if (candidate.length === 0 || (kept.length > 0 && candidate.length > kept.length)) continue;
      const penalty = polygonPenalty(points, moments, candidate);
      if (kept.length === 0 || candidate.length < kept.length || penalty < best) {
        kept = candidate;
        best = penalty;
      }
    }
  } else {
    kept = shortestPolygon(points, sides, moments, false, 0, n);
  }
  if (kept.length === 0) return Float64Array.from(points);
  return adjustVertices(points, moments, kept, closed);
}

/** Searches per closed outline beyond the first (a bound on the work; corners have few). */
const MAX_STARTS = 24;
/**
 * Possible sides per outline beyond which they are capped in length. The 1-bit copies of the
 * corpus's drawings and text reach 0.72 million (an outline of 2,400 vertices round a 600-px
 * frame); a 3 × 65,534 strip (fuzzed GIF) had 4 billion: minutes of search and gigabytes.
 * Each polygon search visits every possible side once per start (MAX_STARTS + 1).
 */
const SIDE_BUDGET = 4_000_000;
const MIN_CAPPED_STEP = 8;

function closedPolygon(points: Float64Array, sides: PolygonSides, moments: Moments, start: number): number[] {
  const n = points.length / 2;
  const kept = shortestPolygon(points, sides, moments, true, start, n);
  // A closed polygon has three sides at least (a two-sided one is a sliver).
  if (kept.length >= 4) return kept;
  return shortestPolygon(points, sides, moments, true, start, Math.max(1, Math.floor(n / 3)));
}

function polygonPenalty(points: Float64Array, moments: Moments, kept: readonly number[]): number {
  let sum = 0;
  for (let k = 0; k + 1 < kept.length; k++) sum += sidePenalty(points, moments, kept[k]!, kept[k + 1]!);
  return sum;
}

/**
 * Moves each kept vertex within its unit square to the point nearest (least squares) to the
 * lines fitted to the outline runs on either side. The ends of an open outline stay.
 */
function adjustVertices(points: Float64Array, moments: Moments, kept: readonly number[], closed: boolean): Float64Array {
  const n = points.length / 2;
  const count = closed ? kept.length - 1 : kept.length;
  // Each side's fitted line: unit normal (nx, ny) and offset d (n · p = d).
  const sideCount = kept.length - 1;
  const normalX = new Float64Array(sideCount);
  const normalY = new Float64Array(sideCount);
  const offset = new Float64Array(sideCount);
  for (let s = 0; s < sideCount; s++) fitSideLine(points, moments, kept[s]!, kept[s + 1]!, s, normalX, normalY, offset);
  const out: number[] = [];
  for (let v = 0; v < count; v++) {
    const w = kept[v]! % n;
    const x0 = points[w * 2]!;
    const y0 = points[w * 2 + 1]!;
    const before = v > 0 ? v - 1 : closed ? sideCount - 1 : -1;
    const after = v < sideCount ? v : -1;
    if (before < 0 || after < 0) {
      out.push(x0, y0);
      continue;
    }
    const [x, y] = nearestToLines(x0, y0, normalX, normalY, offset, before, after);
    if (isStrokeEnd(points, kept, v, before, after, normalX, normalY)) {
      // Two nearly parallel sides that come back on themselves: the end of a stroke (a one-pixel
      // diagonal line), not a point. One vertex there would pinch the stroke to nothing and taper
      // it along its whole length; the end is the short side between the two lines instead.
      out.push(x - normalX[before]! * (normalX[before]! * x + normalY[before]! * y - offset[before]!));
      out.push(y - normalY[before]! * (normalX[before]! * x + normalY[before]! * y - offset[before]!));
      out.push(x - normalX[after]! * (normalX[after]! * x + normalY[after]! * y - offset[after]!));
      out.push(y - normalY[after]! * (normalX[after]! * x + normalY[after]! * y - offset[after]!));
      continue;
    }
    out.push(x, y);
  }
  return Float64Array.from(out);
}

/** Sides within this angle of antiparallel meet at a stroke end (isStrokeEnd). */
const STROKE_END_MAX_DEG = 12;
const STROKE_END_MIN_COS = Math.cos((STROKE_END_MAX_DEG * Math.PI) / 180);

/**
 * Whether kept vertex v joins two sides whose fitted lines are nearly parallel while the outline
 * reverses there (the sides run in opposite directions): a thin stroke's end.
 */
function isStrokeEnd(points: Float64Array, kept: readonly number[], v: number, before: number, after: number, normalX: Float64Array, normalY: Float64Array): boolean {
  const n = points.length / 2;
  const at = kept[v]! % n;
  const from = kept[before]! % n;
  const to = kept[after + 1]! % n;
  const inX = points[at * 2]! - points[from * 2]!;
  const inY = points[at * 2 + 1]! - points[from * 2 + 1]!;
  const outX = points[to * 2]! - points[at * 2]!;
  const outY = points[to * 2 + 1]! - points[at * 2 + 1]!;
  const inLength = Math.hypot(inX, inY);
  const outLength = Math.hypot(outX, outY);
  if (inLength === 0 || outLength === 0) return false;
  // Reversal: the chords point more against than along each other.
  if (inX * outX + inY * outY >= 0) return false;
  // Lines nearly parallel: their unit normals are (anti)parallel.
  return Math.abs(normalX[before]! * normalX[after]! + normalY[before]! * normalY[after]!) >= STROKE_END_MIN_COS;
}

/** Least-squares line through the outline vertices i … j (unwrapped), as a unit normal and offset. */
function fitSideLine(points: Float64Array, m: Moments, i: number, j: number, s: number, normalX: Float64Array, normalY: Float64Array, offset: Float64Array): void {
  const count = j - i + 1;
  const mx = (m.sx[j + 1]! - m.sx[i]!) / count;
  const my = (m.sy[j + 1]! - m.sy[i]!) / count;
  const a = (m.sxx[j + 1]! - m.sxx[i]!) / count - mx * mx;
  const b = (m.sxy[j + 1]! - m.sxy[i]!) / count - mx * my;
  const c = (m.syy[j + 1]! - m.syy[i]!) / count - my * my;
  // Direction of largest spread: the eigenvector of [[a, b], [b, c]] for the larger eigenvalue.
  const lambda = (a + c) / 2 + Math.sqrt(((a - c) / 2) ** 2 + b * b);
  let dx = b;
  let dy = lambda - a;
  if (Math.abs(lambda - c) > Math.abs(dy)) {
    dx = lambda - c;
    dy = b;
  }
  let length = Math.sqrt(dx * dx + dy * dy);
  if (length < 1e-12) {
    // No spread (a run of one point): the chord's direction.
    const n = points.length / 2;
    dx = points[(j % n) * 2]! - points[(i % n) * 2]!;
    dy = points[(j % n) * 2 + 1]! - points[(i % n) * 2 + 1]!;
    length = Math.sqrt(dx * dx + dy * dy) || 1;
  }
  normalX[s] = -dy / length;
  normalY[s] = dx / length;
  offset[s] = normalX[s]! * (mx + m.originX) + normalY[s]! * (my + m.originY);
}

/** The point of the square |p − (x0, y0)|∞ ≤ 1/2 with the least summed squared distance to two lines. */
function nearestToLines(
  x0: number,
  y0: number,
  normalX: Float64Array,
  normalY: Float64Array,
  offset: Float64Array,
  s: number,
  t: number,
): [number, number] {
  // Q(p) = Σ (n · p − d)² = pᵀ A p − 2 bᵀ p + const.
  const a11 = normalX[s]! ** 2 + normalX[t]! ** 2;
  const a12 = normalX[s]! * normalY[s]! + normalX[t]! * normalY[t]!;
  const a22 = normalY[s]! ** 2 + normalY[t]! ** 2;
  const b1 = offset[s]! * normalX[s]! + offset[t]! * normalX[t]!;
  const b2 = offset[s]! * normalY[s]! + offset[t]! * normalY[t]!;
  const q = (x: number, y: number): number => a11 * x * x + 2 * a12 * x * y + a22 * y * y - 2 * b1 * x - 2 * b2 * y;
  const det = a11 * a22 - a12 * a12;
  if (det > 1e-6) {
    const x = (b1 * a22 - b2 * a12) / det;
    const y = (a11 * b2 - a12 * b1) / det;
    if (Math.abs(x - x0) <= 0.5 && Math.abs(y - y0) <= 0.5) return [x, y];
  }
  // The minimum lies on the square's boundary: the best point of each edge.
  let bestX = x0;
  let bestY = y0;
  let best = q(x0, y0);
  for (const side of [-0.5, 0.5]) {
    const x = x0 + side;
    const y = a22 > 1e-12 ? clamp((b2 - a12 * x) / a22, y0 - 0.5, y0 + 0.5) : y0;
    const qx = q(x, y);
    if (qx < best) {
      best = qx;
      bestX = x;
      bestY = y;
    }
    const y2 = y0 + side;
    const x2 = a11 > 1e-12 ? clamp((b1 - a12 * y2) / a11, x0 - 0.5, x0 + 0.5) : x0;
    const qy = q(x2, y2);
    if (qy < best) {
      best = qy;
      bestX = x2;
      bestY = y2;
    }
  }
  return [bestX, bestY];
}

function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}
