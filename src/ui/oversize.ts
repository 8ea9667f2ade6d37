/**
 * The offer made when a picture has more pixels than the tracer accepts at all (1013): trace it
 * shrunk to input.max_pixels — what the tracer does itself with any accepted picture larger than
 * that. In: the store (the refused source, the current input.max_pixels) and a worker that can
 * shrink it with the browser's codec (src/worker/preview-codec.ts shrinkToPng). Out: the shrunk
 * PNG as the new source, which is then traced like any other; or the error in the status line.
 */

import { ERROR_CODES, TOO_MANY_PIXELS_ADVICE, tooManyPixelsSize } from '../engine/errors.js';
import { shrunkSize } from '../engine/profile/resize.js';
import type { ShrunkImage } from '../worker/protocol.js';
import { formatNumber } from './format.js';
import { statusText, type Job, type Source, type TracelabStore } from './store.js';
import { toJobError } from './tracing.js';

export interface Shrinker {
  shrinkImage(bytes: Uint8Array, maxPixels: number): Promise<ShrunkImage>;
}

/** Whether the offer applies: the current source was refused for its pixel count. */
export function offersShrink(job: Job, source: Source | null): boolean {
  return source !== null && job.status === 'error' && job.error?.code === ERROR_CODES.tooManyPixels;
}

/** Said instead of the API's advice to shrink the picture first: the button beside it does that. */
const OFFER_NOTE = 'The page can shrink it for you (in your browser) and trace that:';

/**
 * The words of the offer (issue 41: the status said "shrink larger images first" beside the button
 * that does it, and the button "Trace it shrunk to 2,097,252 px"): the status line with the note
 * above in place of the API's advice, and the button with the size the picture will be traced at
 * (the tracer's own rule, shrunkSize, which the worker's shrink follows), or its pixel budget when
 * the message does not name the picture's size.
 */
export function shrinkOffer(job: Job, maxPixels: number): { status: string; button: string } {
  const status = statusText(job, true).replace(TOO_MANY_PIXELS_ADVICE, OFFER_NOTE);
  const size = tooManyPixelsSize(job.error?.message ?? '');
  const target = size && shrunkSize(size.width, size.height, maxPixels);
  const button = target ? `Trace it shrunk to ${target.width} × ${target.height} px` : `Trace it shrunk to at most ${formatNumber(maxPixels)} px`;
  return { status, button };
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
