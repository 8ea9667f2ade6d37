/**
 * A fitted primitive as the chain's new geometry.
 * In: the primitive's outline as nodes (corners, and the arcs reaching them) and the direction the
 * chain runs. Out: a PrimitiveFit's start and segments, running the chain's way so that its left
 * and right regions stay where they were.
 */
import { SegmentPath } from '../segment-path.js';
import type { Segment, ShapePrimitive } from '../types.js';
import { hypot2 } from '../length.js';

/** A family's answer: the primitive, the chain's segments and how well it fits the samples. */
export interface PrimitiveFit {
  readonly startX: number;
  readonly startY: number;
  readonly segments: SegmentPath;
  readonly primitive: ShapePrimitive;
  /** Mean and largest distance (px) from the samples to the primitive. */
  readonly meanError: number;
  readonly maxError: number;
}

/**
 * Path node: reached from the previous node by a line (arc = 0) or an arc of radius `arc` — a
 * circular arc, or with `ry` an elliptical one (x radius `arc`, turned by `arcDeg`). Arcs bend
 * the way the loop turns (convex corners) and span less than half a turn.
 */
export interface PathNode {
  readonly x: number;
  readonly y: number;
  readonly arc: number;
  readonly ry?: number;
  readonly arcDeg?: number;
}

export function polygonNodes(vertices: readonly (readonly [number, number])[]): PathNode[] {
  return vertices.map(([x, y]) => ({ x, y, arc: 0 }));
}

/**
 * Segments of a closed path of nodes, run clockwise on screen (positive shoelace) or the other
 * way, so the chain keeps its direction (and its left and right regions). Zero-length pieces go.
 */
export function emit(nodes: readonly PathNode[], clockwise: boolean): { startX: number; startY: number; segments: SegmentPath } {
  let area = 0;
  for (let i = 0; i < nodes.length; i++) {
    const a = nodes[i]!;
    const b = nodes[(i + 1) % nodes.length]!;
    area += a.x * b.y - b.x * a.y;
  }
  const sameWay = area > 0 === clockwise;
  const m = nodes.length;
  // Walk: each step goes from node `from` to node `to` by the piece stored on the node reached.
  const order: PathNode[] = [];
  if (sameWay) for (let i = 0; i < m; i++) order.push(nodes[i]!);
  else {
    // Reversed: node i is reached from node i+1 by the piece node i+1 was reached with.
    for (let i = 0; i < m; i++) {
      const at = nodes[(m - i) % m]!;
      const via = nodes[(m - i + 1) % m]!;
      order.push({ ...via, x: at.x, y: at.y });
    }
  }
  const sweep = clockwise;
  const start = order[0]!;
  const segments: Segment[] = [];
  let x = start.x;
  let y = start.y;
  for (let i = 1; i <= m; i++) {
    const node = order[i % m]!;
    if (hypot2(node.x - x, node.y - y) < 1e-9) continue;
    if (node.arc > 0) segments.push({ kind: 'arc', rx: node.arc, ry: node.ry ?? node.arc, rotationDeg: node.arcDeg ?? 0, largeArc: false, sweep, x: node.x, y: node.y });
    else segments.push({ kind: 'line', x: node.x, y: node.y });
    x = node.x;
    y = node.y;
  }
  // The closing piece must end exactly on the start.
  const last = segments[segments.length - 1];
  if (last && (last.x !== start.x || last.y !== start.y)) segments[segments.length - 1] = { ...last, x: start.x, y: start.y };
  return { startX: start.x, startY: start.y, segments: SegmentPath.of(segments) };
}
