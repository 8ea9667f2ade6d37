/**
 * Pen paths made ready for a machine (tracelab.strokes=centerline).
 * In: pen paths — open or closed polylines (centre-lines) and closed outlines — each with a colour.
 * Out: the same paths with ends that meet joined into one path, and all of them in pen order.
 * Rules (vpype's linemerge and linesort, LightBurn's "inner shapes first"):
 * - two open paths of one colour and a width within 10 % whose ends lie within `joinPx` are one
 *   path (reversing one where needed); an open path whose two ends meet is closed;
 * - colours are drawn one after another (in the order they come), each colour's paths by greedy
 *   nearest neighbour from where the pen is: an open path from its nearer end (reversed when that
 *   is its end), a closed centre-line from its vertex nearest the pen; a closed path only once
 *   every closed path of its colour inside its box is drawn (inner loops before outer).
 * Pure: paths in, new paths out.
 */

/** One path for the pen; `points` for a polyline (x, y pairs), else an outline drawn as it is. */
export interface PenPath {
  readonly colorKey: number;
  readonly widthPx: number;
  readonly closed: boolean;
  /** Centre-line points (a closed one does not repeat its first point); absent for an outline. */
  readonly points?: Float64Array;
  /** For an outline: where it starts (and ends) and its length. */
  readonly startX: number;
  readonly startY: number;
  readonly endX: number;
  readonly endY: number;
  readonly lengthPx: number;
  readonly box: readonly [number, number, number, number];
  /** What the caller needs back (the outline's loop, the cap, the colour). */
  readonly tag: number;
}

/** A polyline as a pen path. */
export function polylinePath(points: Float64Array, closed: boolean, colorKey: number, widthPx: number, tag: number): PenPath {
  const n = points.length / 2;
  let length = 0;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let k = 0; k < n; k++) {
    const x = points[2 * k]!;
    const y = points[2 * k + 1]!;
    if (k > 0) length += Math.hypot(x - points[2 * k - 2]!, y - points[2 * k - 1]!);
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x);
    y1 = Math.max(y1, y);
  }
  if (closed && n > 1) length += Math.hypot(points[0]! - points[2 * n - 2]!, points[1]! - points[2 * n - 1]!);
  return {
    colorKey,
    widthPx,
    closed,
    points,
    startX: points[0]!,
    startY: points[1]!,
    endX: closed ? points[0]! : points[2 * n - 2]!,
    endY: closed ? points[1]! : points[2 * n - 1]!,
    lengthPx: length,
    box: [x0, y0, x1, y1],
    tag,
  };
}

/** Open paths of one colour and width whose ends meet, joined; open paths whose ends meet, closed. */
export function joinPaths(paths: readonly PenPath[], joinPx: number): PenPath[] {
  const open: (PenPath | undefined)[] = [];
  const out: PenPath[] = [];
  for (const p of paths) (p.points && !p.closed ? open : out).push(p);
  for (let i = 0; i < open.length; i++) {
    let a = open[i];
    if (!a) continue;
    open[i] = undefined;
    let grown = true;
    while (grown) {
      grown = false;
      for (let j = 0; j < open.length; j++) {
        const b = open[j];
        if (!b || b.colorKey !== a.colorKey || Math.abs(b.widthPx - a.widthPx) > 0.1 * Math.max(a.widthPx, b.widthPx)) continue;
        const joined = joinTwo(a, b, joinPx);
        if (!joined) continue;
        open[j] = undefined;
        a = joined;
        grown = true;
      }
    }
    const n = a.points!.length / 2;
    if (n > 2 && Math.hypot(a.startX - a.endX, a.startY - a.endY) <= joinPx) {
      out.push(polylinePath(a.points!.slice(0, 2 * n - 2), true, a.colorKey, a.widthPx, a.tag));
    } else out.push(a);
  }
  // Back in the order the paths came (by their first tag), so that the result depends on the input only.
  return out.sort((p, q) => p.tag - q.tag);
}

/** a and b as one path when an end of one lies within joinPx of an end of the other. */
function joinTwo(a: PenPath, b: PenPath, joinPx: number): PenPath | undefined {
  const near = (x1: number, y1: number, x2: number, y2: number): boolean => Math.hypot(x1 - x2, y1 - y2) <= joinPx;
  let first: Float64Array;
  let second: Float64Array;
  if (near(a.endX, a.endY, b.startX, b.startY)) [first, second] = [a.points!, b.points!];
  else if (near(a.endX, a.endY, b.endX, b.endY)) [first, second] = [a.points!, reversed(b.points!)];
  else if (near(a.startX, a.startY, b.endX, b.endY)) [first, second] = [b.points!, a.points!];
  else if (near(a.startX, a.startY, b.startX, b.startY)) [first, second] = [reversed(b.points!), a.points!];
  else return undefined;
  const points = new Float64Array(first.length + second.length - 2);
  points.set(first);
  points.set(second.subarray(2), first.length);
  const widthPx = (a.widthPx * a.lengthPx + b.widthPx * b.lengthPx) / Math.max(1e-9, a.lengthPx + b.lengthPx);
  return polylinePath(points, false, a.colorKey, a.lengthPx + b.lengthPx > 0 ? widthPx : a.widthPx, Math.min(a.tag, b.tag));
}

export function reversed(points: Float64Array): Float64Array {
  const n = points.length / 2;
  const out = new Float64Array(points.length);
  for (let k = 0; k < n; k++) {
    out[2 * k] = points[2 * (n - 1 - k)]!;
    out[2 * k + 1] = points[2 * (n - 1 - k) + 1]!;
  }
  return out;
}

/** A closed polyline started at vertex k. */
function rotated(points: Float64Array, k: number): Float64Array {
  if (k === 0) return points;
  const out = new Float64Array(points.length);
  out.set(points.subarray(2 * k));
  out.set(points.subarray(0, 2 * k), points.length - 2 * k);
  return out;
}

/** The paths in pen order (see the header), with their direction and start chosen. */
export function orderPaths(paths: readonly PenPath[]): PenPath[] {
  const colors: number[] = [];
  for (const p of paths) if (!colors.includes(p.colorKey)) colors.push(p.colorKey);
  const out: PenPath[] = [];
  let penX = 0;
  let penY = 0;
  let first = true;
  for (const color of colors) {
    const group = paths.filter((p) => p.colorKey === color);
    const inner = group.map((p, i) => (p.closed ? group.filter((q, j) => j !== i && q.closed && inside(q.box, p.box)).length : 0));
    const done = new Uint8Array(group.length);
    const waiting = inner.slice();
    for (let step = 0; step < group.length; step++) {
      let best = -1;
      let bestDistance = Infinity;
      let bestReverse = false;
      let bestVertex = 0;
      for (let i = 0; i < group.length; i++) {
        if (done[i] || waiting[i]! > 0) continue;
        const p = group[i]!;
        if (first) {
          // The first path: the one whose start is nearest the page's corner.
          const d = Math.hypot(p.startX, p.startY);
          if (d < bestDistance) [best, bestDistance, bestReverse, bestVertex] = [i, d, false, 0];
          continue;
        }
        const toStart = Math.hypot(p.startX - penX, p.startY - penY);
        if (toStart < bestDistance) [best, bestDistance, bestReverse, bestVertex] = [i, toStart, false, 0];
        if (!p.closed) {
          const toEnd = Math.hypot(p.endX - penX, p.endY - penY);
          if (toEnd < bestDistance) [best, bestDistance, bestReverse, bestVertex] = [i, toEnd, true, 0];
        } else if (p.points) {
          const k = nearestVertex(p.points, penX, penY);
          const d = Math.hypot(p.points[2 * k]! - penX, p.points[2 * k + 1]! - penY);
          if (d < bestDistance) [best, bestDistance, bestReverse, bestVertex] = [i, d, false, k];
        }
      }
      if (best < 0) {
        // Boxes inside each other both ways (equal boxes): take the first left.
        best = done.indexOf(0);
        bestReverse = false;
        bestVertex = 0;
      }
      first = false;
      done[best] = 1;
      const chosen = group[best]!;
      for (let i = 0; i < group.length; i++) if (!done[i] && group[i]!.closed && chosen.closed && inside(chosen.box, group[i]!.box)) waiting[i]!--;
      const placed = chosen.points && (bestReverse || bestVertex > 0)
        ? polylinePath(bestReverse ? reversed(chosen.points) : rotated(chosen.points, bestVertex), chosen.closed, chosen.colorKey, chosen.widthPx, chosen.tag)
        : chosen;
      out.push(placed);
      penX = placed.endX;
      penY = placed.endY;
    }
  }
  return out;
}

function nearestVertex(points: Float64Array, x: number, y: number): number {
  let best = 0;
  let bestDistance = Infinity;
  for (let k = 0; k < points.length / 2; k++) {
    const d = Math.hypot(points[2 * k]! - x, points[2 * k + 1]! - y);
    if (d < bestDistance) {
      bestDistance = d;
      best = k;
    }
  }
  return best;
}

/** Box a lies inside box b (x0, y0, x1, y1). */
function inside(a: readonly number[], b: readonly number[]): boolean {
  return a[0]! >= b[0]! && a[1]! >= b[1]! && a[2]! <= b[2]! && a[3]! <= b[3]!;
}

/** Pen-down (drawn) and pen-up (travel between paths) lengths of paths drawn in this order. */
export function penLengths(paths: readonly PenPath[]): { penDownPx: number; penUpPx: number } {
  let penDownPx = 0;
  let penUpPx = 0;
  for (let k = 0; k < paths.length; k++) {
    penDownPx += paths[k]!.lengthPx;
    if (k > 0) penUpPx += Math.hypot(paths[k]!.startX - paths[k - 1]!.endX, paths[k]!.startY - paths[k - 1]!.endY);
  }
  return { penDownPx, penUpPx };
}
