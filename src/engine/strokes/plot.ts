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

/**
 * Open paths of one colour and width whose ends meet, joined; open paths whose ends meet, closed.
 * Ends are found through a grid of joinPx cells (an end's partner lies in its cell or a
 * neighbouring one), so a drawing of a thousand strokes does not compare every pair.
 */
export function joinPaths(paths: readonly PenPath[], joinPx: number): PenPath[] {
  const open: (PenPath | undefined)[] = [];
  const out: PenPath[] = [];
  for (const p of paths) (p.points && !p.closed ? open : out).push(p);
  const cell = Math.max(joinPx, 1e-6);
  const ends = new Map<string, number[]>();
  const cellKey = (x: number, y: number): string => `${Math.floor(x / cell)},${Math.floor(y / cell)}`;
  const index = (j: number): void => {
    const p = open[j]!;
    for (const key of [cellKey(p.startX, p.startY), cellKey(p.endX, p.endY)]) {
      const list = ends.get(key);
      if (list) list.push(j);
      else ends.set(key, [j]);
    }
  };
  for (let j = 0; j < open.length; j++) index(j);
  const near = (x: number, y: number, except: number): number[] => {
    const found: number[] = [];
    const cx = Math.floor(x / cell);
    const cy = Math.floor(y / cell);
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        for (const j of ends.get(`${cx + dx},${cy + dy}`) ?? []) if (j !== except && open[j] && !found.includes(j)) found.push(j);
      }
    }
    return found.sort((a, b) => a - b);
  };
  for (let i = 0; i < open.length; i++) {
    let a = open[i];
    if (!a) continue;
    open[i] = undefined;
    let grown = true;
    while (grown) {
      grown = false;
      const candidates = [...near(a.startX, a.startY, i), ...near(a.endX, a.endY, i)].sort((p, q) => p - q);
      for (const j of candidates) {
        const b = open[j];
        if (!b || b.colorKey !== a.colorKey || Math.abs(b.widthPx - a.widthPx) > 0.1 * Math.max(a.widthPx, b.widthPx)) continue;
        const joined = joinTwo(a, b, joinPx);
        if (!joined) continue;
        open[j] = undefined;
        a = joined;
        grown = true;
        break;
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
  const pen = { x: 0, y: 0, first: true };
  for (const color of colors) {
    const group = paths.filter((p) => p.colorKey === color);
    const waiting = innerCounts(group);
    const done = new Uint8Array(group.length);
    const pick: Pick = { index: -1, distance2: Infinity, reverse: false, vertex: 0 };
    for (let step = 0; step < group.length; step++) {
      nearestPath(group, done, waiting, pen, pick);
      // Boxes inside each other both ways (equal boxes) wait for each other: take the first left.
      if (pick.index < 0) Object.assign(pick, { index: done.indexOf(0), reverse: false, vertex: 0 });
      pen.first = false;
      done[pick.index] = 1;
      const chosen = group[pick.index]!;
      if (chosen.closed) for (let i = 0; i < group.length; i++) if (!done[i] && group[i]!.closed && inside(chosen.box, group[i]!.box)) waiting[i]!--;
      const placed = chosen.points && (pick.reverse || pick.vertex > 0)
        ? polylinePath(pick.reverse ? reversed(chosen.points) : rotated(chosen.points, pick.vertex), chosen.closed, chosen.colorKey, chosen.widthPx, chosen.tag)
        : chosen;
      out.push(placed);
      pen.x = placed.endX;
      pen.y = placed.endY;
    }
  }
  return out;
}

/** The path nearestPath chose: its index, squared distance, and whether to reverse it or start it at a vertex. */
interface Pick {
  index: number;
  distance2: number;
  reverse: boolean;
  vertex: number;
}

/** Per closed path, how many closed paths of the group lie inside its box (0 for an open one). */
function innerCounts(group: readonly PenPath[]): Int32Array {
  const counts = new Int32Array(group.length);
  for (let i = 0; i < group.length; i++) {
    if (!group[i]!.closed) continue;
    for (let j = 0; j < group.length; j++) if (j !== i && group[j]!.closed && inside(group[j]!.box, group[i]!.box)) counts[i]!++;
  }
  return counts;
}

/** The free path nearest the pen (squared distances; the first path: nearest the page's corner). */
function nearestPath(group: readonly PenPath[], done: Uint8Array, waiting: Int32Array, pen: { x: number; y: number; first: boolean }, pick: Pick): void {
  pick.index = -1;
  pick.distance2 = Infinity;
  pick.reverse = false;
  pick.vertex = 0;
  const px = pen.first ? 0 : pen.x;
  const py = pen.first ? 0 : pen.y;
  // First the ends and starts (cheap), then the vertices of the closed lines whose box is nearer
  // than the best so far (the box is never farther than any vertex): most are never walked.
  for (let i = 0; i < group.length; i++) {
    if (done[i] || waiting[i]! > 0) continue;
    const p = group[i]!;
    const toStart = squared(p.startX - px, p.startY - py);
    if (toStart < pick.distance2) setPick(pick, i, toStart, false, 0);
    if (pen.first || p.closed) continue;
    const toEnd = squared(p.endX - px, p.endY - py);
    if (toEnd < pick.distance2) setPick(pick, i, toEnd, true, 0);
  }
  if (pen.first) return;
  for (let i = 0; i < group.length; i++) {
    if (done[i] || waiting[i]! > 0) continue;
    const p = group[i]!;
    if (!p.closed || !p.points || boxDistance2(p.box, px, py) >= pick.distance2) continue;
    const k = nearestVertex(p.points, px, py);
    const d = squared(p.points[2 * k]! - px, p.points[2 * k + 1]! - py);
    if (d < pick.distance2) setPick(pick, i, d, false, k);
  }
}

function setPick(pick: Pick, index: number, distance2: number, reverse: boolean, vertex: number): void {
  pick.index = index;
  pick.distance2 = distance2;
  pick.reverse = reverse;
  pick.vertex = vertex;
}

function squared(dx: number, dy: number): number {
  return dx * dx + dy * dy;
}

/** Squared distance from (x, y) to the box (0 inside it). */
function boxDistance2(box: readonly number[], x: number, y: number): number {
  const dx = Math.max(box[0]! - x, 0, x - box[2]!);
  const dy = Math.max(box[1]! - y, 0, y - box[3]!);
  return dx * dx + dy * dy;
}

function nearestVertex(points: Float64Array, x: number, y: number): number {
  let best = 0;
  let bestDistance = Infinity;
  for (let k = 0; k < points.length / 2; k++) {
    const d = squared(points[2 * k]! - x, points[2 * k + 1]! - y);
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
