/**
 * How much of each pixel one region's ink covers, and that coverage sampled anywhere (tracelab.strokes).
 * In: the traced pixels, the region map and each region's observed colour; a region and a box.
 * Out: a coverage grid over the box, 0–1 per pixel, read bilinearly between pixel centres.
 * A pixel's coverage is where its colour lies between the colour of what is beside the ink and the
 * ink's own colour (the anti-aliasing blend, linear in sRGB as renderers blend): for a pixel of the
 * region, against a 4-neighbour of another region; for a pixel of another region beside it (its
 * fringe), against that region's colour; against transparency, its alpha; elsewhere 0. So a 0.4-px hairline, whose pixels are light
 * shades, still measures 0.4 px across.
 */

export interface InkPicture {
  readonly data: Uint8Array | Uint8ClampedArray;
  readonly width: number;
  readonly height: number;
  /** Region per pixel, −1 = transparent. */
  readonly regionOf: Int32Array;
  /** Observed r, g, b per region. */
  readonly regionColor: Float64Array;
}

/** A coverage grid over the box [x0, x0 + width) × [y0, y0 + height) of the picture. */
export interface CoverageGrid {
  readonly x0: number;
  readonly y0: number;
  readonly width: number;
  readonly height: number;
  readonly value: Float32Array;
}

/**
 * Coverage of `region`'s ink over the box, clipped to the picture (outside it: 0). With the
 * region's pixel box [x0, x1) × [y0, y1) given, only its pixels and their fringe are read (a
 * pixel no pixel of the region touches has coverage 0); with its pixels listed too (picture
 * indices), only those are visited, not its box.
 */
export function coverageGrid(picture: InkPicture, region: number, x0: number, y0: number, width: number, height: number, inkBox?: { x0: number; y0: number; x1: number; y1: number }, pixels?: Int32Array): CoverageGrid {
  const grid = { x0, y0, width, height, value: new Float32Array(width * height) };
  if (inkBox && pixels) {
    for (let k = 0; k < pixels.length; k++) pixelAndFringe(picture, region, grid, inkBox, pixels[k]!);
  } else if (inkBox) regionAndFringe(picture, region, grid, inkBox);
  else {
    for (let py = Math.max(0, y0); py < Math.min(picture.height, y0 + height); py++) {
      for (let px = Math.max(0, x0); px < Math.min(picture.width, x0 + width); px++) {
        grid.value[(py - y0) * width + (px - x0)] = pixelCoverage(picture, region, py * picture.width + px, px, py);
      }
    }
  }
  return grid;
}

/**
 * The grid cells [x0, x1) × [y0, y1) that may hold ink: a region's coverage is 0 but on its pixels
 * and their fringe (8 neighbours), so beyond its pixel box grown by a pixel; a sum or a count over
 * the grid needs only these cells.
 */
export function inkCells(grid: CoverageGrid, inkBox: { x0: number; y0: number; x1: number; y1: number }): { x0: number; y0: number; x1: number; y1: number } {
  return {
    x0: Math.max(0, inkBox.x0 - 1 - grid.x0),
    y0: Math.max(0, inkBox.y0 - 1 - grid.y0),
    x1: Math.min(grid.width, inkBox.x1 + 1 - grid.x0),
    y1: Math.min(grid.height, inkBox.y1 + 1 - grid.y0),
  };
}

/** Σ coverage (px) over the grid, in raster order (its zeros, beyond `inkBox`'s fringe, skipped: inkCells). */
export function coverageSum(grid: CoverageGrid, inkBox: { x0: number; y0: number; x1: number; y1: number }): number {
  const cells = inkCells(grid, inkBox);
  let sum = 0;
  for (let y = cells.y0; y < cells.y1; y++) {
    for (let k = y * grid.width + cells.x0, end = y * grid.width + cells.x1; k < end; k++) sum += grid.value[k]!;
  }
  return sum;
}

/**
 * coverageGrid(picture, region, x0, y0, width, height, inkBox) where `known` is such a grid of the
 * same region over a box holding this one: its values copied, not read again (a pixel's coverage
 * does not depend on the grid it is read into).
 */
export function coverageGridWithin(known: CoverageGrid | undefined, picture: InkPicture, region: number, x0: number, y0: number, width: number, height: number, inkBox: { x0: number; y0: number; x1: number; y1: number }): CoverageGrid {
  if (!known || x0 < known.x0 || y0 < known.y0 || x0 + width > known.x0 + known.width || y0 + height > known.y0 + known.height) {
    return coverageGrid(picture, region, x0, y0, width, height, inkBox);
  }
  const value = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const from = (y + y0 - known.y0) * known.width + (x0 - known.x0);
    value.set(known.value.subarray(from, from + width), y * width);
  }
  return { x0, y0, width, height, value };
}

/**
 * coverageGrid's values at the region's pixels (inside its box) and at the pixels of other
 * regions beside them (their blend towards the region's colour; each may be written more than
 * once, always with the same value), within the grid.
 */
function regionAndFringe(picture: InkPicture, region: number, grid: CoverageGrid, box: { x0: number; y0: number; x1: number; y1: number }): void {
  const { regionOf, width: w, height: h } = picture;
  for (let py = Math.max(0, box.y0, grid.y0); py < Math.min(h, box.y1, grid.y0 + grid.height); py++) {
    for (let px = Math.max(0, box.x0, grid.x0); px < Math.min(w, box.x1, grid.x0 + grid.width); px++) {
      const i = py * w + px;
      if (regionOf[i] === region) fringeAround(picture, region, grid, i, px, py);
    }
  }
}

/** regionAndFringe's values at pixel i of the region, when it lies in the box and the grid. */
function pixelAndFringe(picture: InkPicture, region: number, grid: CoverageGrid, box: { x0: number; y0: number; x1: number; y1: number }, i: number): void {
  const px = i % picture.width;
  const py = (i - px) / picture.width;
  if (px < Math.max(box.x0, grid.x0) || px >= Math.min(box.x1, grid.x0 + grid.width) || py < Math.max(box.y0, grid.y0) || py >= Math.min(box.y1, grid.y0 + grid.height)) return;
  fringeAround(picture, region, grid, i, px, py);
}

/** The coverage of pixel i = (px, py) of the region and of the other regions' pixels beside it. */
function fringeAround(picture: InkPicture, region: number, grid: CoverageGrid, i: number, px: number, py: number): void {
  const { regionOf, width: w, height: h } = picture;
  grid.value[(py - grid.y0) * grid.width + (px - grid.x0)] = pixelCoverage(picture, region, i, px, py);
  if (amidRegion(regionOf, w, h, region, px, py)) return;
  for (let ny = py - 1; ny <= py + 1; ny++) {
    for (let nx = px - 1; nx <= px + 1; nx++) {
      if (nx < 0 || ny < 0 || nx >= w || ny >= h || nx < grid.x0 || ny < grid.y0 || nx >= grid.x0 + grid.width || ny >= grid.y0 + grid.height) continue;
      const own = regionOf[ny * w + nx]!;
      if (own === region || own < 0) continue;
      grid.value[(ny - grid.y0) * grid.width + (nx - grid.x0)] = blend(picture, ny * w + nx, own, region);
    }
  }
}

/** Pixel (x, y) and its eight neighbours are all in the region (no fringe beside it). */
function amidRegion(regionOf: Int32Array, w: number, h: number, region: number, x: number, y: number): boolean {
  if (x < 1 || y < 1 || x + 1 >= w || y + 1 >= h) return false;
  const i = y * w + x;
  return (
    regionOf[i - w - 1] === region && regionOf[i - w] === region && regionOf[i - w + 1] === region &&
    regionOf[i - 1] === region && regionOf[i + 1] === region &&
    regionOf[i + w - 1] === region && regionOf[i + w] === region && regionOf[i + w + 1] === region
  );
}

function pixelCoverage(picture: InkPicture, region: number, i: number, x: number, y: number): number {
  const { regionOf, data } = picture;
  const own = regionOf[i]!;
  // Outside the region only its fringe counts: a pixel beside it (8 neighbours). Farther out a
  // blended pixel is another line's fringe, not this one's.
  if (own !== region) return own < 0 || !touches(picture, region, x, y) ? 0 : blend(picture, i, own, region);
  // Beside what? The first 4-neighbour of another region; none: inside the ink.
  const w = picture.width;
  const beside =
    x > 0 && regionOf[i - 1] !== region ? regionOf[i - 1]! :
    x + 1 < w && regionOf[i + 1] !== region ? regionOf[i + 1]! :
    y > 0 && regionOf[i - w] !== region ? regionOf[i - w]! :
    y + 1 < picture.height && regionOf[i + w] !== region ? regionOf[i + w]! : region;
  if (beside === region) return 1;
  if (beside < 0) return data[i * 4 + 3]! / 255;
  return blend(picture, i, beside, region);
}

function touches(picture: InkPicture, region: number, x: number, y: number): boolean {
  for (let dy = -1; dy <= 1; dy++) {
    const ny = y + dy;
    if (ny < 0 || ny >= picture.height) continue;
    for (let dx = -1; dx <= 1; dx++) {
      const nx = x + dx;
      if (nx >= 0 && nx < picture.width && picture.regionOf[ny * picture.width + nx] === region) return true;
    }
  }
  return false;
}

/** Where pixel i's colour lies from region `under`'s colour (0) to region `ink`'s (1), clamped. */
function blend(picture: InkPicture, i: number, under: number, ink: number): number {
  const { data, regionColor } = picture;
  const ur = regionColor[under * 3]!;
  const ug = regionColor[under * 3 + 1]!;
  const ub = regionColor[under * 3 + 2]!;
  const kr = regionColor[ink * 3]! - ur;
  const kg = regionColor[ink * 3 + 1]! - ug;
  const kb = regionColor[ink * 3 + 2]! - ub;
  const span = kr * kr + kg * kg + kb * kb;
  if (span < 1) return under === ink ? 1 : 0;
  const t = ((data[i * 4]! - ur) * kr + (data[i * 4 + 1]! - ug) * kg + (data[i * 4 + 2]! - ub) * kb) / span;
  return t <= 0 ? 0 : t >= 1 ? 1 : t;
}

/** Coverage at picture point (x, y) (pixel centres at +0.5), bilinear between pixel centres. */
export function coverageAt(grid: CoverageGrid, x: number, y: number): number {
  const gx = x - 0.5 - grid.x0;
  const gy = y - 0.5 - grid.y0;
  const ix = Math.floor(gx);
  const iy = Math.floor(gy);
  const fx = gx - ix;
  const fy = gy - iy;
  const v00 = cell(grid, ix, iy);
  const v10 = cell(grid, ix + 1, iy);
  const v01 = cell(grid, ix, iy + 1);
  const v11 = cell(grid, ix + 1, iy + 1);
  return (v00 * (1 - fx) + v10 * fx) * (1 - fy) + (v01 * (1 - fx) + v11 * fx) * fy;
}

function cell(grid: CoverageGrid, x: number, y: number): number {
  return x < 0 || y < 0 || x >= grid.width || y >= grid.height ? 0 : grid.value[y * grid.width + x]!;
}

/**
 * Per region: twice its area over its border's length (pixel sides, the picture's edge counted):
 * a line's width or less (a staircase border is longer), a disc's radius, a square's half side;
 * 0 for a region without pixels.
 */
export function regionWidthsPx(picture: InkPicture, regionCount: number): Float64Array {
  const { width, height, regionOf } = picture;
  const area = new Float64Array(regionCount);
  const border = new Float64Array(regionCount);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const r = regionOf[i]!;
      if (r < 0) continue;
      area[r]!++;
      if (x === 0 || regionOf[i - 1] !== r) border[r]!++;
      if (x + 1 === width || regionOf[i + 1] !== r) border[r]!++;
      if (y === 0 || regionOf[i - width] !== r) border[r]!++;
      if (y + 1 === height || regionOf[i + width] !== r) border[r]!++;
    }
  }
  for (let r = 0; r < regionCount; r++) area[r] = (2 * area[r]!) / Math.max(1, border[r]!);
  return area;
}
