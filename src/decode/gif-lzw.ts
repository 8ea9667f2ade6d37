/**
 * GIF LZW image data → colour indices (GIF89a appendix F), written here because gifuct-js's
 * decoder follows prefix chains without a bound: a corrupt stream that makes a chain loop grows its
 * stack until the process runs out of memory (a 106-byte file did, found by the fuzz suite).
 * Bounds: every chain walk is at most 4096 steps (the table size), the output is exactly
 * `pixelCount` indices (missing pixels are 0), and reading past the data ends the stream.
 */

const MAX_CODES = 4096;

/** `blocks`: the concatenated sub-block bytes of the frame's image data. */
export function lzwDecode(minCodeSize: number, blocks: ArrayLike<number>, pixelCount: number): Uint8Array {
  const out = new Uint8Array(pixelCount);
  const prefix = new Int16Array(MAX_CODES);
  const suffix = new Uint8Array(MAX_CODES);
  const stack = new Uint8Array(MAX_CODES + 1);
  const clear = 1 << minCodeSize;
  const end = clear + 1;
  for (let c = 0; c < clear; c++) suffix[c] = c & 0xff;
  let codeSize = minCodeSize + 1;
  let available = clear + 2;
  let oldCode = -1;
  let first = 0;
  let datum = 0;
  let bits = 0;
  let bi = 0;
  let pi = 0;
  while (pi < pixelCount) {
    while (bits < codeSize) {
      if (bi >= blocks.length) return out; // data ran out: the rest stays 0
      datum |= (blocks[bi++]! & 0xff) << bits;
      bits += 8;
    }
    const code = datum & ((1 << codeSize) - 1);
    datum >>>= codeSize;
    bits -= codeSize;
    if (code === clear) {
      codeSize = minCodeSize + 1;
      available = clear + 2;
      oldCode = -1;
      continue;
    }
    if (code === end || code > available) break;
    if (oldCode === -1) {
      first = suffix[code]!;
      out[pi++] = first;
      oldCode = code;
      continue;
    }
    // Walk the chain into the stack (reversed), at most MAX_CODES steps.
    let top = 0;
    let c = code;
    if (code === available) {
      stack[top++] = first;
      c = oldCode;
    }
    let steps = 0;
    while (c >= clear && steps++ < MAX_CODES) {
      stack[top++] = suffix[c]!;
      c = prefix[c]!;
      if (top >= MAX_CODES) break;
    }
    if (steps >= MAX_CODES || top >= MAX_CODES) break; // a looping chain: corrupt data, stop here
    first = suffix[c]!;
    stack[top++] = first;
    while (top > 0 && pi < pixelCount) out[pi++] = stack[--top]!;
    if (available < MAX_CODES) {
      prefix[available] = oldCode;
      suffix[available] = first;
      available++;
      if (available === 1 << codeSize && codeSize < 12) codeSize++;
    }
    oldCode = code;
  }
  return out;
}

/** Rows of an interlaced frame (passes: every 8th from 0, every 8th from 4, every 4th from 2, every 2nd from 1) in display order. */
export function deinterlaceRows(indices: Uint8Array, width: number, height: number): Uint8Array {
  const out = new Uint8Array(indices.length);
  let from = 0;
  for (const [start, step] of [[0, 8], [4, 8], [2, 4], [1, 2]] as const) {
    for (let row = start; row < height; row += step) {
      out.set(indices.subarray(from * width, (from + 1) * width), row * width);
      from++;
    }
  }
  return out;
}
