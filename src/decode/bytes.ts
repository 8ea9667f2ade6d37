/** Byte helpers shared by the decoders, the service and the client (no platform APIs). */

/** The chunks joined into one array (the only chunk itself when there is just one). */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  let total = 0;
  for (const c of chunks) total += c.byteLength;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

/**
 * `bytes` when they view an ArrayBuffer, else a copy that does: a Blob, `Response` or
 * `crypto.subtle` refuse SharedArrayBuffer views. The tag, not instanceof: a buffer from another
 * realm (a worker's) is an ArrayBuffer all the same.
 */
export function arrayBufferBytes(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return Object.prototype.toString.call(bytes.buffer) === '[object ArrayBuffer]' ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes);
}
