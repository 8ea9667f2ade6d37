/**
 * Diagonal connectivity. Where two pixels of one label touch only at a corner (a 45° line one
 * pixel wide, a thin stroke of small text), 4-connectivity would cut the line into specks. At
 * such a vertex the two same-label pixels are linked (8-connectivity for that pair only); when
 * both diagonals are same-label pairs (a checkerboard), the sparser label in the 4×4 window
 * around the vertex is linked — thin features are the sparse ones (Kopf & Lischinski 2011's
 * "sparse pixels" vote).
 * In: labels per pixel. Out: per lattice vertex, 0 = no link, 1 = TL–BR linked, 2 = TR–BL linked.
 */

export const LINK_NONE = 0;
export const LINK_TL_BR = 1;
export const LINK_TR_BL = 2;

/**
 * Links of vertex rows [rowFrom, rowTo) (of 0 … height), as (rowTo − rowFrom) × (width + 1)
 * bytes. A vertex looks at labels two rows around it only, so bands computed apart concatenate
 * to the whole result.
 */
export function diagonalLinkRows(labels: Int32Array, width: number, height: number, rowFrom: number, rowTo: number): Uint8Array {
  const links = new Uint8Array((width + 1) * (rowTo - rowFrom));
  for (let y = Math.max(1, rowFrom); y < Math.min(height, rowTo); y++) {
    for (let x = 1; x < width; x++) {
      const tl = labels[(y - 1) * width + x - 1]!;
      const tr = labels[(y - 1) * width + x]!;
      const bl = labels[y * width + x - 1]!;
      const br = labels[y * width + x]!;
      const mainPair = tl === br && tl >= 0 && tr !== tl && bl !== tl;
      const antiPair = tr === bl && tr >= 0 && tl !== tr && br !== tr;
      let link = LINK_NONE;
      if (mainPair && antiPair) {
        const nMain = countInWindow(labels, width, height, x, y, tl);
        const nAnti = countInWindow(labels, width, height, x, y, tr);
        link = nMain < nAnti || (nMain === nAnti && tl < tr) ? LINK_TL_BR : LINK_TR_BL;
      } else if (mainPair) link = LINK_TL_BR;
      else if (antiPair) link = LINK_TR_BL;
      links[(y - rowFrom) * (width + 1) + x] = link;
    }
  }
  return links;
}

function countInWindow(labels: Int32Array, width: number, height: number, x: number, y: number, label: number): number {
  let n = 0;
  for (let yy = Math.max(0, y - 2); yy < Math.min(height, y + 2); yy++) {
    for (let xx = Math.max(0, x - 2); xx < Math.min(width, x + 2); xx++) if (labels[yy * width + xx] === label) n++;
  }
  return n;
}

/** True when region `r` owns the linked diagonal at vertex (x, y). */
export function isLinkedFor(links: Uint8Array | undefined, regionOf: Int32Array, width: number, height: number, x: number, y: number, r: number): boolean {
  if (!links || x <= 0 || y <= 0 || x >= width || y >= height) return false;
  const link = links[y * (width + 1) + x]!;
  if (link === LINK_TL_BR) return regionOf[(y - 1) * width + x - 1] === r && regionOf[y * width + x] === r;
  if (link === LINK_TR_BL) return regionOf[(y - 1) * width + x] === r && regionOf[y * width + x - 1] === r;
  return false;
}
