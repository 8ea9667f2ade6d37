/**
 * Data types shared by the engine, the format writers, the API layer and the UI.
 * Units: all coordinates are in traced-image pixels, origin top-left, y down, unless a name says
 * otherwise. Colours are non-premultiplied sRGB bytes.
 */
import type { SegmentPath } from './segment-path.js';

/** A decoded bitmap: 4 bytes per pixel (R, G, B, A), rows top to bottom, no padding. */
export interface RgbaImage {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array | Uint8ClampedArray;
}

/** An sRGB colour with alpha, each channel 0–255. */
export interface Rgba {
  readonly r: number;
  readonly g: number;
  readonly b: number;
  readonly a: number;
}

/** One parsed entry of `processing.palette` (reference §3.2). */
export interface PaletteRule {
  /** The palette colour detected colours snap to. */
  readonly color: Rgba;
  /** Colour that replaces the snapped colour (`->`); absent = keep `color`. */
  readonly remap?: Rgba;
  /** Fractional ARGB distance (0–2); colours within it snap to this entry. Default 2. */
  readonly tolerance: number;
}

export type ShapeStacking = 'cutouts' | 'stacked';

/** Parameterized-shape families, named after `processing.parameterizedShapes.*`. */
export interface ParameterizedShapeSwitches {
  readonly ellipseGeneral: boolean;
  readonly ellipseCircle: boolean;
  readonly triangleGeneral: boolean;
  readonly triangleIsosceles: boolean;
  readonly quadrilateralGeneral: boolean;
  readonly quadrilateralRectangle: boolean;
  readonly quadrilateralBullet: boolean;
  readonly starN3: boolean;
  readonly starN4: boolean;
  readonly starN5: boolean;
  readonly starN6: boolean;
}

/** Everything the engine needs; built from API options by `toEngineParams` in src/api only. */
export interface EngineParams {
  /** 0 = choose the colour count automatically; 1–256 = at most this many colours. */
  readonly maxColors: number;
  /** Parsed `processing.palette`; empty = no palette rules. */
  readonly palette: readonly PaletteRule[];
  /** Shapes with a smaller area (px²) merge into their best neighbour. */
  readonly minAreaPx: number;
  /** Larger inputs are shrunk to at most this many pixels before tracing. */
  readonly maxPixels: number;
  readonly shapeStacking: ShapeStacking;
  readonly parameterizedShapes: ParameterizedShapeSwitches;
  /**
   * Tracelab extension `tracelab.gradients`: a smoothly shaded area becomes one shape with a
   * gradient fill (Shape.gradient) instead of a few flat bands. Absent = false.
   */
  readonly gradients?: boolean;
  /**
   * Tracelab extension `tracelab.layers` (with shapeStacking 'stacked'; no effect with cutouts):
   * shapes partly hidden by shapes over them are completed underneath, and flat translucent
   * overlays become one translucent shape over the shapes below (src/engine/layers/). Absent = false.
   */
  readonly layers?: boolean;
  /**
   * Tracelab extension `tracelab.profile`: 'auto' (absent) lets the engine decide what kind of
   * picture it is (classifyImage); any other value overrides that decision (and the lattice
   * detection, unless it is 'pixel'). A forced 'pixel' still falls back to photo above
   * MAX_TRACED_REGIONS regions.
   */
  readonly profile?: ImageProfile | 'auto';
  /**
   * Tracelab extension `tracelab.strokes`: 'none' (absent) traces every line as a thin filled
   * shape; 'centerline' gives no fills: ink up to maxStrokeWidthPx wide becomes centre-line
   * strokes (TraceResult.strokes), wider ink its outlines (src/engine/strokes/). 'auto' makes
   * the lines and outlines of near-constant width up to maxStrokeWidthPx strokes, drawn over the
   * fills, which reach under them to their centre-lines (strokes/auto.ts); every other shape as
   * 'none' (pixel art and photos: nothing changes).
   */
  readonly strokes?: StrokeMode;
  /** Tracelab extension `tracelab.max_stroke_width` (input px): the widest ink read as a line. Absent or 0: automatic (index.ts maxStrokeWidthInputPx). */
  readonly maxStrokeWidthPx?: number;
}

export type StrokeMode = 'none' | 'auto' | 'centerline';

export type { Segment } from './segment-path.js';

/**
 * One boundary between two regions, fitted once and used by both (the shared boundary graph).
 * `left`/`right` are region indices seen when walking from start to end (y down), -1 = nothing
 * (transparent or outside the image).
 */
export interface Chain {
  readonly startX: number;
  readonly startY: number;
  /**
   * Fitted segments in one typed array (segment-path.ts); iterating it, or `at(k)`, gives
   * Segment objects.
   */
  readonly segments: SegmentPath;
  readonly leftRegion: number;
  readonly rightRegion: number;
  readonly closed: boolean;
}

/** A chain used by a loop, forwards or backwards. */
export interface ChainUse {
  readonly chain: number;
  readonly reversed: boolean;
}

/** A closed loop: chain uses in order; each ends where the next begins. */
export type Loop = readonly ChainUse[];

/**
 * A parameterized shape recognised in a region's outer boundary (processing.parameterizedShapes),
 * in traced coordinates, y down. `rotationDeg` turns clockwise on screen:
 * - circle: always 0;
 * - ellipse: direction of the `rx` (major) axis, [0, 180);
 * - rectangle: direction of the `width` side, [0, 90); corners rounded by `cornerRadius` (0 = sharp);
 * - triangle: direction from (cx, cy) — the vertex centroid — to vertices[0] (the apex of an
 *   isosceles triangle), [0, 360);
 * - star: direction from (cx, cy) to the first tip, [0, 360 / points);
 * - quadrilateral: direction from (cx, cy) — the vertex centroid — to vertices[0], [0, 360);
 * - bullet: direction of its axis, from the middle of the straight side towards the round back,
 *   [0, 360).
 */
export type ShapePrimitive =
  | { readonly family: 'circle'; readonly cx: number; readonly cy: number; readonly rotationDeg: number; readonly r: number }
  | { readonly family: 'ellipse'; readonly cx: number; readonly cy: number; readonly rotationDeg: number; readonly rx: number; readonly ry: number }
  | {
      readonly family: 'rectangle';
      readonly cx: number;
      readonly cy: number;
      readonly rotationDeg: number;
      readonly width: number;
      readonly height: number;
      readonly cornerRadius: number;
    }
  | {
      readonly family: 'triangle';
      readonly cx: number;
      readonly cy: number;
      readonly rotationDeg: number;
      /** Two sides equal (fitted with a mirror axis; `processing.parameterizedShapes.triangle.isosceles`). */
      readonly isosceles: boolean;
      readonly vertices: readonly (readonly [number, number])[];
    }
  | {
      readonly family: 'star';
      readonly cx: number;
      readonly cy: number;
      readonly rotationDeg: number;
      readonly points: number;
      readonly outerRadius: number;
      readonly innerRadius: number;
    }
  | {
      /** A convex 4-gon that is no rectangle (`processing.parameterizedShapes.quadrilateral.general`). */
      readonly family: 'quadrilateral';
      readonly cx: number;
      readonly cy: number;
      readonly rotationDeg: number;
      /** Clockwise on screen, starting with the first vertex of the longest side. */
      readonly vertices: readonly (readonly [number, number])[];
    }
  | {
      /**
       * A "D" (`processing.parameterizedShapes.quadrilateral.bullet`): one straight side of length
       * `height`, two straight sides at right angles to it, closed by a half-ellipse (the round
       * back). (cx, cy) is the middle of its bounding box (aligned with the axis).
       */
      readonly family: 'bullet';
      readonly cx: number;
      readonly cy: number;
      readonly rotationDeg: number;
      /** Length along the axis: from the straight side to the tip of the round back. */
      readonly width: number;
      /** Length of the straight side (the shape's full breadth). */
      readonly height: number;
      /**
       * How far the round back reaches along the axis (its half-ellipse's semi-axis); `height / 2`
       * for a semicircle. `width − depth` is the straight body (0 for a pure half-disc or
       * half-ellipse "D").
       */
      readonly depth: number;
    };

/** One colour stop of a gradient: `offset` 0–1 along the gradient, opaque sRGB colour. */
export interface GradientStop {
  readonly offset: number;
  readonly color: Rgba;
}

/**
 * A gradient fill (Tracelab extension `tracelab.gradients`), in traced coordinates, y down.
 * Colours are interpolated linearly in sRGB between stops (SVG's and PDF's default); before the
 * first stop and after the last the end colours continue (SVG spreadMethod="pad", PDF Extend).
 * Stops are sorted by offset, at least two, the first at 0 and the last at 1; every stop is opaque.
 * - linear: the colour at point p is the ramp at t = ((p − p1) · (p2 − p1)) / |p2 − p1|²;
 * - radial: circles around (cx, cy); the colour at p is the ramp at t = |p − c| / r; an elliptical
 *   one (ry, rotationDeg) has ellipses: with u, v the coordinates of p − c along the first axis
 *   (cos θ, sin θ) and the second (−sin θ, cos θ), t = √((u / r)² + (v / ry)²).
 */
export type Gradient =
  | {
      readonly kind: 'linear';
      readonly x1: number;
      readonly y1: number;
      readonly x2: number;
      readonly y2: number;
      readonly stops: readonly GradientStop[];
    }
  | {
      readonly kind: 'radial';
      readonly cx: number;
      readonly cy: number;
      /** Radius along the first axis (offset 1 there). */
      readonly r: number;
      /**
       * An elliptical ramp (SVG: a radialGradient with a gradientTransform): the radius along the
       * second axis; absent = r (circles).
       */
      readonly ry?: number;
      /** Direction of the first axis, degrees clockwise on screen from +x; absent = 0. */
      readonly rotationDeg?: number;
      readonly stops: readonly GradientStop[];
    };

/**
 * The shapes under 4 px by why they are left: `dots` — a flat colour's dot standing on its own
 * (edge crumbs, between two regions, were merged: a dot is a feature); `shades` — a piece of a
 * smoothly shaded area's band; `specks` — kept by the profile's own rule (pixel-art cells, line
 * art's and noisy art's specks above their despeckle area). Kinds with none are absent.
 */
export interface SmallShapeKinds {
  readonly dots?: number;
  readonly shades?: number;
  readonly specks?: number;
}

/** The reference §3.9 model: one positive loop plus holes, all filled with one colour. */
export interface Shape {
  readonly region: number;
  /** The fill colour; for a gradient shape, its pixels' mean colour (strokes and flat-only consumers use it). */
  readonly color: Rgba;
  /** A gradient fill (tracelab.gradients); absent = filled flat with `color`. */
  readonly gradient?: Gradient;
  readonly outer: Loop;
  readonly holes: readonly Loop[];
  /** Pixel area of the region (for ordering and stats). */
  readonly areaPx: number;
  /** Region index of the smallest shape whose hole this one lies in, or -1 (group_by=parent/layer). */
  readonly parent: number;
  /**
   * The primitive this shape is, when its outer loop is one closed chain fitted as a
   * parameterized shape and it has no holes; the chain's segments then are its exact geometry.
   */
  readonly primitive?: ShapePrimitive;
}

/**
 * A pen stroke (tracelab.strokes=centerline or auto): a path of chain uses (one centre-line chain, or an
 * outline loop of a shape's chains) stroked `widthPx` wide (traced px) in `color`, no fill.
 */
export interface StrokeLine {
  readonly uses: readonly ChainUse[];
  readonly closed: boolean;
  readonly color: Rgba;
  readonly widthPx: number;
  readonly cap: 'butt' | 'round';
  readonly join: 'miter' | 'round';
  /** The outline of ink wider than tracelab.max_stroke_width (else a centre-line). */
  readonly outline: boolean;
}

/** What tracelab.strokes made: strokes, their widths (traced px), and the pen's travel. */
export interface StrokeStats {
  readonly count: number;
  /** Of them, outlines of ink wider than a line. */
  readonly outlines: number;
  readonly widthMinPx: number;
  readonly widthMedianPx: number;
  readonly widthMaxPx: number;
  /** Length drawn (pen down) and travelled between strokes (pen up), in pen order. */
  readonly penDownPx: number;
  readonly penUpPx: number;
  /** Pen-up length had the strokes been drawn in the order they were found (no ordering). */
  readonly penUpInputOrderPx: number;
}

export interface TraceStats {
  readonly colors: number;
  /** tracelab.strokes: the strokes made; absent = none. */
  readonly strokes?: StrokeStats;
  /** Shapes filled with a gradient (tracelab.gradients); absent = none. */
  readonly gradients?: number;
  /**
   * Smoothly shaded areas found (with tracelab.gradients off, each was drawn as a few flat bands);
   * absent = none.
   */
  readonly smoothAreas?: number;
  /**
   * Shapes under 4 px of area; absent = none. In clean flat art these are dots standing on their
   * own (a highlight, a star), kept as features: edge crumbs — a few pixels between two regions —
   * join a neighbour. Pixel art keeps every cell; photos and noisy art lose specks under their
   * despeckle area, line art under 2 px; `processing.shapes.min_area_px` removes the rest.
   */
  readonly smallShapes?: number;
  /** Why the smallShapes are left, by kind (index.ts smallShapeKinds); absent with smallShapes. */
  readonly smallShapeKinds?: SmallShapeKinds;
  readonly regions: number;
  readonly chains: number;
  readonly profile: ImageProfile;
  /**
   * Why the picture got its profile, in a few words for people (the playground's stats, the
   * library's summary), e.g. "two colours, no anti-aliasing: line art" or "chosen by
   * tracelab.profile". Not a stable format: do not parse it. The engine always sets it; absent in
   * traces stored by older versions.
   */
  readonly profileReason?: string;
  /** Milliseconds per pipeline stage, for the benchmark; not part of the deterministic output. */
  readonly stageMs: Readonly<Record<string, number>>;
  /** Stages taken from the memo of an earlier trace of the same picture (fast retrace). */
  readonly reusedStages?: readonly string[];
}

/**
 * What kind of picture the engine decided it is looking at: pixel art (traced on its lattice),
 * flat art, a photo, or line art — two colours without anti-aliasing, a drawing or a scan
 * thresholded to black and white, whose staircases are the sampling of smooth outlines.
 */
export type ImageProfile = 'pixel' | 'flat' | 'photo' | 'lineart';

export interface TraceResult {
  /** Size of the traced bitmap (after shrinking to maxPixels). */
  readonly width: number;
  readonly height: number;
  /** Size of the input bitmap; writers scale traced coordinates to it (viewBox in input pixels). */
  readonly inputWidth: number;
  readonly inputHeight: number;
  /** Pixels per inch from the input file's metadata, when it had any (sets the natural page size). */
  readonly inputDpi?: number;
  /**
   * The ICC profile (RGB) the colours are in, for writers to embed (processing.color_profile.output = preserve;
   * set by the pipeline, never by the engine).
   */
  readonly colorProfile?: Uint8Array;
  /** How the shapes were built (absent in traces stored by older versions = cutouts). */
  readonly shapeStacking?: ShapeStacking;
  readonly chains: readonly Chain[];
  /** Shapes in paint order, bottom first. */
  readonly shapes: readonly Shape[];
  /** Pen strokes in pen order (tracelab.strokes=centerline, or auto: over the shapes; drawn after them); absent = none. */
  readonly strokes?: readonly StrokeLine[];
  /**
   * tracelab.strokes=auto: the chains (ascending) that run under an opaque stroke, between two
   * fills that reach under it: the stroke hides their seam, so they need no gap filler.
   */
  readonly chainsUnderStrokes?: readonly number[];
  readonly stats: TraceStats;
}
