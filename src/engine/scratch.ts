/**
 * Typed arrays that traces run one after another borrow instead of allocating (issue 42). In: a
 * slot (one per allocation site, named below) and a length. Out: an array of that length, a view
 * of the slot's buffer, which grows when a longer one is asked for.
 *
 * Why: warm, the collector's full mark-compacts on icons, clip art and line art are started by
 * typed arrays' off-heap bytes, not by JS objects (docs/benchmark.md); a picture's palette
 * histograms, label scratch and shading's per-pixel arrays were a large share of them, made
 * anew by every trace. The caller owns the pool — one per thread or library instance, handed to
 * every trace it runs (TraceHooks.scratch, runJob's last argument) — so the engine keeps no state
 * of its own between calls; without one, a trace makes a pool of its own, whose arrays are fresh.
 *
 * Rules that keep the output the same bytes with a pool, without one, fresh or reused:
 * - an array holds whatever its slot's last user left, unless `fill` is given: a site that read
 *   a fresh array's zeros asks for fill 0;
 * - an array lives only until the function that asked for it returns: it never goes into a
 *   result, the memo or another slot, and that function does not yield (two traces interleaved
 *   at a checkpoint share one pool).
 */

/** The allocation sites that borrow, each its own slot (two sites never share one). */
export type ScratchSlot =
  /** palette.ts histogramScratch: five arrays of 32,768 bins. */
  | 'palette.histogramCount'
  | 'palette.histogramSumR'
  | 'palette.histogramSumG'
  | 'palette.histogramSumB'
  | 'palette.histogramSumSquares'
  /** palette.ts distinctFlatBins: the candidate per histogram bin. */
  | 'palette.candidateOfBin'
  /** palette.ts interiorShares: the nearest cluster per pixel. */
  | 'palette.interiorNearest'
  /** label.ts nearestLabels: the nearest palette label per pixel of a band and its halo … */
  | 'label.nearest'
  /** … and the label per 6-bit colour bin. */
  | 'label.colourCache'
  /** shading.ts findSmoothAreas: the group or part that owns each pixel. */
  | 'shading.owner'
  /** shaded-regions.ts applyShading: each pixel's key, and cutBands' area band and union-find forest per pixel. */
  | 'shading.keyOf'
  | 'shading.areaBand'
  | 'shading.bandParent';

type PooledArray = Int32Array | Int16Array | Uint16Array | Float64Array;

/**
 * Arrays over this many bytes are made fresh each time and not kept: a pool on a long-lived thread
 * would otherwise hold a large photo's per-pixel arrays for good (4 MB: a 1-MP picture's Int32Array).
 */
const POOLED_MAX_BYTES = 4 * 1024 * 1024;

export class TraceScratch {
  private readonly buffers = new Map<ScratchSlot, PooledArray>();

  int32(slot: ScratchSlot, length: number, fill?: number): Int32Array {
    return this.borrow(slot, length, fill, Int32Array);
  }

  int16(slot: ScratchSlot, length: number, fill?: number): Int16Array {
    return this.borrow(slot, length, fill, Int16Array);
  }

  uint16(slot: ScratchSlot, length: number, fill?: number): Uint16Array {
    return this.borrow(slot, length, fill, Uint16Array);
  }

  float64(slot: ScratchSlot, length: number, fill?: number): Float64Array {
    return this.borrow(slot, length, fill, Float64Array);
  }

  private borrow<T extends PooledArray>(slot: ScratchSlot, length: number, fill: number | undefined, make: new (length: number) => T): T {
    const kept = this.buffers.get(slot);
    if (kept instanceof make && kept.length >= length) {
      const view = (kept.length === length ? kept : kept.subarray(0, length)) as T;
      if (fill !== undefined) view.fill(fill);
      return view;
    }
    const made = new make(length);
    // A new array is zeros already.
    if (fill !== undefined && fill !== 0) made.fill(fill);
    if (made.byteLength <= POOLED_MAX_BYTES) this.buffers.set(slot, made);
    return made;
  }
}
