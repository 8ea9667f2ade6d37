/**
 * The one-shot inflate of the PNG fast path: a zlib stream straight into a buffer of the declared
 * size. In: the stream and the output buffer. Out: the bytes written, or -1 when the stream is
 * damaged, cut short or would not fit — the caller then runs the bounded reference inflate
 * (fflate, inflate-bounded.ts), which gives the result or the documented error.
 * The decoders stay platform-free: a host registers a native inflater (Node: node:zlib, see
 * src/cli/node-codecs.ts); without one, every stream takes the reference path.
 */

export type OneShotInflate = (zlib: Uint8Array, out: Uint8Array) => number;

let registered: OneShotInflate | undefined;

export function setOneShotInflate(inflate: OneShotInflate | undefined): void {
  registered = inflate;
}

export function inflateZlibInto(zlib: Uint8Array, out: Uint8Array): number {
  return registered ? registered(zlib, out) : -1;
}
