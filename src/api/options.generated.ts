// GENERATED from src/api/options.ts by scripts/lib-options.mjs (src/lib/options-source.ts); do not edit.
// Checked by tests/lib/options.test.ts.

/** The API's /vectorize parameters under their literal (dotted) names, e.g. `'output.file_format': 'pdf'`. */
export interface DottedOptions {
  /**
   * Quality tier — Billing/quality tier of the real service; the local tracer accepts it and ignores it.
   *
   * Allowed: production | preview | test | test_preview.
   * @defaultValue `production`
   */
  readonly 'mode'?: 'production' | 'preview' | 'test' | 'test_preview';
  /**
   * Largest input · pixels — Larger inputs are shrunk to at most this many pixels (width × height) before tracing.
   *
   * Allowed: integer 100…3,145,828.
   * @defaultValue `2097252`
   */
  readonly 'input.max_pixels'?: number;
  /**
   * Keep the image · days — Days to keep the image for re-use via an image token (0 = do not keep).
   *
   * Allowed: integer 0…30.
   * @defaultValue `0`
   */
  readonly 'policy.retention_days'?: number;
  /**
   * Maximum colours — Maximum number of colours in the result; 0 = unlimited.
   *
   * Allowed: integer 0…256.
   * @defaultValue `0`
   */
  readonly 'processing.max_colors'?: number;
  /**
   * Palette — Snap/remap/drop colours: "#RRGGBB[AA] [-> #RRGGBB[AA]] [~ tolerance];" entries.
   *
   * Allowed: palette entries "color [-> color] [~ 0…2];".
   * @defaultValue empty
   */
  readonly 'processing.palette'?: string;
  /**
   * Minimum area · px² — Shapes smaller than this area (px²) are removed (despeckle).
   *
   * Allowed: number 0…100.
   * @defaultValue `0.125`
   */
  readonly 'processing.shapes.min_area_px'?: number;
  /**
   * Input colour profile — How an ICC profile embedded in the input is handled: ignore traces the stored values; preserve converts them to sRGB through an RGB or grey matrix/TRC profile first.
   *
   * Allowed: ignore | preserve.
   * @defaultValue `ignore`
   */
  readonly 'processing.color_profile.input'?: 'ignore' | 'preserve';
  /**
   * Output colour profile — ICC profile behaviour for output files: preserve embeds the input's RGB profile (when the colours are still in it) in PNG, PDF and EPS.
   *
   * Allowed: ignore | preserve.
   * @defaultValue `ignore`
   */
  readonly 'processing.color_profile.output'?: 'ignore' | 'preserve';
  /**
   * Ellipses — Detect general ellipses and write them as exact shapes.
   *
   * Allowed: true | false.
   * @defaultValue `true`
   */
  readonly 'processing.parameterizedShapes.ellipse.general.enabled'?: boolean;
  /**
   * Circles — Detect circles and write them as exact shapes.
   *
   * Allowed: true | false.
   * @defaultValue `true`
   */
  readonly 'processing.parameterizedShapes.ellipse.circle.enabled'?: boolean;
  /**
   * Triangles — Detect general triangles and write them as exact shapes.
   *
   * Allowed: true | false.
   * @defaultValue `true`
   */
  readonly 'processing.parameterizedShapes.triangle.general.enabled'?: boolean;
  /**
   * Isosceles triangles — Detect isosceles triangles and write them as exact shapes.
   *
   * Allowed: true | false.
   * @defaultValue `true`
   */
  readonly 'processing.parameterizedShapes.triangle.isosceles.enabled'?: boolean;
  /**
   * Quadrilaterals — Detect general quadrilaterals and write them as exact shapes.
   *
   * Allowed: true | false.
   * @defaultValue `true`
   */
  readonly 'processing.parameterizedShapes.quadrilateral.general.enabled'?: boolean;
  /**
   * Rectangles — Detect rectangles and write them as exact shapes.
   *
   * Allowed: true | false.
   * @defaultValue `true`
   */
  readonly 'processing.parameterizedShapes.quadrilateral.rectangle.enabled'?: boolean;
  /**
   * Bullet shapes — Detect "bullet" (D-shaped) quadrilaterals and write them as exact shapes.
   *
   * Allowed: true | false.
   * @defaultValue `true`
   */
  readonly 'processing.parameterizedShapes.quadrilateral.bullet.enabled'?: boolean;
  /**
   * 3-pointed stars — Detect 3-pointed stars and write them as exact shapes.
   *
   * Allowed: true | false.
   * @defaultValue `true`
   */
  readonly 'processing.parameterizedShapes.star.N3.enabled'?: boolean;
  /**
   * 4-pointed stars — Detect 4-pointed stars and write them as exact shapes.
   *
   * Allowed: true | false.
   * @defaultValue `true`
   */
  readonly 'processing.parameterizedShapes.star.N4.enabled'?: boolean;
  /**
   * 5-pointed stars — Detect 5-pointed stars and write them as exact shapes.
   *
   * Allowed: true | false.
   * @defaultValue `true`
   */
  readonly 'processing.parameterizedShapes.star.N5.enabled'?: boolean;
  /**
   * 6-pointed stars — Detect 6-pointed stars and write them as exact shapes.
   *
   * Allowed: true | false.
   * @defaultValue `true`
   */
  readonly 'processing.parameterizedShapes.star.N6.enabled'?: boolean;
  /**
   * File format — Result file format.
   *
   * Allowed: svg | eps | pdf | dxf | png.
   * @defaultValue `svg`
   */
  readonly 'output.file_format'?: 'svg' | 'eps' | 'pdf' | 'dxf' | 'png';
  /**
   * Shape stacking — cutouts: shapes sit in holes cut out of the shapes below; stacked: shapes lie on top of each other.
   *
   * Allowed: cutouts | stacked.
   * @defaultValue `cutouts`
   */
  readonly 'output.shape_stacking'?: 'cutouts' | 'stacked';
  /**
   * Group shapes by — How shapes are grouped.
   *
   * Allowed: none | color | parent | layer.
   * @defaultValue `none`
   */
  readonly 'output.group_by'?: 'none' | 'color' | 'parent' | 'layer';
  /**
   * Draw style — Fill shapes, stroke each shape outline, or stroke each shared edge once.
   *
   * Allowed: fill_shapes | stroke_shapes | stroke_edges.
   * @defaultValue `fill_shapes`
   */
  readonly 'output.draw_style'?: 'fill_shapes' | 'stroke_shapes' | 'stroke_edges';
  /**
   * Stroke width · px — Stroke width (px) for the stroke draw styles.
   *
   * Allowed: number 0…5.
   * @defaultValue `1`
   */
  readonly 'output.strokes.stroke_width'?: number;
  /**
   * Strokes keep their width — Strokes keep their width when scaled.
   *
   * Allowed: true | false.
   * @defaultValue `true`
   */
  readonly 'output.strokes.non_scaling_stroke'?: boolean;
  /**
   * One stroke colour — Stroke with output.strokes.override_color instead of the traced colour.
   *
   * Allowed: true | false.
   * @defaultValue `false`
   */
  readonly 'output.strokes.use_override_color'?: boolean;
  /**
   * Stroke colour — Stroke colour used when use_override_color is true (#RRGGBB).
   *
   * Allowed: #RRGGBB | #RRGGBBAA | rgba(r,g,b,a).
   * @defaultValue `#000000`
   */
  readonly 'output.strokes.override_color'?: string;
  /**
   * Fill gaps between shapes — Draw thin strokes under shared edges so no background hairlines show.
   *
   * Allowed: true | false.
   * @defaultValue `true`
   */
  readonly 'output.gap_filler.enabled'?: boolean;
  /**
   * Gap strokes keep their width — Gap-filler strokes keep their width when scaled.
   *
   * Allowed: true | false.
   * @defaultValue `true`
   */
  readonly 'output.gap_filler.non_scaling_stroke'?: boolean;
  /**
   * Clip gap strokes — Clip gap-filler strokes to their shapes (useful with stacked).
   *
   * Allowed: true | false.
   * @defaultValue `false`
   */
  readonly 'output.gap_filler.clip'?: boolean;
  /**
   * Gap stroke width · px — Gap-filler stroke width (px).
   *
   * Allowed: number 0…5.
   * @defaultValue `2`
   */
  readonly 'output.gap_filler.stroke_width'?: number;
  /**
   * Write shapes as curves — Write detected circles/rectangles/stars as ordinary curves.
   *
   * Allowed: true | false.
   * @defaultValue `false`
   */
  readonly 'output.parameterized_shapes.flatten'?: boolean;
  /**
   * Line fit tolerance · px — Max deviation (px) when curves are approximated by lines (Coarse 0.3 … Super Fine 0.01).
   *
   * Allowed: number 0.001…1.
   * @defaultValue `0.1`
   */
  readonly 'output.curves.line_fit_tolerance'?: number;
  /**
   * Quadratic Béziers — Allow quadratic Béziers.
   *
   * Allowed: true | false.
   * @defaultValue `true`
   */
  readonly 'output.curves.allowed.quadratic_bezier'?: boolean;
  /**
   * Cubic Béziers — Allow cubic Béziers.
   *
   * Allowed: true | false.
   * @defaultValue `true`
   */
  readonly 'output.curves.allowed.cubic_bezier'?: boolean;
  /**
   * Circular arcs — Allow circular arcs.
   *
   * Allowed: true | false.
   * @defaultValue `true`
   */
  readonly 'output.curves.allowed.circular_arc'?: boolean;
  /**
   * Elliptical arcs — Allow elliptical arcs.
   *
   * Allowed: true | false.
   * @defaultValue `true`
   */
  readonly 'output.curves.allowed.elliptical_arc'?: boolean;
  /**
   * SVG version — Declared SVG version.
   *
   * Allowed: svg_1_0 | svg_1_1 | svg_tiny_1_2.
   * @defaultValue `svg_1_1`
   */
  readonly 'output.svg.version'?: 'svg_1_0' | 'svg_1_1' | 'svg_tiny_1_2';
  /**
   * Fixed size — Write width/height on <svg> (fixed size) instead of scaling to the container.
   *
   * Allowed: true | false.
   * @defaultValue `false`
   */
  readonly 'output.svg.fixed_size'?: boolean;
  /**
   * Adobe Illustrator compatible — Restrict the SVG to what Adobe Illustrator imports reliably (lines and cubics).
   *
   * Allowed: true | false.
   * @defaultValue `false`
   */
  readonly 'output.svg.adobe_compatibility_mode'?: boolean;
  /**
   * PDF version — PDF version.
   *
   * Allowed: PDF_1_4.
   * @defaultValue `PDF_1_4`
   */
  readonly 'output.pdf.version'?: 'PDF_1_4';
  /**
   * PDF compression — PDF stream compression.
   *
   * Allowed: None | Deflate.
   * @defaultValue `Deflate`
   */
  readonly 'output.pdf.compression_mode'?: 'None' | 'Deflate';
  /**
   * EPS version — EPS version.
   *
   * Allowed: PS_3_0_EPSF_3_0.
   * @defaultValue `PS_3_0_EPSF_3_0`
   */
  readonly 'output.eps.version'?: 'PS_3_0_EPSF_3_0';
  /**
   * DXF curve types — Curve primitives written to DXF.
   *
   * Allowed: lines_only | lines_and_arcs | lines_arcs_and_splines.
   * @defaultValue `lines_and_arcs`
   */
  readonly 'output.dxf.compatibility_level'?: 'lines_only' | 'lines_and_arcs' | 'lines_arcs_and_splines';
  /**
   * PNG anti-aliasing — PNG rasterization anti-aliasing.
   *
   * Allowed: anti_aliased | aliased.
   * @defaultValue `anti_aliased`
   */
  readonly 'output.bitmap.anti_aliasing_mode'?: 'anti_aliased' | 'aliased';
  /**
   * Scale · × — Uniform scale factor; takes precedence over width/height.
   *
   * Allowed: number 0…1,000.
   * @defaultValue none (absent unless given)
   */
  readonly 'output.size.scale'?: number;
  /**
   * Width · size unit — Output width in output.size.unit.
   *
   * Allowed: number 0…1e12.
   * @defaultValue none (absent unless given)
   */
  readonly 'output.size.width'?: number;
  /**
   * Height · size unit — Output height in output.size.unit.
   *
   * Allowed: number 0…1e12.
   * @defaultValue none (absent unless given)
   */
  readonly 'output.size.height'?: number;
  /**
   * Size unit — Unit of output.size.width/height.
   *
   * Allowed: none | px | pt | in | cm | mm.
   * @defaultValue `none`
   */
  readonly 'output.size.unit'?: 'none' | 'px' | 'pt' | 'in' | 'cm' | 'mm';
  /**
   * Aspect ratio — Fit inside the width×height box, fill it (may overflow), or stretch to it.
   *
   * Allowed: preserve_inset | preserve_overflow | stretch.
   * @defaultValue `preserve_inset`
   */
  readonly 'output.size.aspect_ratio'?: 'preserve_inset' | 'preserve_overflow' | 'stretch';
  /**
   * Horizontal alignment · 0–1 — Horizontal alignment in the box (0 left … 1 right).
   *
   * Allowed: number 0…1.
   * @defaultValue `0.5`
   */
  readonly 'output.size.align_x'?: number;
  /**
   * Vertical alignment · 0–1 — Vertical alignment in the box (0 top … 1 bottom).
   *
   * Allowed: number 0…1.
   * @defaultValue `0.5`
   */
  readonly 'output.size.align_y'?: number;
  /**
   * Input resolution · dpi — Override the input image's DPI (default: from the file).
   *
   * Allowed: number 1…1,000,000.
   * @defaultValue none (absent unless given)
   */
  readonly 'output.size.input_dpi'?: number;
  /**
   * Output resolution · dpi — Output DPI, used to convert physical units to pixels.
   *
   * Allowed: number 1…1,000,000.
   * @defaultValue none (absent unless given)
   */
  readonly 'output.size.output_dpi'?: number;
  /**
   * Gradient fills — Tracelab extension: fill smoothly shaded areas with one linear or radial gradient each instead of flat bands. Not part of the Vectorizer.AI API.
   *
   * Allowed: true | false.
   * @defaultValue `false`
   */
  readonly 'tracelab.gradients'?: boolean;
  /**
   * Layers — Tracelab extension, with output.shape_stacking=stacked: a shape partly hidden by shapes stacked over it is completed underneath as the circle or ellipse it is, and an area that is one colour at one opacity over what lies beneath becomes one translucent shape over the unbroken shapes below. No effect with cutouts. Not part of the Vectorizer.AI API.
   *
   * Allowed: true | false.
   * @defaultValue `false`
   */
  readonly 'tracelab.layers'?: boolean;
  /**
   * Picture kind — Tracelab extension: what kind of picture to trace it as — auto (decided from the pixels), pixel (on the pixel lattice), flat (flat art), photo (continuous tone) or lineart (potrace-style outlines). Not part of the Vectorizer.AI API.
   *
   * Allowed: auto | pixel | flat | photo | lineart.
   * @defaultValue `auto`
   */
  readonly 'tracelab.profile'?: 'auto' | 'pixel' | 'flat' | 'photo' | 'lineart';
  /**
   * Lines as strokes — Tracelab extension: none (every line a thin filled shape, as the API does), auto (lines and outlines of even width become stroked paths) or centerline (no fills: every line up to tracelab.max_stroke_width becomes its centre-line, wider ink its outline, ordered for plotters, lasers and cutters). Not part of the Vectorizer.AI API.
   *
   * Allowed: none | auto | centerline.
   * @defaultValue `none`
   */
  readonly 'tracelab.strokes'?: 'none' | 'auto' | 'centerline';
  /**
   * Widest stroke · px — Tracelab extension: ink up to this width (input px) is read as a line with tracelab.strokes; wider ink stays a shape (auto) or becomes its outline (centerline). 0 (default): automatic — 1/12 of the picture's shorter side, 8 to 32 px (a line icon's strokes at any size it is rendered at); centerline takes ink over 8 px as a line only where its strokes, drawn, hold the ink. Not part of the Vectorizer.AI API.
   *
   * Allowed: number 0…100.
   * @defaultValue `0`
   */
  readonly 'tracelab.max_stroke_width'?: number;
}

/** The same parameters as nested objects, e.g. `{ output: { file_format: 'pdf' } }`. */
export interface NestedOptions {
  /**
   * Quality tier — Billing/quality tier of the real service; the local tracer accepts it and ignores it.
   *
   * Allowed: production | preview | test | test_preview.
   * @defaultValue `production`
   */
  readonly mode?: 'production' | 'preview' | 'test' | 'test_preview';
  readonly input?: {
    /**
     * Largest input · pixels — Larger inputs are shrunk to at most this many pixels (width × height) before tracing.
     *
     * Allowed: integer 100…3,145,828.
     * @defaultValue `2097252`
     */
    readonly max_pixels?: number;
  };
  readonly policy?: {
    /**
     * Keep the image · days — Days to keep the image for re-use via an image token (0 = do not keep).
     *
     * Allowed: integer 0…30.
     * @defaultValue `0`
     */
    readonly retention_days?: number;
  };
  readonly processing?: {
    /**
     * Maximum colours — Maximum number of colours in the result; 0 = unlimited.
     *
     * Allowed: integer 0…256.
     * @defaultValue `0`
     */
    readonly max_colors?: number;
    /**
     * Palette — Snap/remap/drop colours: "#RRGGBB[AA] [-> #RRGGBB[AA]] [~ tolerance];" entries.
     *
     * Allowed: palette entries "color [-> color] [~ 0…2];".
     * @defaultValue empty
     */
    readonly palette?: string;
    readonly shapes?: {
      /**
       * Minimum area · px² — Shapes smaller than this area (px²) are removed (despeckle).
       *
       * Allowed: number 0…100.
       * @defaultValue `0.125`
       */
      readonly min_area_px?: number;
    };
    readonly color_profile?: {
      /**
       * Input colour profile — How an ICC profile embedded in the input is handled: ignore traces the stored values; preserve converts them to sRGB through an RGB or grey matrix/TRC profile first.
       *
       * Allowed: ignore | preserve.
       * @defaultValue `ignore`
       */
      readonly input?: 'ignore' | 'preserve';
      /**
       * Output colour profile — ICC profile behaviour for output files: preserve embeds the input's RGB profile (when the colours are still in it) in PNG, PDF and EPS.
       *
       * Allowed: ignore | preserve.
       * @defaultValue `ignore`
       */
      readonly output?: 'ignore' | 'preserve';
    };
    readonly parameterizedShapes?: {
      readonly ellipse?: {
        readonly general?: {
          /**
           * Ellipses — Detect general ellipses and write them as exact shapes.
           *
           * Allowed: true | false.
           * @defaultValue `true`
           */
          readonly enabled?: boolean;
        };
        readonly circle?: {
          /**
           * Circles — Detect circles and write them as exact shapes.
           *
           * Allowed: true | false.
           * @defaultValue `true`
           */
          readonly enabled?: boolean;
        };
      };
      readonly triangle?: {
        readonly general?: {
          /**
           * Triangles — Detect general triangles and write them as exact shapes.
           *
           * Allowed: true | false.
           * @defaultValue `true`
           */
          readonly enabled?: boolean;
        };
        readonly isosceles?: {
          /**
           * Isosceles triangles — Detect isosceles triangles and write them as exact shapes.
           *
           * Allowed: true | false.
           * @defaultValue `true`
           */
          readonly enabled?: boolean;
        };
      };
      readonly quadrilateral?: {
        readonly general?: {
          /**
           * Quadrilaterals — Detect general quadrilaterals and write them as exact shapes.
           *
           * Allowed: true | false.
           * @defaultValue `true`
           */
          readonly enabled?: boolean;
        };
        readonly rectangle?: {
          /**
           * Rectangles — Detect rectangles and write them as exact shapes.
           *
           * Allowed: true | false.
           * @defaultValue `true`
           */
          readonly enabled?: boolean;
        };
        readonly bullet?: {
          /**
           * Bullet shapes — Detect "bullet" (D-shaped) quadrilaterals and write them as exact shapes.
           *
           * Allowed: true | false.
           * @defaultValue `true`
           */
          readonly enabled?: boolean;
        };
      };
      readonly star?: {
        readonly N3?: {
          /**
           * 3-pointed stars — Detect 3-pointed stars and write them as exact shapes.
           *
           * Allowed: true | false.
           * @defaultValue `true`
           */
          readonly enabled?: boolean;
        };
        readonly N4?: {
          /**
           * 4-pointed stars — Detect 4-pointed stars and write them as exact shapes.
           *
           * Allowed: true | false.
           * @defaultValue `true`
           */
          readonly enabled?: boolean;
        };
        readonly N5?: {
          /**
           * 5-pointed stars — Detect 5-pointed stars and write them as exact shapes.
           *
           * Allowed: true | false.
           * @defaultValue `true`
           */
          readonly enabled?: boolean;
        };
        readonly N6?: {
          /**
           * 6-pointed stars — Detect 6-pointed stars and write them as exact shapes.
           *
           * Allowed: true | false.
           * @defaultValue `true`
           */
          readonly enabled?: boolean;
        };
      };
    };
  };
  readonly output?: {
    /**
     * File format — Result file format.
     *
     * Allowed: svg | eps | pdf | dxf | png.
     * @defaultValue `svg`
     */
    readonly file_format?: 'svg' | 'eps' | 'pdf' | 'dxf' | 'png';
    /**
     * Shape stacking — cutouts: shapes sit in holes cut out of the shapes below; stacked: shapes lie on top of each other.
     *
     * Allowed: cutouts | stacked.
     * @defaultValue `cutouts`
     */
    readonly shape_stacking?: 'cutouts' | 'stacked';
    /**
     * Group shapes by — How shapes are grouped.
     *
     * Allowed: none | color | parent | layer.
     * @defaultValue `none`
     */
    readonly group_by?: 'none' | 'color' | 'parent' | 'layer';
    /**
     * Draw style — Fill shapes, stroke each shape outline, or stroke each shared edge once.
     *
     * Allowed: fill_shapes | stroke_shapes | stroke_edges.
     * @defaultValue `fill_shapes`
     */
    readonly draw_style?: 'fill_shapes' | 'stroke_shapes' | 'stroke_edges';
    readonly strokes?: {
      /**
       * Stroke width · px — Stroke width (px) for the stroke draw styles.
       *
       * Allowed: number 0…5.
       * @defaultValue `1`
       */
      readonly stroke_width?: number;
      /**
       * Strokes keep their width — Strokes keep their width when scaled.
       *
       * Allowed: true | false.
       * @defaultValue `true`
       */
      readonly non_scaling_stroke?: boolean;
      /**
       * One stroke colour — Stroke with output.strokes.override_color instead of the traced colour.
       *
       * Allowed: true | false.
       * @defaultValue `false`
       */
      readonly use_override_color?: boolean;
      /**
       * Stroke colour — Stroke colour used when use_override_color is true (#RRGGBB).
       *
       * Allowed: #RRGGBB | #RRGGBBAA | rgba(r,g,b,a).
       * @defaultValue `#000000`
       */
      readonly override_color?: string;
    };
    readonly gap_filler?: {
      /**
       * Fill gaps between shapes — Draw thin strokes under shared edges so no background hairlines show.
       *
       * Allowed: true | false.
       * @defaultValue `true`
       */
      readonly enabled?: boolean;
      /**
       * Gap strokes keep their width — Gap-filler strokes keep their width when scaled.
       *
       * Allowed: true | false.
       * @defaultValue `true`
       */
      readonly non_scaling_stroke?: boolean;
      /**
       * Clip gap strokes — Clip gap-filler strokes to their shapes (useful with stacked).
       *
       * Allowed: true | false.
       * @defaultValue `false`
       */
      readonly clip?: boolean;
      /**
       * Gap stroke width · px — Gap-filler stroke width (px).
       *
       * Allowed: number 0…5.
       * @defaultValue `2`
       */
      readonly stroke_width?: number;
    };
    readonly parameterized_shapes?: {
      /**
       * Write shapes as curves — Write detected circles/rectangles/stars as ordinary curves.
       *
       * Allowed: true | false.
       * @defaultValue `false`
       */
      readonly flatten?: boolean;
    };
    readonly curves?: {
      /**
       * Line fit tolerance · px — Max deviation (px) when curves are approximated by lines (Coarse 0.3 … Super Fine 0.01).
       *
       * Allowed: number 0.001…1.
       * @defaultValue `0.1`
       */
      readonly line_fit_tolerance?: number;
      readonly allowed?: {
        /**
         * Quadratic Béziers — Allow quadratic Béziers.
         *
         * Allowed: true | false.
         * @defaultValue `true`
         */
        readonly quadratic_bezier?: boolean;
        /**
         * Cubic Béziers — Allow cubic Béziers.
         *
         * Allowed: true | false.
         * @defaultValue `true`
         */
        readonly cubic_bezier?: boolean;
        /**
         * Circular arcs — Allow circular arcs.
         *
         * Allowed: true | false.
         * @defaultValue `true`
         */
        readonly circular_arc?: boolean;
        /**
         * Elliptical arcs — Allow elliptical arcs.
         *
         * Allowed: true | false.
         * @defaultValue `true`
         */
        readonly elliptical_arc?: boolean;
      };
    };
    readonly svg?: {
      /**
       * SVG version — Declared SVG version.
       *
       * Allowed: svg_1_0 | svg_1_1 | svg_tiny_1_2.
       * @defaultValue `svg_1_1`
       */
      readonly version?: 'svg_1_0' | 'svg_1_1' | 'svg_tiny_1_2';
      /**
       * Fixed size — Write width/height on <svg> (fixed size) instead of scaling to the container.
       *
       * Allowed: true | false.
       * @defaultValue `false`
       */
      readonly fixed_size?: boolean;
      /**
       * Adobe Illustrator compatible — Restrict the SVG to what Adobe Illustrator imports reliably (lines and cubics).
       *
       * Allowed: true | false.
       * @defaultValue `false`
       */
      readonly adobe_compatibility_mode?: boolean;
    };
    readonly pdf?: {
      /**
       * PDF version — PDF version.
       *
       * Allowed: PDF_1_4.
       * @defaultValue `PDF_1_4`
       */
      readonly version?: 'PDF_1_4';
      /**
       * PDF compression — PDF stream compression.
       *
       * Allowed: None | Deflate.
       * @defaultValue `Deflate`
       */
      readonly compression_mode?: 'None' | 'Deflate';
    };
    readonly eps?: {
      /**
       * EPS version — EPS version.
       *
       * Allowed: PS_3_0_EPSF_3_0.
       * @defaultValue `PS_3_0_EPSF_3_0`
       */
      readonly version?: 'PS_3_0_EPSF_3_0';
    };
    readonly dxf?: {
      /**
       * DXF curve types — Curve primitives written to DXF.
       *
       * Allowed: lines_only | lines_and_arcs | lines_arcs_and_splines.
       * @defaultValue `lines_and_arcs`
       */
      readonly compatibility_level?: 'lines_only' | 'lines_and_arcs' | 'lines_arcs_and_splines';
    };
    readonly bitmap?: {
      /**
       * PNG anti-aliasing — PNG rasterization anti-aliasing.
       *
       * Allowed: anti_aliased | aliased.
       * @defaultValue `anti_aliased`
       */
      readonly anti_aliasing_mode?: 'anti_aliased' | 'aliased';
    };
    readonly size?: {
      /**
       * Scale · × — Uniform scale factor; takes precedence over width/height.
       *
       * Allowed: number 0…1,000.
       * @defaultValue none (absent unless given)
       */
      readonly scale?: number;
      /**
       * Width · size unit — Output width in output.size.unit.
       *
       * Allowed: number 0…1e12.
       * @defaultValue none (absent unless given)
       */
      readonly width?: number;
      /**
       * Height · size unit — Output height in output.size.unit.
       *
       * Allowed: number 0…1e12.
       * @defaultValue none (absent unless given)
       */
      readonly height?: number;
      /**
       * Size unit — Unit of output.size.width/height.
       *
       * Allowed: none | px | pt | in | cm | mm.
       * @defaultValue `none`
       */
      readonly unit?: 'none' | 'px' | 'pt' | 'in' | 'cm' | 'mm';
      /**
       * Aspect ratio — Fit inside the width×height box, fill it (may overflow), or stretch to it.
       *
       * Allowed: preserve_inset | preserve_overflow | stretch.
       * @defaultValue `preserve_inset`
       */
      readonly aspect_ratio?: 'preserve_inset' | 'preserve_overflow' | 'stretch';
      /**
       * Horizontal alignment · 0–1 — Horizontal alignment in the box (0 left … 1 right).
       *
       * Allowed: number 0…1.
       * @defaultValue `0.5`
       */
      readonly align_x?: number;
      /**
       * Vertical alignment · 0–1 — Vertical alignment in the box (0 top … 1 bottom).
       *
       * Allowed: number 0…1.
       * @defaultValue `0.5`
       */
      readonly align_y?: number;
      /**
       * Input resolution · dpi — Override the input image's DPI (default: from the file).
       *
       * Allowed: number 1…1,000,000.
       * @defaultValue none (absent unless given)
       */
      readonly input_dpi?: number;
      /**
       * Output resolution · dpi — Output DPI, used to convert physical units to pixels.
       *
       * Allowed: number 1…1,000,000.
       * @defaultValue none (absent unless given)
       */
      readonly output_dpi?: number;
    };
  };
  readonly tracelab?: {
    /**
     * Gradient fills — Tracelab extension: fill smoothly shaded areas with one linear or radial gradient each instead of flat bands. Not part of the Vectorizer.AI API.
     *
     * Allowed: true | false.
     * @defaultValue `false`
     */
    readonly gradients?: boolean;
    /**
     * Layers — Tracelab extension, with output.shape_stacking=stacked: a shape partly hidden by shapes stacked over it is completed underneath as the circle or ellipse it is, and an area that is one colour at one opacity over what lies beneath becomes one translucent shape over the unbroken shapes below. No effect with cutouts. Not part of the Vectorizer.AI API.
     *
     * Allowed: true | false.
     * @defaultValue `false`
     */
    readonly layers?: boolean;
    /**
     * Picture kind — Tracelab extension: what kind of picture to trace it as — auto (decided from the pixels), pixel (on the pixel lattice), flat (flat art), photo (continuous tone) or lineart (potrace-style outlines). Not part of the Vectorizer.AI API.
     *
     * Allowed: auto | pixel | flat | photo | lineart.
     * @defaultValue `auto`
     */
    readonly profile?: 'auto' | 'pixel' | 'flat' | 'photo' | 'lineart';
    /**
     * Lines as strokes — Tracelab extension: none (every line a thin filled shape, as the API does), auto (lines and outlines of even width become stroked paths) or centerline (no fills: every line up to tracelab.max_stroke_width becomes its centre-line, wider ink its outline, ordered for plotters, lasers and cutters). Not part of the Vectorizer.AI API.
     *
     * Allowed: none | auto | centerline.
     * @defaultValue `none`
     */
    readonly strokes?: 'none' | 'auto' | 'centerline';
    /**
     * Widest stroke · px — Tracelab extension: ink up to this width (input px) is read as a line with tracelab.strokes; wider ink stays a shape (auto) or becomes its outline (centerline). 0 (default): automatic — 1/12 of the picture's shorter side, 8 to 32 px (a line icon's strokes at any size it is rendered at); centerline takes ink over 8 px as a line only where its strokes, drawn, hold the ink. Not part of the Vectorizer.AI API.
     *
     * Allowed: number 0…100.
     * @defaultValue `0`
     */
    readonly max_stroke_width?: number;
  };
}

/** Every parameter name the library accepts. */
export type LibraryOptionName = keyof DottedOptions;
