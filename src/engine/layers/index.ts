/**
 * Stage 9 layers (tracelab.layers, with output.shape_stacking=stacked): the stacked shapes made
 * into the layers an artist draws.
 * In: the stacked shapes (bottom first), the chains, and each traced pixel's region.
 * Out: the shapes and chains to write: translucent layers found (translucent.ts: one shape of
 * one colour and opacity over the shapes beneath, extended under it), then occluded shapes
 * completed underneath as the circle, ellipse or rectangle their visible outline is (occluded.ts). Stack order is kept: a completed shape covers
 * only its own pixels and pixels of shapes stacked above it, so the picture drawn is unchanged
 * where it was right, and has one simple shape where it had a cut-out one.
 * With cutouts there is nothing underneath a shape to complete: the stage does nothing.
 */
import type { Chain, Shape } from '../types.js';
import { completeOccludedShapes, type StackPixels } from './occluded.js';
import { findTranslucentLayers } from './translucent.js';

export interface LayeredShapes {
  readonly shapes: Shape[];
  readonly chains: Chain[];
  /** Shapes completed under the shapes over them. */
  readonly completed: number;
  /** Translucent layers found. */
  readonly translucent: number;
}

/** The traced picture's regions: per pixel (StackPixels), their count and observed colours. */
export interface LayerRegions extends StackPixels {
  readonly regionCount: number;
  /** Observed r, g, b per region. */
  readonly regionColor: Float64Array;
}

export function layerShapes(shapes: readonly Shape[], chains: readonly Chain[], regions: LayerRegions): LayeredShapes {
  // Translucent layers first: the shapes they extend are outlines of unions, not pieces to complete.
  const layered = findTranslucentLayers({ shapes, chains, regionColor: regions.regionColor, regionCount: regions.regionCount, pixels: regions });
  const completed = completeOccludedShapes(layered.shapes, chains, regions, layered.remade);
  return { ...completed, translucent: layered.layers };
}
