/**
 * The offer made when a picture has more pixels than the tracer accepts at all (1013): trace it
 * shrunk to input.max_pixels — what the tracer does itself with any accepted picture larger than
 * that. In: the store (the refused source, the current input.max_pixels) and a worker that can
 * shrink it with the browser's codec (src/worker/preview-codec.ts shrinkToPng). Out: the shrunk
 * PNG as the new source, which is then traced like any other; or the error in the status line.
 */

import { ERROR_CODES } from '../engine/errors.js';
import type { ShrunkImage } from '../worker/protocol.js';
import type { Job, Source, TracelabStore } from './store.js';
import { toJobError } from './tracing.js';

export interface Shrinker {
  shrinkImage(bytes: Uint8Array, maxPixels: number): Promise<ShrunkImage>;
}

/** Whether the offer applies: the current source was refused for its pixel count. */
export function offersShrink(job: Job, source: Source | null): boolean {
  return source !== null && job.status === 'error' && job.error?.code === ERROR_CODES.tooManyPixels;
}

/** `logo.png` shrunk to 1448 × 1448 → `logo-1448x1448.png` (downloads take their names from it). */
export function shrunkName(name: string, width: number, height: number): string {
  const base = name.replace(/\.[^./\\]*$/, '') || 'image';
  return `${base}-${width}x${height}.png`;
}

/**
 * Shrinks the current source to input.max_pixels and makes it the input. A new input (startInput):
 * the status says it is loading meanwhile, and a file chosen meanwhile wins.
 */
export async function traceShrunk(store: TracelabStore, shrinker: Shrinker): Promise<void> {
  const { source, options } = store.getState();
  if (!source) return;
  const ticket = store.getState().startInput();
  try {
    const shrunk = await shrinker.shrinkImage(source.bytes.slice(), options['input.max_pixels']);
    const name = shrunkName(source.name, shrunk.width, shrunk.height);
    store.getState().setSource({ name, bytes: shrunk.png, size: shrunk.png.length, type: 'image/png' }, ticket);
  } catch (err) {
    store.getState().reportError(toJobError(err), ticket);
  }
}
