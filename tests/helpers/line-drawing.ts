/**
 * A 1-bit drawing with holes for the line-art-on-paper tests (tests/engine/lineart-paper.test.ts,
 * tests/formats/lineart-paper.test.ts): 240 × 150, an eccentric ring (10–26 px wide: a fill, not a
 * pen line) with a dot in its counter, a block "B" 46 × 90 with two counters, an "O" cut by the
 * right edge (its counter whole).
 */
import type { RgbaImage } from '../../src/engine/types.js';

type Inside = (x: number, y: number) => boolean;

const disc = (cx: number, cy: number, r: number): Inside => (x, y) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
const box = (x0: number, y0: number, x1: number, y1: number): Inside => (x, y) => x >= x0 && x < x1 && y >= y0 && y < y1;

const drawing: Inside = (x, y) => {
  const ring = disc(70, 75, 48)(x, y) && !disc(78, 75, 30)(x, y);
  const dot = disc(80, 75, 9)(x, y);
  const letterB = box(130, 30, 176, 120)(x, y) && !box(142, 42, 164, 68)(x, y) && !box(142, 82, 164, 108)(x, y);
  const letterO = disc(214, 75, 34)(x, y) && !disc(214, 75, 20)(x, y);
  return ring || dot || letterB || letterO;
};

/** The drawing: black ink where it holds at the pixel centre, `paper` (RGBA) elsewhere. */
export function ringsAndLetters(paper: readonly number[] = [255, 255, 255, 255]): RgbaImage {
  const width = 240;
  const height = 150;
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) data.set(drawing(x + 0.5, y + 0.5) ? [0, 0, 0, 255] : paper, (y * width + x) * 4);
  }
  return { width, height, data };
}
