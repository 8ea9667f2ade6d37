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
  let c = 0xffffffff;
  for (let i = from; i < to; i++) c = table[(c ^ bytes[i]!) & 255]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
