/**
 * Bounded zlib inflate (the zlib-bomb guard of PNG and TIFF data). In: the stream's chunks, a byte limit and a label
 * for messages. Out: the inflated bytes (`inflateBounded`) or the first `size` of them in one preallocated buffer
 * (`inflateBoundedInto`); error 1006 once more than `limit` bytes come out, or on damaged or cut-short data.
 * Input is fed in 4 KiB slices so one push can never expand beyond ~4 MB (DEFLATE's ~1032:1) before the check runs;
 * with 64 KiB slices a 62 KB zlib bomb still allocated 64 MB before being refused (found by tests/fuzz).
 * Uses `fflate`'s streaming Unzlib.
 */

import { Unzlib } from 'fflate';

import { concatBytes } from './bytes.js';
import { corrupt } from './common.js';

/** Feeds every inflated piece to `onData` until more than `limit` bytes came out (then 1006). */
function inflateSlices(chunks: Uint8Array[], limit: number, label: string, onData: (data: Uint8Array) => void): void {
  let total = 0;
  let tooBig = false;
  const inflater = new Unzlib((data) => {
    total += data.length;
    if (total > limit) tooBig = true;
    else onData(data);
  });
  const SLICE = 1 << 12;
  try {
    for (const chunk of chunks) {
      for (let at = 0; at < chunk.length && !tooBig; at += SLICE) inflater.push(chunk.subarray(at, at + SLICE));
      if (tooBig) break;
    }
    if (!tooBig) inflater.push(new Uint8Array(0), true);
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    if (/unexpected EOF/i.test(msg)) throw corrupt(`truncated ${label} (compressed image data ends early)`);
    throw corrupt(`corrupt ${label} (bad compressed image data: ${msg})`);
  }
  if (tooBig) throw corrupt(`corrupt ${label} (image data inflates to more than its header declares; possible zlib bomb)`);
}

/** Inflates the concatenated zlib stream of `chunks`, throwing 1006 once more than `limit` bytes come out. */
export function inflateBounded(chunks: Uint8Array[], limit: number, label = 'PNG'): Uint8Array {
  const parts: Uint8Array[] = [];
  inflateSlices(chunks, limit, label, (data) => parts.push(data));
  return concatBytes(parts);
}

/**
 * Inflates the concatenated zlib stream of `chunks` into a buffer of `size` bytes (`into`, when given and of that
 * size, is reused), throwing 1006 once more than `limit` bytes come out; output past `size` is only counted. Returns
 * the buffer, cut short if less came out.
 */
export function inflateBoundedInto(chunks: Uint8Array[], size: number, limit: number, label = 'PNG', into?: Uint8Array): Uint8Array {
  const out = into && into.length === size ? into : new Uint8Array(size);
  let filled = 0;
  inflateSlices(chunks, limit, label, (data) => {
    const n = Math.min(data.length, size - filled);
    if (n <= 0) return;
    out.set(n === data.length ? data : data.subarray(0, n), filled);
    filled += n;
  });
  return filled === size ? out : out.subarray(0, filled);
}
