/**
 * Test fixtures drawn by the tests themselves: anti-aliased shapes by supersampling (so edge
 * pixels carry true coverage), and hard-edged pixel grids.
 */
import type { RgbaImage } from '../../src/engine/types.js';
import { drawPainted } from './gradient-scenes.js';

export type Rgb = readonly [number, number, number];

/** Paints `inside(x, y)` (continuous coordinates) in `fg` over `bg`, 8×8 supersampled. */
export function drawShape(width: number, height: number, bg: Rgb, layers: readonly { color: Rgb; inside: (x: number, y: number) => boolean }[]): RgbaImage {
  return drawPainted(width, height, bg, layers.map((layer) => ({ paint: layer.color, inside: layer.inside })));
}

/** A hard-edged image from a grid of colour indices, each cell `cell` pixels square. */
export function drawCells(grid: readonly (readonly number[])[], colors: readonly Rgb[], cell: number): RgbaImage {
  const rows = grid.length;
  const cols = grid[0]!.length;
  const width = cols * cell;
  const height = rows * cell;
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const c = colors[grid[Math.floor(y / cell)]![Math.floor(x / cell)]!]!;
      const o = (y * width + x) * 4;
      data[o] = c[0];
      data[o + 1] = c[1];
      data[o + 2] = c[2];
      data[o + 3] = 255;
    }
  }
  return { width, height, data };
}

export const disc = (cx: number, cy: number, r: number) => (x: number, y: number) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
export const rect = (x0: number, y0: number, x1: number, y1: number) => (x: number, y: number) => x >= x0 && x < x1 && y >= y0 && y < y1;
