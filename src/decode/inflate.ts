/**
 * The one-shot inflate of the PNG fast path: a zlib stream straight into a buffer of the declared
 * size. In: the stream and the output buffer. Out: the bytes written, or -1 when the stream is
 * damaged, cut short or would not fit — the caller then runs the bounded reference inflate
 * (fflate, inflate-bounded.ts), which gives the result or the documented error.
 * The decoders stay platform-free: a host registers a native inflater (Node: node:zlib, see
 * src/cli/node-codecs.ts); without one, every stream takes the reference path. A host whose
 * native inflate is asynchronous (a browser's DecompressionStream: browser-inflate.ts) inflates
 * the stream before the decode and leaves the result here for it (setPreparedInflate).
 */

export type OneShotInflate = (zlib: Uint8Array, out: Uint8Array) => number;

let registered: OneShotInflate | undefined;

export function setOneShotInflate(inflate: OneShotInflate | undefined): void {
  registered = inflate;
}

/** A stream inflated ahead of the decode that needs it, until that decode takes it. */
let prepared: { readonly zlib: Uint8Array; readonly inflated: Uint8Array } | undefined;

/**
 * Leaves `inflated`, the whole inflation of `zlib`, for the next one-shot inflate of that same
 * stream (compared byte for byte); any other stream is inflated as before. Taken once.
 */
export function setPreparedInflate(zlib: Uint8Array, inflated: Uint8Array): void {
  prepared = { zlib, inflated };
}

export function inflateZlibInto(zlib: Uint8Array, out: Uint8Array): number {
  const ready = prepared;
  if (ready && sameBytes(ready.zlib, zlib)) {
    prepared = undefined;
    if (ready.inflated.length > out.length) return -1;
    out.set(ready.inflated);
    return ready.inflated.length;
  }
  return registered ? registered(zlib, out) : -1;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
