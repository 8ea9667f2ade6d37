/** CRC-32 as PNG uses it (ISO 3309 / ITU-T V.42, polynomial 0xEDB88320), table-driven. */

let table: Uint32Array | undefined;

/** CRC-32 of bytes[from, to). */
export function crc32(bytes: ArrayLike<number>, from = 0, to = bytes.length): number {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  return (crcBytes(table, 0xffffffff, bytes, from, to) ^ 0xffffffff) >>> 0;
}

/**
 * The table loop alone, in a function of its own: V8 compiles a long loop on the stack (OSR) and
 * keeps that code for later calls; code after the loop in the same function had no type feedback
 * then, so every later call fell out of the compiled loop there (71 deoptimisations in one pass
 * over the 27 corpus images). Here nothing after the loop needs feedback.
 */
function crcBytes(table: Uint32Array, crc: number, bytes: ArrayLike<number>, from: number, to: number): number {
  let c = crc;
  for (let i = from; i < to; i++) c = table[(c ^ bytes[i]!) & 255]! ^ (c >>> 8);
  return c;
}
