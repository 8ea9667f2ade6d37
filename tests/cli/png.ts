/** A small PNG for the CLI tests: 16×16 white with a red 8×8 square in the middle. */
import { encodePng } from '../helpers/encode.js';
import { drawCells } from '../helpers/raster.js';

export function redSquarePng(): Uint8Array {
  return encodePng(drawCells([[0, 0, 0, 0], [0, 1, 1, 0], [0, 1, 1, 0], [0, 0, 0, 0]], [[255, 255, 255], [255, 0, 0]], 4));
}
