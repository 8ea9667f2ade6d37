/**
 * Stage 9 layers (tracelab.layers, with output.shape_stacking=stacked): the stacked shapes made
 * into the layers an artist draws.
 * In: the stacked shapes (bottom first), the chains, and each traced pixel's region.
 * Out: the shapes and chains to write: occluded shapes completed underneath as the circle or
 * ellipse their visible outline is (occluded.ts). Stack order is kept: a completed shape covers
 * only its own pixels and pixels of shapes stacked above it, so the picture drawn is unchanged
 * where it was right, and has one simple shape where it had a cut-out one.
 * With cutouts there is nothing underneath a shape to complete: the stage does nothing.
 */
import type { Chain, Shape } from '../types.js';
import { completeOccludedShapes, type StackPixels } from './occluded.js';

export interface LayeredShapes {
  readonly shapes: Shape[];
  readonly chains: Chain[];
  /** Shapes completed under the shapes over them. */
  readonly completed: number;
}

export function layerShapes(shapes: readonly Shape[], chains: readonly Chain[], pixels: StackPixels): LayeredShapes {
  return completeOccludedShapes(shapes, chains, pixels);
}
