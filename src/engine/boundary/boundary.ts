/**
 * Stage 5: the shared boundary graph (planar crack graph, cf. TopoJSON arcs).
 * In: a region id per pixel (-1 = transparent; outside the image counts as -1 too).
 * Out: chains — maximal runs of pixel cracks between the same two regions, ending at junction
 * vertices (3+ boundary cracks meet) or closing on themselves — and, per region, its loops as
 * cyclic lists of chain uses with the region on the left. Each border is stored once and later
 * fitted once, so two neighbours can never disagree about it (no gaps by construction).
 *
 * Lattice conventions: vertex (x, y) is the corner between pixels; directions 0=E 1=S 2=W 3=N
 * (y down). Walking a chain, `left`/`right` are the regions on each side.
 */

import { isLinkedFor, LINK_TL_BR, LINK_TR_BL } from '../regions/diagonals.js';

export const DX = [1, 0, -1, 0] as const;
export const DY = [0, 1, 0, -1] as const;

export interface ChainGraph {
  readonly count: number;
  /** Start vertex per chain. */
  readonly startX: Int32Array;
  readonly startY: Int32Array;
  /** Step directions of all chains, concatenated; chain c owns dirs[dirStart[c] .. dirStart[c+1]). */
  readonly dirs: Uint8Array;
  readonly dirStart: Int32Array;
  readonly left: Int32Array;
  readonly right: Int32Array;
  /** 1 when the chain has no junction and closes on itself. */
  readonly closed: Uint8Array;
}

/**
 * Every region's loops, flat: loop l is the encoded chain uses (chain * 2 + (reversed ? 1 : 0))
 * uses[useFrom[l] .. useTo[l]), and region r owns loops loopStart[r] .. loopStart[r + 1], in the
 * order the walk found them. Typed arrays rather than an array per region and per loop (two
 * empty arrays per region alone were a large share of the stage's garbage).
 */
export interface RegionLoops {
  readonly uses: Int32Array;
  readonly useFrom: Int32Array;
  readonly useTo: Int32Array;
  /** Signed lattice area per loop (negative = outer loop with the region on the left). */
  readonly loopArea: Float64Array;
  readonly loopStart: Int32Array;
}

/**
 * `pinchLinks` (line art): a vertex where one region touches itself diagonally through a linked
 * pair (diagonals.ts) is no junction; each of its two boundaries turns round the corner of the
 * unlinked pixel and goes on, as potrace's path decomposition does. A one-pixel diagonal stroke is
 * then one outline on each side instead of stubs that all end at the same lattice points.
 */
export function buildChainGraph(regionOf: Int32Array, width: number, height: number, pinchLinks?: Uint8Array): ChainGraph {
  // One loop per helper: V8 compiles a long function again for each hot loop it reaches, and
  // deoptimises on code after the loop that had not run yet; small functions compile once.
  const isBoundaryCrack = boundaryCracks(regionOf, width, height);
  const degree = vertexDegrees(isBoundaryCrack, width, height);
  if (pinchLinks) markPinches(degree, pinchLinks, regionOf, width, height);
  const walker = new ChainWalker(regionOf, width, height, isBoundaryCrack, degree);
  walkFromJunctions(walker, isBoundaryCrack, degree, width, height);
  walkClosedBorders(walker, isBoundaryCrack, width, height);
  return walker.graph();
}

/**
 * 1 per crack between two different regions (or a region and the outside) — 2 once a chain walk has
 * taken it (ChainWalker): horizontal cracks
 * first (width × (height + 1)), then vertical ones ((width + 1) × height). Written without helper
 * calls: this loop touches every crack once, usually before the JIT has optimised anything.
 */
function boundaryCracks(regionOf: Int32Array, width: number, height: number): Uint8Array {
  const hCount = width * (height + 1);
  const isBoundaryCrack = new Uint8Array(hCount + (width + 1) * height);
  for (let x = 0; x < width; x++) {
    if (regionOf[x]! !== -1) isBoundaryCrack[x] = 1;
    if (regionOf[(height - 1) * width + x]! !== -1) isBoundaryCrack[height * width + x] = 1;
  }
  for (let y = 1; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) if (regionOf[row - width + x] !== regionOf[row + x]) isBoundaryCrack[row + x] = 1;
  }
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const crackRow = hCount + y * (width + 1);
    if (regionOf[row]! !== -1) isBoundaryCrack[crackRow] = 1;
    if (regionOf[row + width - 1]! !== -1) isBoundaryCrack[crackRow + width] = 1;
    for (let x = 1; x < width; x++) if (regionOf[row + x - 1] !== regionOf[row + x]) isBoundaryCrack[crackRow + x] = 1;
  }
  return isBoundaryCrack;
}

/** Boundary cracks meeting at each vertex: 2 = the chain goes on, 3–4 = junction (5–6: pinches, markPinches). */
function vertexDegrees(isBoundaryCrack: Uint8Array, width: number, height: number): Uint8Array {
  const hCount = width * (height + 1);
  const degree = new Uint8Array((width + 1) * (height + 1));
  for (let y = 0; y <= height; y++) {
    for (let x = 0; x < width; x++) {
      if (isBoundaryCrack[y * width + x]) {
        degree[y * (width + 1) + x]!++;
        degree[y * (width + 1) + x + 1]!++;
      }
    }
  }
  for (let y = 0; y < height; y++) {
    for (let x = 0; x <= width; x++) {
      if (isBoundaryCrack[hCount + y * (width + 1) + x]) {
        degree[y * (width + 1) + x]!++;
        degree[(y + 1) * (width + 1) + x]!++;
      }
    }
  }
  return degree;
}

/** Degree code of a pinch vertex whose TL–BR pixels are linked (the boundaries turn round TR and BL). */
const PINCH_MAIN = 5;
/** Degree code of a pinch vertex whose TR–BL pixels are linked (the boundaries turn round TL and BR). */
const PINCH_ANTI = 6;

function markPinches(degree: Uint8Array, links: Uint8Array, regionOf: Int32Array, width: number, height: number): void {
  for (let y = 1; y < height; y++) {
    for (let x = 1; x < width; x++) {
      const v = y * (width + 1) + x;
      if (degree[v] !== 4) continue;
      const link = links[v]!;
      if (link === LINK_TL_BR && regionOf[(y - 1) * width + x - 1] === regionOf[y * width + x]) degree[v] = PINCH_MAIN;
      else if (link === LINK_TR_BL && regionOf[(y - 1) * width + x] === regionOf[y * width + x - 1]) degree[v] = PINCH_ANTI;
    }
  }
}

/** The direction out of a pinch vertex for a walk arriving in direction d (0=E 1=S 2=W 3=N). */
function pinchTurn(code: number, d: number): number {
  // TL–BR linked: N crack ↔ E crack (round TR), S crack ↔ W crack (round BL): moving S or N
  // turns left (E / W), moving E or W turns right (S / N). TR–BL linked: the mirror image.
  const turnLeft = code === PINCH_MAIN ? (d & 1) === 1 : (d & 1) === 0;
  return turnLeft ? (d + 3) & 3 : (d + 1) & 3;
}

/** Walks every chain leaving a junction vertex, in raster order of the vertices, E S W N. */
function walkFromJunctions(walker: ChainWalker, isBoundaryCrack: Uint8Array, degree: Uint8Array, width: number, height: number): void {
  const hCount = width * (height + 1);
  for (let y = 0; y <= height; y++) {
    for (let x = 0; x <= width; x++) {
      const deg = degree[y * (width + 1) + x]!;
      if (deg < 3 || deg > 4) continue;
      for (let d = 0; d < 4; d++) {
        // A step off the lattice is no boundary step.
        if ((d === 0 && x >= width) || (d === 2 && x <= 0) || (d === 1 && y >= height) || (d === 3 && y <= 0)) continue;
        const crack = crackIndex(x, y, d, width, hCount);
        if (isBoundaryCrack[crack] === 1) walker.walk(x, y, d);
      }
    }
  }
}

/** What is left are closed borders without junctions: each starts at its top-left crack, east. */
function walkClosedBorders(walker: ChainWalker, isBoundaryCrack: Uint8Array, width: number, height: number): void {
  for (let y = 0; y <= height; y++) {
    for (let x = 0; x < width; x++) {
      // isBoundaryCrack of a horizontal crack = the pixels above and below it differ (1: not walked yet).
      if (isBoundaryCrack[y * width + x] === 1) walker.walk(x, y, 0);
    }
  }
}

/**
 * Walks chains of boundary cracks for buildChainGraph and collects them. A class rather than
 * closures inside buildChainGraph: closures are new functions on every call, and V8 optimises
 * them afresh for every picture (a batch of varied pictures kept recompiling them).
 * The per-chain columns are typed arrays that double when full (number[] pushes, growing by
 * copies on the heap, were most of the stage's garbage); the graph gets exact-length copies,
 * since the memo keeps it and the fit threads get it cloned.
 */
class ChainWalker {
  private readonly hCount: number;
  /** Chains walked so far; the columns below hold `capacity` chains. */
  private count = 0;
  private capacity: number;
  private startX: Int32Array;
  private startY: Int32Array;
  /** dirStart[c] for every chain walked, and dirStart[count] = dirCount: one slot more. */
  private dirStart: Int32Array;
  private left: Int32Array;
  private right: Int32Array;
  private closed: Uint8Array;
  /** Every boundary crack is walked once: one byte per crack, sized before the first walk. */
  private readonly dirs: Uint8Array;
  private dirCount = 0;

  constructor(
    private readonly regionOf: Int32Array,
    private readonly width: number,
    private readonly height: number,
    private readonly isBoundaryCrack: Uint8Array,
    private readonly degree: Uint8Array,
  ) {
    this.hCount = width * (height + 1);
    let cracks = 0;
    for (let i = 0; i < isBoundaryCrack.length; i++) cracks += isBoundaryCrack[i]!;
    this.dirs = new Uint8Array(cracks);
    // A first guess: chains are 6 cracks long on average (validation set), rarely under 4.
    const capacity = (this.capacity = 64 + (cracks >> 2));
    this.startX = new Int32Array(capacity);
    this.startY = new Int32Array(capacity);
    this.dirStart = new Int32Array(capacity + 1);
    this.left = new Int32Array(capacity);
    this.right = new Int32Array(capacity);
    this.closed = new Uint8Array(capacity);
  }

  walk(x0: number, y0: number, d0: number): void {
    const { regionOf, width, height, isBoundaryCrack, degree, hCount, dirs } = this;
    if (this.count === this.capacity) this.grow();
    const c = this.count;
    this.startX[c] = x0;
    this.startY[c] = y0;
    this.left[c] = sideRegion(regionOf, width, height, x0, y0, d0, true);
    this.right[c] = sideRegion(regionOf, width, height, x0, y0, d0, false);
    let x = x0;
    let y = y0;
    let d = d0;
    let isClosed = 0;
    let at = this.dirCount;
    const stride = width + 1;
    for (;;) {
      // Inline crack index and boundary tests: this loop visits every boundary crack once (and
      // marks it taken: 2).
      isBoundaryCrack[d === 0 ? y * width + x : d === 1 ? hCount + y * stride + x : d === 2 ? y * width + x - 1 : hCount + (y - 1) * stride + x] = 2;
      dirs[at++] = d;
      x += DX[d]!;
      y += DY[d]!;
      const deg = degree[y * stride + x]!;
      if (deg === 3 || deg === 4) break;
      if (deg > 4) {
        d = pinchTurn(deg, d);
        // Back at the start, leaving by the first crack: the outline closed (it may pass its
        // start vertex once before, on the pinch's other boundary).
        if (x === x0 && y === y0 && d === d0) {
          isClosed = 1;
          break;
        }
        continue;
      }
      if (x === x0 && y === y0) {
        isClosed = 1;
        break;
      }
      // Exactly one other boundary crack continues the chain: left turn, straight or right turn.
      const back = (d + 2) & 3;
      if (back !== 0 && x < width && isBoundaryCrack[y * width + x] !== 0) d = 0;
      else if (back !== 1 && y < height && isBoundaryCrack[hCount + y * stride + x] !== 0) d = 1;
      else if (back !== 2 && x > 0 && isBoundaryCrack[y * width + x - 1] !== 0) d = 2;
      else d = 3;
    }
    this.closed[c] = isClosed;
    this.dirCount = at;
    this.dirStart[c + 1] = at;
    this.count = c + 1;
  }

  /** Doubles the per-chain columns, keeping the chains walked so far. */
  private grow(): void {
    const capacity = (this.capacity *= 2);
    this.startX = grownInt32(this.startX, capacity);
    this.startY = grownInt32(this.startY, capacity);
    this.dirStart = grownInt32(this.dirStart, capacity + 1);
    this.left = grownInt32(this.left, capacity);
    this.right = grownInt32(this.right, capacity);
    const closed = new Uint8Array(capacity);
    closed.set(this.closed);
    this.closed = closed;
  }

  graph(): ChainGraph {
    const count = this.count;
    return {
      count,
      startX: this.startX.slice(0, count),
      startY: this.startY.slice(0, count),
      dirs: this.dirs.subarray(0, this.dirCount),
      dirStart: this.dirStart.slice(0, count + 1),
      left: this.left.slice(0, count),
      right: this.right.slice(0, count),
      closed: this.closed.slice(0, count),
    };
  }
}

/** A copy of `from` in a new array of `length` elements (zeros after the copied ones). */
function grownInt32(from: Int32Array, length: number): Int32Array {
  const out = new Int32Array(length);
  out.set(from);
  return out;
}

/** Region of pixel (x, y); −1 outside the image. */
function regionAt(regionOf: Int32Array, width: number, height: number, x: number, y: number): number {
  return x < 0 || y < 0 || x >= width || y >= height ? -1 : regionOf[y * width + x]!;
}

/** The region on the left (or right) of the crack leaving vertex (x, y) in direction d. */
function sideRegion(regionOf: Int32Array, width: number, height: number, x: number, y: number, d: number, leftSide: boolean): number {
  switch (d) {
    case 0: return leftSide ? regionAt(regionOf, width, height, x, y - 1) : regionAt(regionOf, width, height, x, y);
    case 1: return leftSide ? regionAt(regionOf, width, height, x, y) : regionAt(regionOf, width, height, x - 1, y);
    case 2: return leftSide ? regionAt(regionOf, width, height, x - 1, y) : regionAt(regionOf, width, height, x - 1, y - 1);
    default: return leftSide ? regionAt(regionOf, width, height, x - 1, y - 1) : regionAt(regionOf, width, height, x, y - 1);
  }
}

/** Twice the shoelace area swept by the chain's lattice polyline (forward direction). */
function chainShoelace(graph: ChainGraph, c: number): number {
  let x = graph.startX[c]!;
  let y = graph.startY[c]!;
  let sum = 0;
  for (let k = graph.dirStart[c]!; k < graph.dirStart[c + 1]!; k++) {
    const nx = x + DX[graph.dirs[k]!]!;
    const ny = y + DY[graph.dirs[k]!]!;
    sum += x * ny - nx * y;
    x = nx;
    y = ny;
  }
  return sum;
}

/**
 * Walks every region's loops with the region on the left. At a junction the walk keeps the
 * region 4-connected: turn left if the pixel ahead-left is not ours, else go straight if the
 * pixel ahead-right is not ours, else turn right.
 */
export function buildRegionLoops(
  graph: ChainGraph,
  regionOf: Int32Array,
  width: number,
  height: number,
  regionCount: number,
  links?: Uint8Array,
): RegionLoops {
  const walk = newLoopWalk(graph, regionOf, width, height, links);
  const found = new FoundLoops(regionCount);
  for (let c = 0; c < graph.count; c++) {
    for (let side = 0; side < 2; side++) {
      const region = side === 0 ? graph.left[c]! : graph.right[c]!;
      if (region < 0 || walk.visited[c * 2 + side]) continue;
      const from = walk.useCount;
      const area2 = walkLoop(walk, region, c * 2 + side);
      found.add(region, from, walk.useCount, area2 / 2);
    }
  }
  // An exact copy (the memo keeps the loops) unless every side had a region.
  const { uses, useCount } = walk;
  return found.byRegion(useCount === uses.length ? uses : uses.slice(0, useCount));
}

/**
 * The loop walk's state: the picture and graph it walks, each chain's end point and shoelace sum,
 * the chain sides walked (use = chain × 2 + side, side 1 walked backwards) in loop order, and
 * which sides are visited.
 */
interface LoopWalk {
  readonly graph: ChainGraph;
  readonly regionOf: Int32Array;
  readonly width: number;
  readonly height: number;
  readonly links: Uint8Array | undefined;
  readonly endX: Int32Array;
  readonly endY: Int32Array;
  readonly shoelace: Float64Array;
  readonly ends: ChainEnds;
  /** Each side of a chain with a region on it is used by exactly one loop: at most 2 × count uses. */
  readonly uses: Int32Array;
  useCount: number;
  readonly visited: Uint8Array;
}

function newLoopWalk(graph: ChainGraph, regionOf: Int32Array, width: number, height: number, links: Uint8Array | undefined): LoopWalk {
  const endX = new Int32Array(graph.count);
  const endY = new Int32Array(graph.count);
  const shoelace = new Float64Array(graph.count);
  for (let c = 0; c < graph.count; c++) {
    let x = graph.startX[c]!;
    let y = graph.startY[c]!;
    for (let k = graph.dirStart[c]!; k < graph.dirStart[c + 1]!; k++) {
      const d = graph.dirs[k]!;
      x += DX[d]!;
      y += DY[d]!;
    }
    endX[c] = x;
    endY[c] = y;
    shoelace[c] = chainShoelace(graph, c);
  }
  const ends = new ChainEnds(graph, endX, endY, width, height);
  return { graph, regionOf, width, height, links, endX, endY, shoelace, ends, uses: new Int32Array(graph.count * 2), useCount: 0, visited: new Uint8Array(graph.count * 2) };
}

/**
 * Walks the loop of `region` from chain side `use` until it closes, appending its sides to
 * walk.uses; returns twice its signed area.
 */
function walkLoop(walk: LoopWalk, region: number, use: number): number {
  const { graph, endX, endY, shoelace, ends, uses, visited } = walk;
  let useCount = walk.useCount;
  let area2 = 0;
  for (let guard = 0; guard <= graph.count * 2; guard++) {
    if (visited[use]) break;
    visited[use] = 1;
    uses[useCount++] = use;
    const chain = use >> 1;
    const reversed = (use & 1) === 1;
    area2 += reversed ? -shoelace[chain]! : shoelace[chain]!;
    if (graph.closed[chain]) break;
    let x: number;
    let y: number;
    let arrive: number;
    if (!reversed) {
      x = endX[chain]!;
      y = endY[chain]!;
      arrive = graph.dirs[graph.dirStart[chain + 1]! - 1]!;
    } else {
      x = graph.startX[chain]!;
      y = graph.startY[chain]!;
      arrive = (graph.dirs[graph.dirStart[chain]!]! + 2) & 3;
    }
    const nextChain = ends.leaving(x, y, leavingDirection(walk, x, y, arrive, region));
    if (nextChain < 0) throw new Error('invariant: loop walk left the boundary graph');
    use = nextChain * 2 + (graph.left[nextChain] === region ? 0 : 1);
  }
  walk.useCount = useCount;
  return area2;
}

/**
 * The direction the walk of `region` leaves vertex (x, y) by, arriving in direction `arrive`:
 * from the pixels ahead-left and ahead-right of the walker (buildRegionLoops' rule).
 */
function leavingDirection(walk: LoopWalk, x: number, y: number, arrive: number, region: number): number {
  const { regionOf, width, height } = walk;
  const fl = sideRegion(regionOf, width, height, x, y, arrive, true);
  const fr = sideRegion(regionOf, width, height, x, y, arrive, false);
  if (fl !== region) {
    // Ahead-right is ours only diagonally: cross the vertex if that diagonal is linked.
    return fr === region && isLinkedFor(walk.links, regionOf, width, height, x, y, region) ? (arrive + 1) & 3 : (arrive + 3) & 3;
  }
  return fr !== region ? arrive : (arrive + 1) & 3;
}

/**
 * The loops buildRegionLoops finds, in the order it finds them (region, uses and area of each, in
 * columns that double when full), then grouped by region.
 */
class FoundLoops {
  private count = 0;
  private region: Int32Array;
  private from: Int32Array;
  private to: Int32Array;
  private area: Float64Array;

  constructor(private readonly regionCount: number) {
    // Most regions have one loop; holes add more.
    const capacity = regionCount + 16;
    this.region = new Int32Array(capacity);
    this.from = new Int32Array(capacity);
    this.to = new Int32Array(capacity);
    this.area = new Float64Array(capacity);
  }

  add(region: number, from: number, to: number, area: number): void {
    if (this.count === this.region.length) this.grow();
    const l = this.count++;
    this.region[l] = region;
    this.from[l] = from;
    this.to[l] = to;
    this.area[l] = area;
  }

  private grow(): void {
    const capacity = this.region.length * 2;
    const region = new Int32Array(capacity);
    const from = new Int32Array(capacity);
    const to = new Int32Array(capacity);
    const area = new Float64Array(capacity);
    region.set(this.region);
    from.set(this.from);
    to.set(this.to);
    area.set(this.area);
    this.region = region;
    this.from = from;
    this.to = to;
    this.area = area;
  }

  /** The loops grouped by region (a stable counting sort: each region's in the order found). */
  byRegion(uses: Int32Array): RegionLoops {
    const n = this.count;
    const loopStart = new Int32Array(this.regionCount + 1);
    for (let l = 0; l < n; l++) loopStart[this.region[l]! + 1]!++;
    for (let r = 0; r < this.regionCount; r++) loopStart[r + 1] = loopStart[r + 1]! + loopStart[r]!;
    const useFrom = new Int32Array(n);
    const useTo = new Int32Array(n);
    const loopArea = new Float64Array(n);
    // Next free slot per region; starts as a copy of loopStart.
    const slot = loopStart.slice(0, this.regionCount);
    for (let l = 0; l < n; l++) {
      const at = slot[this.region[l]!]!++;
      useFrom[at] = this.from[l]!;
      useTo[at] = this.to[l]!;
      loopArea[at] = this.area[l]!;
    }
    return { uses, useFrom, useTo, loopArea, loopStart };
  }
}

/**
 * The chain leaving each end vertex of an open chain (a junction) by each direction: the loop walk
 * asks only there (it breaks off at a closed chain). Junction vertices are ranked by a bit per
 * lattice vertex and a count per 32 of them, four chain ids per junction: a few bytes per junction
 * rather than an Int32 per crack (16 MB at 2 MP).
 */
class ChainEnds {
  private readonly stride: number;
  private readonly bits: Int32Array;
  private readonly rankBefore: Int32Array;
  private readonly chainOut: Int32Array;

  constructor(graph: ChainGraph, endX: Int32Array, endY: Int32Array, width: number, height: number) {
    const stride = (this.stride = width + 1);
    const words = ((stride * (height + 1)) >> 5) + 1;
    const bits = (this.bits = new Int32Array(words));
    for (let c = 0; c < graph.count; c++) {
      if (graph.closed[c]) continue;
      const a = graph.startY[c]! * stride + graph.startX[c]!;
      const b = endY[c]! * stride + endX[c]!;
      bits[a >> 5]! |= 1 << (a & 31);
      bits[b >> 5]! |= 1 << (b & 31);
    }
    const rankBefore = (this.rankBefore = new Int32Array(words + 1));
    for (let w = 0; w < words; w++) rankBefore[w + 1] = rankBefore[w]! + bitCount(bits[w]!);
    this.chainOut = new Int32Array(rankBefore[words]! * 4).fill(-1);
    for (let c = 0; c < graph.count; c++) {
      if (graph.closed[c]) continue;
      this.set(graph.startX[c]!, graph.startY[c]!, graph.dirs[graph.dirStart[c]!]!, c);
      this.set(endX[c]!, endY[c]!, (graph.dirs[graph.dirStart[c + 1]! - 1]! + 2) & 3, c);
    }
  }

  /** The chain leaving vertex (x, y) in direction d, or −1. */
  leaving(x: number, y: number, d: number): number {
    const v = y * this.stride + x;
    const word = this.bits[v >> 5]!;
    const bit = 1 << (v & 31);
    if ((word & bit) === 0) return -1;
    return this.chainOut[(this.rankBefore[v >> 5]! + bitCount(word & (bit - 1))) * 4 + d]!;
  }

  private set(x: number, y: number, d: number, c: number): void {
    const v = y * this.stride + x;
    const word = this.bits[v >> 5]!;
    this.chainOut[(this.rankBefore[v >> 5]! + bitCount(word & ((1 << (v & 31)) - 1))) * 4 + d] = c;
  }
}

/** Set bits of a 32-bit word. */
function bitCount(n: number): number {
  n = n - ((n >>> 1) & 0x55555555);
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return (Math.imul((n + (n >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}

function crackIndex(x: number, y: number, d: number, width: number, hCount: number): number {
  switch (d) {
    case 0: return y * width + x;
    case 1: return hCount + y * (width + 1) + x;
    case 2: return y * width + x - 1;
    default: return hCount + (y - 1) * (width + 1) + x;
  }
}
