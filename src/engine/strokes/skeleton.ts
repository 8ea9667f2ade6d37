/**
 * The skeleton of one region of ink, as a graph (tracelab.strokes).
 * In: a binary mask (1 = ink) of `width` × `height` with a one-pixel empty border.
 * Out: its one-pixel-thin, 8-connected skeleton (Zhang–Suen thinning, for wide ink with Lü–Wang's
 * end rule, then the staircase pixels a 4-step leaves removed), read as a graph: nodes are free
 * ends and junctions (adjacent junction pixels are one node; where only two edges meet, none),
 * edges the pixel runs between them; a ring without nodes is one closed edge. Spurs — edges from a
 * free end to a junction shorter than `spurPx` (the noise of a boundary, not a line the artist
 * drew; a wide line's stub running straight on through its junction is kept, and a junction's
 * only spur where the caller's test says it is a line) — are removed and the graph read again
 * until none is left.
 * Pure: every array is made here and returned or dropped.
 */

/** One edge: its pixels (indices into the mask) from node `from` to node `to` (−1: a ring). */
export interface SkeletonEdge {
  readonly pixels: readonly number[];
  readonly from: number;
  readonly to: number;
}

/** A node: a free end (one edge) or a junction (three or more), its pixels and their centre. */
export interface SkeletonNode {
  readonly pixels: readonly number[];
  readonly x: number;
  readonly y: number;
  /** Edges that end here (an edge from and to this node appears twice). */
  readonly degree: number;
}

export interface SkeletonGraph {
  readonly nodes: readonly SkeletonNode[];
  readonly edges: readonly SkeletonEdge[];
  /** Skeleton pixels (after spurs were removed). */
  readonly pixelCount: number;
}

/** The eight neighbours in circular order from north, clockwise (dx, dy). */
const RING_DX = [0, 1, 1, 1, 0, -1, -1, -1];
const RING_DY = [-1, -1, 0, 1, 1, 1, 0, -1];

/**
 * Thins `mask` in place to its skeleton (Zhang & Suen 1984, two sub-iterations until stable).
 * Each round peels one pixel off every side, so ink 2·k px wide needs k rounds: after `maxRounds`
 * the mask is left half thinned and false is returned (ink that wide is no line, and thinning a
 * large blob to the end would cost its width × its box). A pixel goes only with `leastNeighbours`
 * or more: 2 is Zhang–Suen's rule, 3 Lü and Wang's (1986), which keeps a diagonal line's ends.
 */
export function thin(mask: Uint8Array, width: number, height: number, maxRounds = Infinity, leastNeighbours: 2 | 3 = 2, ink?: Int32Array): boolean {
  // Only pixels on the ink's border can go (the test wants two empty neighbours or more): each
  // pass tests the border pixels alone, and pixels bared by a pass join them, so a round costs
  // the ink's border, not its box. The passes remove what a full scan would (every decision is
  // made on the mask as the pass found it).
  const border = borderPixels(mask, width, height, ink);
  const remove: number[] = [];
  let changed = true;
  let rounds = 0;
  while (changed) {
    if (rounds++ >= maxRounds) return false;
    changed = false;
    for (let pass = 0; pass < 2; pass++) {
      remove.length = 0;
      for (const i of border.pixels) if (mask[i] !== 0 && removable(mask, width, i, pass, leastNeighbours)) remove.push(i);
      for (const i of remove) mask[i] = 0;
      if (remove.length > 0) changed = true;
      bareNeighbours(border, mask, width, height, remove);
    }
  }
  removeStaircases(mask, width, height, ink);
  return true;
}

/** The pixels of ink beside an empty pixel (inside the mask's one-pixel frame), and a flag per pixel listed. */
interface InkBorder {
  pixels: number[];
  readonly listed: Uint8Array;
}

function borderPixels(mask: Uint8Array, width: number, height: number, ink: Int32Array | undefined): InkBorder {
  const border: InkBorder = { pixels: [], listed: new Uint8Array(mask.length) };
  inkInOrder(mask, width, height, ink, (i) => {
    for (let k = 0; k < 8; k++) {
      if (mask[i + RING_DY[k]! * width + RING_DX[k]!]) continue;
      border.pixels.push(i);
      border.listed[i] = 1;
      break;
    }
  });
  return border;
}

/**
 * Calls `visit` on each pixel of the mask's ink in raster order (inside its one-pixel frame), as
 * set when it is reached: from `ink` (a list, in raster order, of every pixel that may be set)
 * where the caller has one, else from a scan of the mask.
 */
function inkInOrder(mask: Uint8Array, width: number, height: number, ink: Int32Array | undefined, visit: (i: number) => void): void {
  if (ink) {
    for (let k = 0; k < ink.length; k++) if (mask[ink[k]!] !== 0) visit(ink[k]!);
    return;
  }
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      if (mask[i] !== 0) visit(i);
    }
  }
}

/** The border after `removed` went: removed pixels dropped, their ink neighbours (inside the frame) added. */
function bareNeighbours(border: InkBorder, mask: Uint8Array, width: number, height: number, removed: readonly number[]): void {
  if (removed.length === 0) return;
  border.pixels = border.pixels.filter((i) => mask[i] !== 0);
  for (const i of removed) {
    border.listed[i] = 0;
    for (let k = 0; k < 8; k++) {
      const j = i + RING_DY[k]! * width + RING_DX[k]!;
      const x = j % width;
      if (mask[j] === 0 || border.listed[j] || x < 1 || x >= width - 1 || j < width || j >= (height - 1) * width) continue;
      border.listed[j] = 1;
      border.pixels.push(j);
    }
  }
}

/** Zhang–Suen's test for pixel i in sub-iteration `pass`, with Lü and Wang's neighbour count. */
function removable(mask: Uint8Array, width: number, i: number, pass: number, leastNeighbours: number): boolean {
  const p2 = mask[i - width]!;
  const p3 = mask[i - width + 1]!;
  const p4 = mask[i + 1]!;
  const p5 = mask[i + width + 1]!;
  const p6 = mask[i + width]!;
  const p7 = mask[i + width - 1]!;
  const p8 = mask[i - 1]!;
  const p9 = mask[i - width - 1]!;
  const b = p2 + p3 + p4 + p5 + p6 + p7 + p8 + p9;
  // Lü & Wang (1986) ask for three neighbours, not Zhang–Suen's two: a pixel with two is the end
  // of a line two pixels thick on a diagonal, and taking it each pass ate the line from its end
  // (a check mark's short arm, 16 px wide at 45°, thinned to nothing).
  if (b < leastNeighbours || b > 6) return false;
  const a = (p2 === 0 && p3 === 1 ? 1 : 0) + (p3 === 0 && p4 === 1 ? 1 : 0) + (p4 === 0 && p5 === 1 ? 1 : 0) + (p5 === 0 && p6 === 1 ? 1 : 0) +
    (p6 === 0 && p7 === 1 ? 1 : 0) + (p7 === 0 && p8 === 1 ? 1 : 0) + (p8 === 0 && p9 === 1 ? 1 : 0) + (p9 === 0 && p2 === 1 ? 1 : 0);
  if (a !== 1) return false;
  return pass === 0 ? p2 * p4 * p6 === 0 && p4 * p6 * p8 === 0 : p2 * p4 * p8 === 0 && p2 * p6 * p8 === 0;
}

/**
 * Removes the corner pixel of each 4-connected step (N and E set, S, W and SW empty, and its
 * turns): its two neighbours touch diagonally, so the skeleton stays connected, and every pixel
 * of a plain line then has exactly two neighbours (no false junction at each step).
 */
function removeStaircases(mask: Uint8Array, width: number, height: number, ink: Int32Array | undefined): void {
  // In raster order, each pixel tested on the mask as the pixels before it left it (as a scan does).
  inkInOrder(mask, width, height, ink, (i) => {
    const n = mask[i - width]!;
    const e = mask[i + 1]!;
    const s = mask[i + width]!;
    const w = mask[i - 1]!;
    const ne = mask[i - width + 1]!;
    const se = mask[i + width + 1]!;
    const sw = mask[i + width - 1]!;
    const nw = mask[i - width - 1]!;
    if (
      (n && e && !s && !w && !sw) ||
      (e && s && !n && !w && !nw) ||
      (s && w && !n && !e && !ne) ||
      (w && n && !s && !e && !se)
    ) {
      mask[i] = 0;
    }
  });
}

/** Skeleton neighbours of pixel i (8-connected). */
function neighbours(mask: Uint8Array, width: number, i: number, out: number[]): number[] {
  out.length = 0;
  for (let k = 0; k < 8; k++) {
    const j = i + RING_DY[k]! * width + RING_DX[k]!;
    if (mask[j]) out.push(j);
  }
  return out;
}

/** Is the short branch from `junction` to the free end `end` a line the artist drew (kept), not a spur? */
export type LineEndTest = (end: SkeletonNode, junction: SkeletonNode) => boolean;

/**
 * The graph of a thinned mask, spurs shorter than `spurPx` removed (the mask is changed with
 * them) but a junction's only spur when `isLineEnd` keeps it (two or more at one junction are the
 * corners of a butt end or of a wedge's wide end). Junction nodes joined by an edge shorter than
 * `mergePx` become one node (an X drawn with width often thins to two nearby junctions).
 */
export function skeletonGraph(mask: Uint8Array, width: number, height: number, spurPx: number, mergePx: number, stubReachPx = 0, skeleton?: Int32Array, isLineEnd?: LineEndTest): SkeletonGraph {
  for (let round = 0; round < 8; round++) {
    const graph = readGraph(mask, width, height, mergePx, skeleton);
    const spurs = graph.edges.map((edge) => spurOf(graph, edge, width, spurPx, stubReachPx));
    const spursAt = new Int32Array(graph.nodes.length);
    for (const spur of spurs) if (spur) spursAt[spur.junction]!++;
    let pruned = false;
    spurs.forEach((spur, k) => {
      if (!spur) return;
      const [end, junction] = [graph.nodes[spur.end]!, graph.nodes[spur.junction]!];
      if (isLineEnd && spursAt[spur.junction] === 1 && isLineEnd(end, junction)) return;
      // The spur's own pixels go (its end node's too), the junction's stay.
      const keep = new Set(junction.pixels);
      for (const p of graph.edges[k]!.pixels) if (!keep.has(p)) mask[p] = 0;
      for (const p of end.pixels) mask[p] = 0;
      pruned = true;
    });
    if (!pruned) return graph;
  }
  return readGraph(mask, width, height, mergePx, skeleton);
}

/** The free end and the junction (nodes) of `edge` when it is a spur: shorter than `spurPx`, and no stub (isStub). */
function spurOf(graph: SkeletonGraph, edge: SkeletonEdge, width: number, spurPx: number, stubReachPx: number): { end: number; junction: number } | undefined {
  if (edge.from < 0 || edge.from === edge.to) return undefined;
  const a = graph.nodes[edge.from]!;
  const b = graph.nodes[edge.to]!;
  const spurEnd = a.degree === 1 && b.degree >= 3 ? edge.from : b.degree === 1 && a.degree >= 3 ? edge.to : -1;
  const length = edgeLength(edge.pixels, width);
  if (spurEnd < 0 || length >= spurPx) return undefined;
  const junction = spurEnd === edge.from ? edge.to : edge.from;
  return isStub(graph, edge, graph.nodes[junction]!, length, width, stubReachPx) ? undefined : { end: spurEnd, junction };
}

/** Branches within this angle of straight through a junction continue each other (runsStraightOn). */
const STRAIGHT_ON_COS = Math.cos((20 * Math.PI) / 180);

/**
 * Is the short `edge` (`lengthPx` long, a free end to `junction`) a line drawn on past the
 * junction? It is when it is half of `reachPx` (a line's width; 0: never) long or more and
 * continues another edge straight through the junction (within 20°): the thinning's spurs leave
 * a corner or an end at an angle, towards a corner of the ink, or are a few pixels long where they
 * run on (a bolt's corner). Directions from the junction's centre to each edge's pixel `reachPx`
 * along it (its last, on a shorter edge).
 */
function isStub(graph: SkeletonGraph, edge: SkeletonEdge, junction: SkeletonNode, lengthPx: number, width: number, reachPx: number): boolean {
  if (reachPx <= 0 || lengthPx < reachPx / 2) return false;
  const direction = (e: SkeletonEdge): [number, number] => {
    const run = graph.nodes[e.from] === junction ? e.pixels : [...e.pixels].reverse();
    const p = run[Math.min(run.length - 1, Math.round(reachPx))]!;
    const [dx, dy] = [(p % width) - junction.x, Math.floor(p / width) - junction.y];
    const length = Math.hypot(dx, dy) || 1;
    return [dx / length, dy / length];
  };
  const [sx, sy] = direction(edge);
  return graph.edges.some((other) => {
    if (other === edge || other.from < 0 || other.from === other.to || (graph.nodes[other.from] !== junction && graph.nodes[other.to] !== junction)) return false;
    const [ox, oy] = direction(other);
    return -(sx * ox + sy * oy) >= STRAIGHT_ON_COS;
  });
}

/** Euclidean length of a pixel run. */
export function edgeLength(pixels: readonly number[], width: number): number {
  let length = 0;
  for (let k = 1; k < pixels.length; k++) {
    const dx = (pixels[k]! % width) - (pixels[k - 1]! % width);
    const dy = Math.floor(pixels[k]! / width) - Math.floor(pixels[k - 1]! / width);
    length += Math.sqrt(dx * dx + dy * dy);
  }
  return length;
}

/** The graph of the thinned mask; `listed`: every pixel it may hold, in raster order, when the caller has them (else the mask is scanned). */
function readGraph(mask: Uint8Array, width: number, height: number, mergePx: number, listed: Int32Array | undefined): SkeletonGraph {
  const degree = new Uint8Array(mask.length);
  const scratch: number[] = [];
  // The skeleton's pixels in raster order (the loops below visit them, not the whole mask).
  const skeleton: number[] = [];
  inkInOrder(mask, width, height, listed, (i) => {
    skeleton.push(i);
    degree[i] = neighbours(mask, width, i, scratch).length;
  });
  const pixelCount = skeleton.length;
  // Node of each node pixel: junction pixels (3+ neighbours) that touch are one node; free ends
  // (1 neighbour) and isolated pixels (0) are nodes of their own.
  const nodeOf = new Int32Array(mask.length).fill(-1);
  const nodePixels: number[][] = [];
  for (const i of skeleton) {
    if (degree[i] === 2 || nodeOf[i]! >= 0) continue;
    const id = nodePixels.length;
    const pixels = [i];
    nodeOf[i] = id;
    if (degree[i]! >= 3) {
      for (let k = 0; k < pixels.length; k++) {
        for (const j of neighbours(mask, width, pixels[k]!, scratch)) {
          if (degree[j]! >= 3 && nodeOf[j]! < 0) {
            nodeOf[j] = id;
            pixels.push(j);
          }
        }
      }
    }
    nodePixels.push(pixels);
  }
  const edges = traceEdges(mask, width, degree, nodeOf, nodePixels, skeleton);
  return withoutTwoWayNodes(mergeJunctions(edges, nodePixels, degree, width, mergePx, pixelCount));
}

/**
 * A node where only two edges meet is no junction (a knot of pixels the thinning left in a line's
 * corner, or junctions merged into one with two ways out): its two edges become one run through it
 * (an edge from and to it becomes a ring), so the line is read as one, bends and all.
 */
function withoutTwoWayNodes(graph: SkeletonGraph): SkeletonGraph {
  const edges: (SkeletonEdge | undefined)[] = [...graph.edges];
  const gone = new Uint8Array(graph.nodes.length);
  graph.nodes.forEach((node, n) => {
    if (node.degree !== 2) return;
    const touching = edges.flatMap((e, k) => (e && e.from >= 0 && (e.from === n || e.to === n) ? [k] : []));
    gone[n] = 1;
    if (touching.length === 1) {
      const ring = edges[touching[0]!]!.pixels;
      edges[touching[0]!] = { pixels: ring[0] === ring[ring.length - 1] ? ring.slice(0, -1) : ring, from: -1, to: -1 };
      return;
    }
    const [a, b] = touching.map((k) => edges[k]!);
    const into = a!.to === n ? a!.pixels : [...a!.pixels].reverse();
    const out = b!.from === n ? b!.pixels : [...b!.pixels].reverse();
    const from = a!.to === n ? a!.from : a!.to;
    const to = b!.from === n ? b!.to : b!.from;
    edges[touching[0]!] = { pixels: [...into, ...(out[0] === into[into.length - 1] ? out.slice(1) : out)], from, to };
    edges[touching[1]!] = undefined;
  });
  if (!gone.includes(1)) return graph;
  const renumber = new Int32Array(graph.nodes.length).fill(-1);
  const nodes = graph.nodes.filter((_, n) => !gone[n]);
  let next = 0;
  graph.nodes.forEach((_, n) => (renumber[n] = gone[n] ? -1 : next++));
  const kept = edges.filter((e): e is SkeletonEdge => e !== undefined).map((e) => (e.from < 0 ? e : { pixels: e.pixels, from: renumber[e.from]!, to: renumber[e.to]! }));
  return { nodes, edges: kept, pixelCount: graph.pixelCount };
}

/** The runs of two-neighbour pixels between nodes, and the rings without a node (`skeleton`: the mask's pixels in raster order). */
function traceEdges(mask: Uint8Array, width: number, degree: Uint8Array, nodeOf: Int32Array, nodePixels: readonly number[][], skeleton: readonly number[]): SkeletonEdge[] {
  const walk: EdgeWalk = { mask, width, nodeOf, visited: new Uint8Array(mask.length), scratch: [] };
  const edges: SkeletonEdge[] = [];
  const around: number[] = [];
  for (let node = 0; node < nodePixels.length; node++) {
    for (const p of nodePixels[node]!) {
      for (const first of [...neighbours(mask, width, p, around)]) {
        if (nodeOf[first] === node) continue;
        if (nodeOf[first]! >= 0) {
          // Two nodes side by side: one edge between them, listed once (from the lower node).
          if (nodeOf[first]! > node) edges.push({ pixels: [p, first], from: node, to: nodeOf[first]! });
          continue;
        }
        if (walk.visited[first]) continue;
        edges.push(edgeFromNode(walk, node, p, first));
      }
    }
  }
  // Rings: two-neighbour pixels never reached from a node.
  for (const i of skeleton) {
    if (walk.visited[i] || nodeOf[i]! >= 0 || degree[i] !== 2) continue;
    const pixels = ringFrom(walk, i);
    if (pixels.length >= 3) edges.push({ pixels, from: -1, to: -1 });
  }
  return edges;
}

/** What traceEdges' walks share: the skeleton, its nodes, the pixels walked, a neighbour list. */
interface EdgeWalk {
  readonly mask: Uint8Array;
  readonly width: number;
  readonly nodeOf: Int32Array;
  readonly visited: Uint8Array;
  readonly scratch: number[];
}

/** The edge leaving `node` at its pixel `start` through `first`, walked to the node it ends at (itself when it ends free). */
function edgeFromNode(walk: EdgeWalk, node: number, start: number, first: number): SkeletonEdge {
  const { mask, width, nodeOf, visited, scratch } = walk;
  const pixels = [start];
  let prev = start;
  let at = first;
  let to = -1;
  for (;;) {
    pixels.push(at);
    if (nodeOf[at]! >= 0) {
      to = nodeOf[at]!;
      break;
    }
    visited[at] = 1;
    let next = -1;
    for (const j of neighbours(mask, width, at, scratch)) {
      if (j === prev || (visited[j] && nodeOf[j]! < 0)) continue;
      // Back into the node it started from, but not straight back to the start pixel.
      if (nodeOf[j]! >= 0 && j !== prev) {
        next = j;
        break;
      }
      if (next < 0) next = j;
    }
    if (next < 0) break;
    prev = at;
    at = next;
  }
  return { pixels, from: node, to: to >= 0 ? to : node };
}

/** A ring of two-neighbour pixels from `start`, walked until it closes (its pixels marked visited). */
function ringFrom(walk: EdgeWalk, start: number): number[] {
  const { mask, width, visited, scratch } = walk;
  const pixels = [start];
  visited[start] = 1;
  let prev = -1;
  let at = start;
  for (;;) {
    let next = -1;
    for (const j of neighbours(mask, width, at, scratch)) {
      if (j !== prev && !visited[j]) {
        next = j;
        break;
      }
    }
    if (next < 0) break;
    visited[next] = 1;
    pixels.push(next);
    prev = at;
    at = next;
  }
  return pixels;
}

/**
 * Junctions joined by an edge shorter than mergePx become one node (its pixels absorbed); the
 * nodes are then renumbered, with their centres and degrees.
 */
function mergeJunctions(edges: SkeletonEdge[], nodePixels: number[][], degree: Uint8Array, width: number, mergePx: number, pixelCount: number): SkeletonGraph {
  const { rootOf, absorbed } = shortJunctionLinks(edges, nodePixels, degree, width, mergePx);
  const { renumber, nodes } = mergedNodes(nodePixels, rootOf);
  const kept: SkeletonEdge[] = [];
  for (const edge of edges) {
    if (absorbed.has(edge)) {
      nodes[renumber[edge.from]!]!.pixels.push(...edge.pixels.slice(1, -1));
      continue;
    }
    if (edge.from < 0) {
      kept.push(edge);
      continue;
    }
    const from = renumber[edge.from]!;
    const to = renumber[edge.to]!;
    nodes[from]!.degree++;
    nodes[to]!.degree++;
    kept.push({ pixels: edge.pixels, from, to });
  }
  return { nodes: nodes.map((n) => nodeAtCentre(n, width)), edges: kept, pixelCount };
}

/**
 * The edges shorter than mergePx between junctions (or a bubble inside one), absorbed, and the
 * union-find root of each node once the junctions they join are one.
 */
function shortJunctionLinks(edges: readonly SkeletonEdge[], nodePixels: readonly number[][], degree: Uint8Array, width: number, mergePx: number): { rootOf: (k: number) => number; absorbed: Set<SkeletonEdge> } {
  const parent = nodePixels.map((_, k) => k);
  const rootOf = (k: number): number => {
    while (parent[k] !== k) k = parent[k] = parent[parent[k]!]!;
    return k;
  };
  const isJunction = (k: number): boolean => nodePixels[k]!.length > 1 || degree[nodePixels[k]![0]!]! >= 3;
  const absorbed = new Set<SkeletonEdge>();
  for (const edge of edges) {
    if (edge.from < 0 || !isJunction(edge.from) || !isJunction(edge.to)) continue;
    if (edgeLength(edge.pixels, width) >= mergePx) continue;
    if (edge.from === edge.to) {
      // A bubble of a few pixels inside one junction: part of it.
      absorbed.add(edge);
      continue;
    }
    const a = rootOf(edge.from);
    const b = rootOf(edge.to);
    if (a === b) continue;
    parent[b] = a;
    absorbed.add(edge);
  }
  return { rootOf, absorbed };
}

/** The merged nodes in order of their first member, with each old node's new number. */
function mergedNodes(nodePixels: readonly number[][], rootOf: (k: number) => number): { renumber: Int32Array; nodes: { pixels: number[]; degree: number }[] } {
  const renumber = new Int32Array(nodePixels.length).fill(-1);
  const nodes: { pixels: number[]; degree: number }[] = [];
  for (let k = 0; k < nodePixels.length; k++) {
    const root = rootOf(k);
    if (renumber[root]! < 0) {
      renumber[root] = nodes.length;
      nodes.push({ pixels: [], degree: 0 });
    }
    renumber[k] = renumber[root]!;
    nodes[renumber[k]!]!.pixels.push(...nodePixels[k]!);
  }
  return { renumber, nodes };
}

/** A node placed at the mean of its pixels. */
function nodeAtCentre(n: { pixels: number[]; degree: number }, width: number): SkeletonNode {
  let sx = 0;
  let sy = 0;
  for (const p of n.pixels) {
    sx += p % width;
    sy += Math.floor(p / width);
  }
  return { pixels: n.pixels, x: sx / n.pixels.length, y: sy / n.pixels.length, degree: n.degree };
}
