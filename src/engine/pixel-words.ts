/**
 * RGBA pixels as one 32-bit word each, so that "the same colour" is one comparison.
 * In: RGBA bytes (4 per pixel). Out: a Uint32Array over the same memory when the bytes start on a
 * 4-byte boundary, else a copy (a caller's subarray of a bigger buffer). Byte order does not
 * matter for equality; RGB_MASK selects the colour bits without alpha in either order.
 */

/** The bits of a pixel word that hold R, G and B, whatever the platform's byte order. */
export const RGB_MASK = new Uint32Array(new Uint8Array([255, 255, 255, 0]).buffer)[0]! | 0;

export function pixelWords(data: Uint8Array | Uint8ClampedArray): Uint32Array {
  const count = data.length >> 2;
  if (data.byteOffset % 4 === 0) return new Uint32Array(data.buffer, data.byteOffset, count);
  return new Uint32Array(Uint8Array.from(data.subarray(0, count * 4)).buffer);
}
