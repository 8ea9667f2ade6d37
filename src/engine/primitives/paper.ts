/**
 * Line art on one paper (tracelab.strokes=auto, issue 38): the paper drawn once as the picture's
 * background, the ink over it, each border written once.
 * In: the regions and their labels, the shapes assembled without the paper's regions (shapes.ts,
 * every ink hole kept), the traced size.
 * Out: the background shape (a rectangle over the whole picture in the paper's colour, its outline
 * one new closed chain appended to the chains) under the ink shapes, whose parents are re-read
 * without the paper's regions.
 * Why: under cutouts every border between ink and paper was written twice (the ink's outline and
 * the paper's hole) and once more as gap filler; potrace writes the ink alone. With the paper one
 * rectangle underneath, an ink shape's holes show the paper through them, nothing abuts anything
 * (no seam, so no gap filler), and a counter of paper inside a letter needs no shape of its own.
 * Only for opaque two-tone line art: with a transparent pixel the paper is not the whole picture
 * (and where the paper itself is transparent there is no paper label to drop: the ink alone is
 * written, as before).
 */
import { SegmentPath } from '../segment-path.js';
import { backgroundLabel } from '../strokes/index.js';
import type { Chain, ImageProfile, Rgba, Shape } from '../types.js';
import type { Regions } from '../regions/regions.js';

/**
 * The label of the paper when the picture is opaque line art in two tones (the label holding most
 * of the border, strokes/index.ts backgroundLabel), else −1.
 */
export function paperLabelOf(profile: ImageProfile, regions: Regions, labelCount: number, width: number, height: number): number {
  if (profile !== 'lineart' || labelCount !== 2) return -1;
  const { regionOf, labelOf } = regions;
  const used = [false, false];
  for (let r = 0; r < regions.count; r++) used[labelOf[r]!] = true;
  if (!used[0] || !used[1]) return -1;
  for (let i = 0; i < regionOf.length; i++) if (regionOf[i]! < 0) return -1;
  return backgroundLabel({ width, height, regionOf }, labelOf);
}

/**
 * Per region, the region whose hole holds it once the paper's regions are no shapes: an ink
 * region inside a counter lies in the ink around that counter; one on the open paper lies on the
 * background, numbered `background` (one past the regions: no chain borders it, so no gap filler
 * runs along the ink's borders, which only the ink draws).
 */
export function parentsOnPaper(parentOf: Int32Array, labelOf: Int32Array, paperLabel: number, background: number): Int32Array {
  const parents = new Int32Array(parentOf.length);
  for (let r = 0; r < parentOf.length; r++) {
    let p = parentOf[r]!;
    while (p >= 0 && labelOf[p] === paperLabel) p = parentOf[p]!;
    parents[r] = p >= 0 ? p : background;
  }
  return parents;
}

/** The paper as the bottom shape, numbered `region` (parentsOnPaper): chain `chainIndex` (frameChain) as its outline, the whole picture's area. */
export function backgroundShape(region: number, color: Rgba, chainIndex: number, width: number, height: number): Shape {
  return { region, color, outer: [{ chain: chainIndex, reversed: false }], holes: [], areaPx: width * height, parent: -1 };
}

/**
 * The picture's frame as one closed chain of four lines with `region` on its left (y down: down
 * the left side first, the way every outer loop runs), nothing on its right.
 */
export function frameChain(region: number, width: number, height: number): Chain {
  const segments = SegmentPath.of([
    { kind: 'line', x: 0, y: height },
    { kind: 'line', x: width, y: height },
    { kind: 'line', x: width, y: 0 },
    { kind: 'line', x: 0, y: 0 },
  ]);
  return { startX: 0, startY: 0, segments, leftRegion: region, rightRegion: -1, closed: true };
}
