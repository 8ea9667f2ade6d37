/**
 * Exact rejection of polygons before their fits.
 * In: a loop's samples, a number of sides k and the largest-distance budget e.
 * Out: true when 2k + 1 of the samples prove that no closed polygon of k sides passes within e of
 * every sample, so that a triangle (k = 3), general quadrilateral or sharp rectangle (k = 4) fit
 * would be rejected whatever its polish found, and the caller can skip it; false proves nothing.
 * Method: a greedy pick of samples every triple of which is wider than 2e (why that suffices:
 * beyondPolygons).
 */

/** Places around the loop the certificate's samples are picked from. */
const CERTIFICATE_PLACES = 64;
/** Starting offsets (in places) tried; finding no certificate from any proves nothing. */
const CERTIFICATE_STARTS = [0, 17, 34, 51];

/**
 * Whether no closed polygon of `sides` sides passes within `e` of every sample, so that a fit of
 * one would be rejected for its largest distance whatever the polish found.
 * Why it holds: a sample within e of a side lies in the strip of width 2e around the side's
 * line, and three samples lie in one such strip only if their triangle's smallest height is at
 * most 2e. If 2·sides + 1 samples have every triple wider than that, each strip holds at most two
 * of them, `sides` strips at most 2·sides, so one of them is farther than e from every side. (A
 * margin of 1e-9 keeps rounding in the fit's own distances from mattering.)
 * The samples are picked greedily at CERTIFICATE_PLACES places in bit-reversed order (the first
 * picks spread around the loop), from a few starting offsets. Not finding them proves nothing:
 * the fit then runs as before.
 */
export function beyondPolygons(p: Float64Array, sides: number, e: number): boolean {
  const n = p.length / 2;
  const need = 2 * sides + 1;
  const width = 2 * e * (1 + 1e-9) + 1e-9;
  const picked = new Int32Array(need);
  for (const start of CERTIFICATE_STARTS) {
    let count = 0;
    // Stops when the places left could not complete the set.
    for (let t = 0; t < CERTIFICATE_PLACES && count < need && count + CERTIFICATE_PLACES - t >= need; t++) {
      const place = (reverseBits6(t) + start) % CERTIFICATE_PLACES;
      const i = Math.floor((place * n) / CERTIFICATE_PLACES);
      if (fatWithAll(p, picked, count, i, width)) picked[count++] = i;
    }
    if (count === need) return true;
  }
  return false;
}

/** Whether sample i, with every pair of the first `count` picked samples, spans more than `width`. */
function fatWithAll(p: Float64Array, picked: Int32Array, count: number, i: number, width: number): boolean {
  for (let a = 0; a < count; a++) {
    if (picked[a] === i) return false;
    for (let b = a + 1; b < count; b++) if (!(tripleWidth(p, picked[a]!, picked[b]!, i) > width)) return false;
  }
  return true;
}

/**
 * Width of the narrowest strip holding samples a, b and c: twice their triangle's area over its
 * longest side (the smallest height).
 */
function tripleWidth(p: Float64Array, a: number, b: number, c: number): number {
  const ax = p[a * 2]!;
  const ay = p[a * 2 + 1]!;
  const bx = p[b * 2]!;
  const by = p[b * 2 + 1]!;
  const cx = p[c * 2]!;
  const cy = p[c * 2 + 1]!;
  const cross = Math.abs((bx - ax) * (cy - ay) - (by - ay) * (cx - ax));
  const longest = Math.sqrt(Math.max((bx - ax) ** 2 + (by - ay) ** 2, (cx - bx) ** 2 + (cy - by) ** 2, (ax - cx) ** 2 + (ay - cy) ** 2));
  return longest > 0 ? cross / longest : 0;
}

/** The 6-bit number t with its bits in reverse order (0, 32, 16, 48, 8, … for t = 0, 1, 2, …). */
function reverseBits6(t: number): number {
  let r = 0;
  for (let b = 0; b < 6; b++) r = (r << 1) | ((t >> b) & 1);
  return r;
}
