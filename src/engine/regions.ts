/**
 * Stage 4: regions and despeckling.
 * In: a label per pixel (-1 = transparent). Out: a region id per pixel (-1 = transparent),
 * each region a 4-connected set of one label, with its label and pixel area.
 * Despeckle (`processing.shapes.min_area_px`): regions smaller than the minimum merge into the
 * neighbouring region of the nearest colour (longest shared border breaks ties), smallest
 * first; a speck with only transparent neighbours is dropped. A speck never becomes a hole.
 */

export interface Regions {
  readonly count: number;
  readonly regionOf: Int32Array;
  readonly labelOf: Int32Array;
  readonly area: Int32Array;
}

/**
 * Two-pass union-find labelling of 4-connected components of equal labels, plus the diagonal
 * pairs that `links` (see diagonals.ts) joins.
 */
export function findRegions(labels: Int32Array, width: number, height: number, links?: Uint8Array): Regions {
  // One pass per helper: union, resolve, number, tally.
  const parent = unionPixels(labels, width, height, links);
  resolveRoots(parent);
  const { regionOf, count } = numberRegions(labels, parent);
  const labelOf = new Int32Array(count);
  const area = new Int32Array(count);
  tallyRegions(labels, regionOf, labelOf, area);
  return { count, regionOf, labelOf, area };
}

/** parent[i] ≤ i for every pixel; a root has parent[i] === i. */
function unionPixels(labels: Int32Array, width: number, height: number, links: Uint8Array | undefined): Int32Array {
  const parent = new Int32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const l = labels[i]!;
      parent[i] = i;
      if (l < 0) continue;
      let root = -1;
      for (let k = 0; k < 4; k++) {
        let j = -1;
        if (k === 0) {
          if (x > 0 && labels[i - 1] === l) j = i - 1;
        } else if (k === 1) {
          if (y > 0 && labels[i - width] === l) j = i - width;
        } else if (k === 2) {
          // Vertex (x, y), this pixel's top-left corner, links it to its top-left neighbour.
          if (links && x > 0 && y > 0 && links[y * (width + 1) + x] === 1 && labels[i - width - 1] === l) j = i - width - 1;
        } else if (links && x < width - 1 && y > 0 && links[y * (width + 1) + x + 1] === 2 && labels[i - width + 1] === l) j = i - width + 1;
        if (j < 0) continue;
        let r = j;
        while (parent[r] !== r) r = parent[r]!;
        parent[j] = r; // one step of path compression
        if (root < 0) root = r;
        else if (r !== root) {
          // Smaller index becomes the root, so ids follow raster order deterministically.
          if (r < root) {
            parent[root] = r;
            root = r;
          } else parent[r] = root;
        }
      }
      if (root >= 0) parent[i] = root;
    }
  }
  return parent;
}

/** parent[i] ≤ i, so one forward pass resolves every pixel to its final root. */
function resolveRoots(parent: Int32Array): void {
  for (let i = 0; i < parent.length; i++) parent[i] = parent[parent[i]!]!;
}

/** Region ids 0, 1, … in raster order of each region's first pixel; -1 for transparent pixels. */
function numberRegions(labels: Int32Array, parent: Int32Array): { regionOf: Int32Array; count: number } {
  const n = labels.length;
  const regionOf = new Int32Array(n);
  const rootId = new Int32Array(n).fill(-1);
  let count = 0;
  for (let i = 0; i < n; i++) {
    if (labels[i]! < 0) {
      regionOf[i] = -1;
      continue;
    }
    const r = parent[i]!;
    if (rootId[r]! < 0) rootId[r] = count++;
    regionOf[i] = rootId[r]!;
  }
  return { regionOf, count };
}

function tallyRegions(labels: Int32Array, regionOf: Int32Array, labelOf: Int32Array, area: Int32Array): void {
  for (let i = 0; i < regionOf.length; i++) {
    const r = regionOf[i]!;
    if (r < 0) continue;
    labelOf[r] = labels[i]!;
    area[r]!++;
  }
}

/**
 * Merges regions smaller than `minAreaPx` into their best neighbour. `labelLab` holds the Lab
 * colour of each label (3 floats per label) for choosing the nearest-colour neighbour.
 */
export function despeckle(regions: Regions, width: number, height: number, minAreaPx: number, labelLab: Float64Array, links?: Uint8Array): Regions {
  const { count, regionOf, labelOf } = regions;
  if (minAreaPx <= 1 || count === 0) return regions;
  const area = Int32Array.from(regions.area);
  // Pixels grouped by region (counting sort), so a region's pixels are one slice.
  const start = new Int32Array(count + 1);
  for (let i = 0; i < regionOf.length; i++) if (regionOf[i]! >= 0) start[regionOf[i]! + 1]!++;
  for (let r = 0; r < count; r++) start[r + 1]! += start[r]!;
  const pixels = new Int32Array(start[count]!);
  const fillPos = start.slice(0, count);
  for (let i = 0; i < regionOf.length; i++) {
    const r = regionOf[i]!;
    if (r >= 0) pixels[fillPos[r]!++] = i;
  }
  const parent = new Int32Array(count);
  for (let r = 0; r < count; r++) parent[r] = r;
  const find = (r: number): number => {
    while (parent[r] !== r && parent[r]! >= 0) {
      const p = parent[r]!;
      if (parent[p] !== p && parent[p]! >= 0) parent[r] = parent[p]!;
      r = parent[r]!;
    }
    return parent[r]! < 0 ? -1 : r;
  };
  // Members of a merged region form a linked list so its whole pixel set can be scanned.
  const nextMember = new Int32Array(count).fill(-1);
  const lastMember = new Int32Array(count);
  for (let r = 0; r < count; r++) lastMember[r] = r;

  const small: number[] = [];
  for (let r = 0; r < count; r++) if (area[r]! < minAreaPx) small.push(r);
  small.sort((a, b) => area[a]! - area[b]! || a - b);
  const shared = new Map<number, number>();
  let current = -1;
  for (const r of small) {
    if (find(r) !== r || area[r]! >= minAreaPx) continue;
    current = r;
    shared.clear();
    for (let m = r; m >= 0; m = nextMember[m]!) {
      for (let p = start[m]!; p < start[m + 1]!; p++) {
        const i = pixels[p]!;
        const x = i % width;
        const y = (i - x) / width;
        if (x > 0) countNeighbour(i - 1);
        if (x < width - 1) countNeighbour(i + 1);
        if (y > 0) countNeighbour(i - width);
        if (y < height - 1) countNeighbour(i + width);
      }
    }
    let best = -1;
    let bestDistance = Infinity;
    let bestShared = -1;
    const own = labelOf[r]!;
    for (const [neighbour, length] of shared) {
      const l = labelOf[neighbour]!;
      const d =
        (labelLab[own * 3]! - labelLab[l * 3]!) ** 2 +
        (labelLab[own * 3 + 1]! - labelLab[l * 3 + 1]!) ** 2 +
        (labelLab[own * 3 + 2]! - labelLab[l * 3 + 2]!) ** 2;
      if (d < bestDistance - 1e-9 || (Math.abs(d - bestDistance) <= 1e-9 && (length > bestShared || (length === bestShared && neighbour < best)))) {
        best = neighbour;
        bestDistance = d;
        bestShared = length;
      }
    }
    if (best < 0) {
      parent[r] = -1; // only transparent around it: the speck is discarded
      continue;
    }
    parent[r] = best;
    area[best]! += area[r]!;
    nextMember[lastMember[best]!] = r;
    lastMember[best] = lastMember[r]!;
  }

  function countNeighbour(j: number): void {
    const q = regionOf[j]!;
    if (q < 0) return;
    const root = find(q);
    if (root < 0 || root === current) return;
    shared.set(root, (shared.get(root) ?? 0) + 1);
  }

  const newRegionOf = new Int32Array(regionOf.length);
  for (let i = 0; i < regionOf.length; i++) {
    const r = regionOf[i]!;
    newRegionOf[i] = r < 0 ? -1 : find(r);
  }
  const newLabels = new Int32Array(regionOf.length);
  for (let i = 0; i < regionOf.length; i++) newLabels[i] = newRegionOf[i]! < 0 ? -1 : labelOf[newRegionOf[i]!]!;
  return findRegions(newLabels, width, height, links);
}
