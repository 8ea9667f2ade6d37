/**
 * png-adam7.ts's inflateBounded writing into one preallocated buffer. In: IDAT chunk data, the declared size and
 * the zlib-bomb limit. Out: the first `size` inflated bytes. Same 4 KiB slices, same limit and the same errors as
 * inflateBounded (whose loop this repeats, so that file stays as it is); only where the output goes differs.
 * Uses `fflate`'s streaming Unzlib.
 */

import { Unzlib } from 'fflate';

import { corrupt } from './common.js';

/**
 * Inflates the concatenated zlib stream of `chunks` into a buffer of `size` bytes (`into`, when given and of that
 * size, is reused), throwing 1006 once more than `limit` bytes come out; output past `size` is only counted. Returns
 * the buffer, cut short if less came out.
 */
export function inflateBoundedInto(chunks: Uint8Array[], size: number, limit: number, label = 'PNG', into?: Uint8Array): Uint8Array {
  const out = into && into.length === size ? into : new Uint8Array(size);
  let filled = 0;
  let total = 0;
  let tooBig = false;
  const inflater = new Unzlib((data) => {
    total += data.length;
    if (total > limit) {
      tooBig = true;
      return;
    }
    const n = Math.min(data.length, size - filled);
    if (n <= 0) return;
    out.set(n === data.length ? data : data.subarray(0, n), filled);
    filled += n;
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
  return filled === size ? out : out.subarray(0, filled);
}
