/**
 * The one options schema of the Vectorizer.AI-compatible API (reference §2.1.1 and §2.5): used to
 * validate multipart fields (`parseOptions`), to generate CLI `--param` help, and by the UI to build
 * its controls. `toEngineParams` / `toOutputOptions` are the only places that turn API values into
 * engine / writer parameters.
 *
 * Names are the literal multipart field names of the API (dotted, spelled exactly as the spec,
 * including `processing.parameterizedShapes.*`). `VectorizeOptions` is keyed by those names, with
 * every value resolved (defaults applied) and typed from the schema.
 */

import type { EngineParams, Rgba } from '../engine/types.js';
import type { OutputOptions } from '../formats/types.js';
import { groupDigits, parameterError, type TracelabError } from '../engine/errors.js';
import { formatHexColor, parseHexColor, parsePalette, quoteReceived } from './palette.js';

export type Endpoint = 'vectorize' | 'download';
export type OptionKind = 'enum' | 'int' | 'float' | 'bool' | 'string' | 'color' | 'palette';

/** Option groups, in display order, with a title for help screens and UI panels. */
export const OPTION_GROUPS = [
  { id: 'mode', title: 'Mode' },
  { id: 'input', title: 'Input' },
  { id: 'policy', title: 'Retention policy' },
  { id: 'processing', title: 'Processing' },
  { id: 'processing.color_profile', title: 'Colour profiles' },
  { id: 'processing.parameterizedShapes', title: 'Parameterized shape detection' },
  { id: 'output', title: 'Output' },
  { id: 'output.strokes', title: 'Stroke style' },
  { id: 'output.gap_filler', title: 'Gap filler' },
  { id: 'output.parameterized_shapes', title: 'Parameterized shapes (output)' },
  { id: 'output.curves', title: 'Curves' },
  { id: 'output.svg', title: 'SVG' },
  { id: 'output.pdf', title: 'PDF' },
  { id: 'output.eps', title: 'EPS' },
  { id: 'output.dxf', title: 'DXF' },
  { id: 'output.bitmap', title: 'PNG' },
  { id: 'output.size', title: 'Output size' },
  { id: 'download', title: 'Download' },
  { id: 'tracelab', title: 'Tracelab extensions (not part of the Vectorizer.AI API)' },
] as const;
export type OptionGroup = (typeof OPTION_GROUPS)[number]['id'];

interface OptionBase<N extends string> {
  /** Literal multipart field name. */
  readonly name: N;
  readonly group: OptionGroup;
  /** Endpoints that accept the field; any other endpoint rejects it with 1019. */
  readonly endpoints: readonly Endpoint[];
  /**
   * A few plain words for the option, shown beside its API name in the playground and the CLI
   * help (e.g. "Minimum area" for processing.shapes.min_area_px): the name is what developers
   * type, the label is what the option means.
   */
  readonly label: string;
  /** The unit of its value, where there is one (e.g. "px²", "dpi"). */
  readonly unit?: string;
  /** One line for help text and UI tooltips. */
  readonly hint: string;
}

/** A label, or a label and the unit of the value: `'File format'`, `['Minimum area', 'px²']`. */
type Label = string | readonly [label: string, unit: string];

function words(label: Label): { label: string; unit?: string } {
  return typeof label === 'string' ? { label } : { label: label[0], unit: label[1] };
}

/** "Minimum area · px²": the label with its unit, as the playground and the CLI help show it. */
export function labelWithUnit(spec: Pick<OptionSpec, 'label' | 'unit'>): string {
  return spec.unit ? `${spec.label} · ${spec.unit}` : spec.label;
}

export interface EnumOption<N extends string = string, V extends string = string> extends OptionBase<N> {
  readonly kind: 'enum';
  readonly values: readonly V[];
  readonly default: V;
}
export interface IntOption<N extends string = string> extends OptionBase<N> {
  readonly kind: 'int';
  readonly min: number;
  readonly max: number;
  readonly default: number;
}
/** `default: undefined` = "none": the option is absent unless given. */
export interface FloatOption<N extends string = string, D extends number | undefined = number | undefined>
  extends OptionBase<N> {
  readonly kind: 'float';
  readonly min: number;
  readonly max: number;
  readonly default: D;
}
export interface BoolOption<N extends string = string> extends OptionBase<N> {
  readonly kind: 'bool';
  readonly default: boolean;
}
export interface StringOption<N extends string = string, D extends string | undefined = string | undefined>
  extends OptionBase<N> {
  readonly kind: 'string';
  readonly default: D;
}
/** `#RRGGBB`, `#RRGGBBAA` or `rgba(r,g,b,a)`; resolved to canonical upper-case hex. */
export interface ColorOption<N extends string = string> extends OptionBase<N> {
  readonly kind: 'color';
  readonly default: string;
}
/** The §3.2 palette mini-language; the resolved value is the (validated) text. */
export interface PaletteOption<N extends string = string> extends OptionBase<N> {
  readonly kind: 'palette';
  readonly default: string;
}

export type OptionSpec =
  | EnumOption
  | IntOption
  | FloatOption
  | BoolOption
  | StringOption
  | ColorOption
  | PaletteOption;

const VECTORIZE: readonly Endpoint[] = ['vectorize'];
const BOTH: readonly Endpoint[] = ['vectorize', 'download'];
const DOWNLOAD: readonly Endpoint[] = ['download'];

function enumOpt<const N extends string, const V extends string>(
  name: N,
  label: Label,
  group: OptionGroup,
  values: readonly V[],
  def: NoInfer<V>,
  hint: string,
  endpoints: readonly Endpoint[] = BOTH,
): EnumOption<N, V> {
  return { name, ...words(label), kind: 'enum', group, values, default: def, hint, endpoints };
}
function intOpt<const N extends string>(
  name: N,
  label: Label,
  group: OptionGroup,
  min: number,
  max: number,
  def: number,
  hint: string,
  endpoints: readonly Endpoint[] = BOTH,
): IntOption<N> {
  return { name, ...words(label), kind: 'int', group, min, max, default: def, hint, endpoints };
}
function floatOpt<const N extends string, const D extends number | undefined>(
  name: N,
  label: Label,
  group: OptionGroup,
  min: number,
  max: number,
  def: D,
  hint: string,
  endpoints: readonly Endpoint[] = BOTH,
): FloatOption<N, D> {
  return { name, ...words(label), kind: 'float', group, min, max, default: def, hint, endpoints };
}
function boolOpt<const N extends string>(
  name: N,
  label: Label,
  group: OptionGroup,
  def: boolean,
  hint: string,
  endpoints: readonly Endpoint[] = BOTH,
): BoolOption<N> {
  return { name, ...words(label), kind: 'bool', group, default: def, hint, endpoints };
}
function stringOpt<const N extends string, const D extends string | undefined>(
  name: N,
  label: Label,
  group: OptionGroup,
  def: D,
  hint: string,
  endpoints: readonly Endpoint[] = BOTH,
): StringOption<N, D> {
  return { name, ...words(label), kind: 'string', group, default: def, hint, endpoints };
}
function colorOpt<const N extends string>(
  name: N,
  label: Label,
  group: OptionGroup,
  def: string,
  hint: string,
  endpoints: readonly Endpoint[] = BOTH,
): ColorOption<N> {
  return { name, ...words(label), kind: 'color', group, default: def, hint, endpoints };
}
function paletteOpt<const N extends string>(
  name: N,
  label: Label,
  group: OptionGroup,
  hint: string,
  endpoints: readonly Endpoint[] = BOTH,
): PaletteOption<N> {
  return { name, ...words(label), kind: 'palette', group, default: '', hint, endpoints };
}

const shape = <const N extends string>(name: N, label: string, what: string) =>
  boolOpt(name, label, 'processing.parameterizedShapes', true, `Detect ${what} and write them as exact shapes.`, VECTORIZE);

/** Every request parameter except the image source, in reference order. */
export const OPTION_SCHEMA = [
  // ---- mode / input / policy (vectorize only) ----
  enumOpt('mode', 'Quality tier', 'mode', ['production', 'preview', 'test', 'test_preview'], 'production',
    'Billing/quality tier of the real service; the local tracer accepts it and ignores it.', VECTORIZE),
  intOpt('input.max_pixels', ['Largest input', 'pixels'], 'input', 100, 3_145_828, 2_097_252,
    'Larger inputs are shrunk to at most this many pixels (width × height) before tracing.', VECTORIZE),
  intOpt('policy.retention_days', ['Keep the image', 'days'], 'policy', 0, 30, 0,
    'Days to keep the image for re-use via an image token (0 = do not keep).', VECTORIZE),

  // ---- processing (vectorize only) ----
  intOpt('processing.max_colors', 'Maximum colours', 'processing', 0, 256, 0,
    'Maximum number of colours in the result; 0 = unlimited.', VECTORIZE),
  paletteOpt('processing.palette', 'Palette', 'processing',
    'Snap/remap/drop colours: "#RRGGBB[AA] [-> #RRGGBB[AA]] [~ tolerance];" entries.', VECTORIZE),
  floatOpt('processing.shapes.min_area_px', ['Minimum area', 'px²'], 'processing', 0, 100, 0.125,
    'Shapes smaller than this area (px²) are removed (despeckle).', VECTORIZE),
  enumOpt('processing.color_profile.input', 'Input colour profile', 'processing.color_profile', ['ignore', 'preserve'], 'ignore',
    'How an ICC profile embedded in the input is handled: ignore traces the stored values; preserve converts them to sRGB through an RGB or grey matrix/TRC profile first.', VECTORIZE),
  enumOpt('processing.color_profile.output', 'Output colour profile', 'processing.color_profile', ['ignore', 'preserve'], 'ignore',
    "ICC profile behaviour for output files: preserve embeds the input's RGB profile (when the colours are still in it) in PNG, PDF and EPS.", VECTORIZE),
  shape('processing.parameterizedShapes.ellipse.general.enabled', 'Ellipses', 'general ellipses'),
  shape('processing.parameterizedShapes.ellipse.circle.enabled', 'Circles', 'circles'),
  shape('processing.parameterizedShapes.triangle.general.enabled', 'Triangles', 'general triangles'),
  shape('processing.parameterizedShapes.triangle.isosceles.enabled', 'Isosceles triangles', 'isosceles triangles'),
  shape('processing.parameterizedShapes.quadrilateral.general.enabled', 'Quadrilaterals', 'general quadrilaterals'),
  shape('processing.parameterizedShapes.quadrilateral.rectangle.enabled', 'Rectangles', 'rectangles'),
  shape('processing.parameterizedShapes.quadrilateral.bullet.enabled', 'Bullet shapes', '"bullet" (D-shaped) quadrilaterals'),
  shape('processing.parameterizedShapes.star.N3.enabled', '3-pointed stars', '3-pointed stars'),
  shape('processing.parameterizedShapes.star.N4.enabled', '4-pointed stars', '4-pointed stars'),
  shape('processing.parameterizedShapes.star.N5.enabled', '5-pointed stars', '5-pointed stars'),
  shape('processing.parameterizedShapes.star.N6.enabled', '6-pointed stars', '6-pointed stars'),

  // ---- output (vectorize and download) ----
  enumOpt('output.file_format', 'File format', 'output', ['svg', 'eps', 'pdf', 'dxf', 'png'], 'svg', 'Result file format.'),
  enumOpt('output.shape_stacking', 'Shape stacking', 'output', ['cutouts', 'stacked'], 'cutouts',
    'cutouts: shapes sit in holes cut out of the shapes below; stacked: shapes lie on top of each other.'),
  enumOpt('output.group_by', 'Group shapes by', 'output', ['none', 'color', 'parent', 'layer'], 'none', 'How shapes are grouped.'),
  enumOpt('output.draw_style', 'Draw style', 'output', ['fill_shapes', 'stroke_shapes', 'stroke_edges'], 'fill_shapes',
    'Fill shapes, stroke each shape outline, or stroke each shared edge once.'),
  floatOpt('output.strokes.stroke_width', ['Stroke width', 'px'], 'output.strokes', 0, 5, 1,
    'Stroke width (px) for the stroke draw styles.'),
  boolOpt('output.strokes.non_scaling_stroke', 'Strokes keep their width', 'output.strokes', true, 'Strokes keep their width when scaled.'),
  boolOpt('output.strokes.use_override_color', 'One stroke colour', 'output.strokes', false,
    'Stroke with output.strokes.override_color instead of the traced colour.'),
  colorOpt('output.strokes.override_color', 'Stroke colour', 'output.strokes', '#000000',
    'Stroke colour used when use_override_color is true (#RRGGBB).'),
  boolOpt('output.gap_filler.enabled', 'Fill gaps between shapes', 'output.gap_filler', true,
    'Draw thin strokes under shared edges so no background hairlines show.'),
  boolOpt('output.gap_filler.non_scaling_stroke', 'Gap strokes keep their width', 'output.gap_filler', true,
    'Gap-filler strokes keep their width when scaled.'),
  boolOpt('output.gap_filler.clip', 'Clip gap strokes', 'output.gap_filler', false,
    'Clip gap-filler strokes to their shapes (useful with stacked).'),
  floatOpt('output.gap_filler.stroke_width', ['Gap stroke width', 'px'], 'output.gap_filler', 0, 5, 2, 'Gap-filler stroke width (px).'),
  boolOpt('output.parameterized_shapes.flatten', 'Write shapes as curves', 'output.parameterized_shapes', false,
    'Write detected circles/rectangles/stars as ordinary curves.'),
  floatOpt('output.curves.line_fit_tolerance', ['Line fit tolerance', 'px'], 'output.curves', 0.001, 1, 0.1,
    'Max deviation (px) when curves are approximated by lines (Coarse 0.3 … Super Fine 0.01).'),
  boolOpt('output.curves.allowed.quadratic_bezier', 'Quadratic Béziers', 'output.curves', true, 'Allow quadratic Béziers.'),
  boolOpt('output.curves.allowed.cubic_bezier', 'Cubic Béziers', 'output.curves', true, 'Allow cubic Béziers.'),
  boolOpt('output.curves.allowed.circular_arc', 'Circular arcs', 'output.curves', true, 'Allow circular arcs.'),
  boolOpt('output.curves.allowed.elliptical_arc', 'Elliptical arcs', 'output.curves', true, 'Allow elliptical arcs.'),
  enumOpt('output.svg.version', 'SVG version', 'output.svg', ['svg_1_0', 'svg_1_1', 'svg_tiny_1_2'], 'svg_1_1',
    'Declared SVG version.'),
  boolOpt('output.svg.fixed_size', 'Fixed size', 'output.svg', false,
    'Write width/height on <svg> (fixed size) instead of scaling to the container.'),
  boolOpt('output.svg.adobe_compatibility_mode', 'Adobe Illustrator compatible', 'output.svg', false,
    'Restrict the SVG to what Adobe Illustrator imports reliably (lines and cubics).'),
  enumOpt('output.pdf.version', 'PDF version', 'output.pdf', ['PDF_1_4'], 'PDF_1_4', 'PDF version.'),
  enumOpt('output.pdf.compression_mode', 'PDF compression', 'output.pdf', ['None', 'Deflate'], 'Deflate', 'PDF stream compression.'),
  enumOpt('output.eps.version', 'EPS version', 'output.eps', ['PS_3_0_EPSF_3_0'], 'PS_3_0_EPSF_3_0', 'EPS version.'),
  enumOpt('output.dxf.compatibility_level', 'DXF curve types', 'output.dxf', ['lines_only', 'lines_and_arcs', 'lines_arcs_and_splines'],
    'lines_and_arcs', 'Curve primitives written to DXF.'),
  enumOpt('output.bitmap.anti_aliasing_mode', 'PNG anti-aliasing', 'output.bitmap', ['anti_aliased', 'aliased'], 'anti_aliased',
    'PNG rasterization anti-aliasing.'),
  floatOpt('output.size.scale', ['Scale', '×'], 'output.size', 0, 1000, undefined,
    'Uniform scale factor; takes precedence over width/height.'),
  floatOpt('output.size.width', ['Width', 'size unit'], 'output.size', 0, 1e12, undefined, 'Output width in output.size.unit.'),
  floatOpt('output.size.height', ['Height', 'size unit'], 'output.size', 0, 1e12, undefined, 'Output height in output.size.unit.'),
  enumOpt('output.size.unit', 'Size unit', 'output.size', ['none', 'px', 'pt', 'in', 'cm', 'mm'], 'none',
    'Unit of output.size.width/height.'),
  enumOpt('output.size.aspect_ratio', 'Aspect ratio', 'output.size', ['preserve_inset', 'preserve_overflow', 'stretch'],
    'preserve_inset', 'Fit inside the width×height box, fill it (may overflow), or stretch to it.'),
  floatOpt('output.size.align_x', ['Horizontal alignment', '0–1'], 'output.size', 0, 1, 0.5, 'Horizontal alignment in the box (0 left … 1 right).'),
  floatOpt('output.size.align_y', ['Vertical alignment', '0–1'], 'output.size', 0, 1, 0.5, 'Vertical alignment in the box (0 top … 1 bottom).'),
  floatOpt('output.size.input_dpi', ['Input resolution', 'dpi'], 'output.size', 1, 1_000_000, undefined,
    "Override the input image's DPI (default: from the file)."),
  floatOpt('output.size.output_dpi', ['Output resolution', 'dpi'], 'output.size', 1, 1_000_000, undefined,
    'Output DPI, used to convert physical units to pixels.'),

  // ---- Tracelab extensions (vectorize only; never sent to the real service) ----
  boolOpt('tracelab.gradients', 'Gradient fills', 'tracelab', false,
    'Tracelab extension: fill smoothly shaded areas with one linear or radial gradient each instead of flat bands. Not part of the Vectorizer.AI API.', VECTORIZE),
  boolOpt('tracelab.layers', 'Layers', 'tracelab', false,
    'Tracelab extension, with output.shape_stacking=stacked: a shape partly hidden by shapes stacked over it is completed underneath as the circle or ellipse it is, and an area that is one colour at one opacity over what lies beneath becomes one translucent shape over the unbroken shapes below. No effect with cutouts. Not part of the Vectorizer.AI API.', VECTORIZE),
  enumOpt('tracelab.profile', 'Picture kind', 'tracelab', ['auto', 'pixel', 'flat', 'photo', 'lineart'], 'auto',
    'Tracelab extension: what kind of picture to trace it as — auto (decided from the pixels), pixel (on the pixel lattice), flat (flat art), photo (continuous tone) or lineart (potrace-style outlines). Not part of the Vectorizer.AI API.', VECTORIZE),
  enumOpt('tracelab.strokes', 'Lines as strokes', 'tracelab', ['none', 'auto', 'centerline'], 'none',
    'Tracelab extension: none (every line a thin filled shape, as the API does), auto (lines and outlines of even width become stroked paths) or centerline (no fills: every line up to tracelab.max_stroke_width becomes its centre-line, wider ink its outline, ordered for plotters, lasers and cutters). Not part of the Vectorizer.AI API.', VECTORIZE),
  floatOpt('tracelab.max_stroke_width', ['Widest stroke', 'px'], 'tracelab', 0, 100, 0,
    'Tracelab extension: ink up to this width (input px) is read as a line with tracelab.strokes; wider ink stays a shape (auto) or becomes its outline (centerline). 0 (default): automatic — 1/12 of the picture\'s shorter side, 8 to 32 px (a line icon\'s strokes at any size it is rendered at); centerline takes ink over 8 px as a line only where its strokes, drawn, hold the ink. Not part of the Vectorizer.AI API.', VECTORIZE),

  // ---- download only ----
  stringOpt('receipt', 'Receipt', 'download', undefined,
    'X-Receipt of an upgraded preview token; gets the cheaper additional-format rate.', DOWNLOAD),
] as const;

type Schema = (typeof OPTION_SCHEMA)[number];

/** Every option name, as a string-literal union. */
export type OptionName = Schema['name'];

type ValueOf<S> =
  S extends EnumOption<string, infer V>
    ? V
    : S extends FloatOption<string, infer D>
      ? undefined extends D
        ? number | undefined
        : number
      : S extends StringOption<string, infer D>
        ? undefined extends D
          ? string | undefined
          : string
        : S extends IntOption
          ? number
          : S extends BoolOption
            ? boolean
            : S extends ColorOption | PaletteOption
              ? string
              : never;

/** All options, resolved: every name present, defaults applied (`undefined` = "none"). */
export type VectorizeOptions = { readonly [S in Schema as S['name']]: ValueOf<S> };

/** Spec of one option by name. */
export const OPTION_BY_NAME: ReadonlyMap<string, OptionSpec> = new Map(
  OPTION_SCHEMA.map((s): [string, OptionSpec] => [s.name, s]),
);

/** Image-source fields: not options; the service handles them, `parseOptions` skips them. */
export const IMAGE_SOURCE_FIELDS: ReadonlySet<string> = new Set(['image', 'image.url', 'image.base64', 'image.token']);

/** The resolved options when no field is given. */
export const DEFAULT_OPTIONS: VectorizeOptions = Object.freeze(
  Object.fromEntries(OPTION_SCHEMA.map((s) => [s.name, s.default])),
) as unknown as VectorizeOptions;

// ---------------------------------------------------------------------------------------------
// Parsing

const INTEGER = /^[+-]?\d+$/;
/** Decimal number with optional fraction and exponent; no hex, no Infinity/NaN, no whitespace. */
const FLOAT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const RGBA_FUNCTION = /^rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*((?:\d+(?:\.\d*)?|\.\d+))\s*)?\)$/;

/** Human-readable allowed set/range of an option, as used in messages and help. */
export function describeAllowed(spec: OptionSpec): string {
  switch (spec.kind) {
    case 'enum':
      return spec.values.join(' | ');
    case 'int':
      return `integer ${formatNumber(spec.min)}…${formatNumber(spec.max)}`;
    case 'float':
      return `number ${formatNumber(spec.min)}…${formatNumber(spec.max)}`;
    case 'bool':
      return 'true | false';
    case 'string':
      return 'text';
    case 'color':
      return '#RRGGBB | #RRGGBBAA | rgba(r,g,b,a)';
    case 'palette':
      return 'palette entries "color [-> color] [~ 0…2];"';
  }
}

function formatNumber(n: number): string {
  return Math.abs(n) >= 1e9 ? n.toExponential().replace('e+', 'e') : groupDigits(n);
}

/** Parse one field's text per its spec. Throws `parameterError` naming field, allowed set and value. */
export function parseOptionValue(spec: OptionSpec, raw: string): VectorizeOptions[OptionName] {
  const bad = (expected: string, extra = ''): never => {
    throw parameterError(`${spec.name} must be ${expected}; received ${quoteReceived(raw)}${extra}`);
  };
  switch (spec.kind) {
    case 'bool':
      if (raw === 'true') return true;
      if (raw === 'false') return false;
      return bad('true or false', /^(true|false)$/i.test(raw.trim()) ? ' (lower case, no spaces)' : '');
    case 'int': {
      const range = `an integer in ${formatNumber(spec.min)}…${formatNumber(spec.max)}`;
      if (!INTEGER.test(raw)) return bad(range);
      const n = Number(raw);
      if (!(n >= spec.min && n <= spec.max)) return bad(range);
      return n === 0 ? 0 : n; // no -0
    }
    case 'float': {
      const range = `a number in ${formatNumber(spec.min)}…${formatNumber(spec.max)}`;
      if (!FLOAT.test(raw)) return bad(range);
      const n = Number(raw);
      if (!Number.isFinite(n) || !(n >= spec.min && n <= spec.max)) return bad(range);
      return n === 0 ? 0 : n; // no -0
    }
    case 'enum': {
      if ((spec.values as readonly string[]).includes(raw)) return raw as VectorizeOptions[OptionName];
      const folded = spec.values.find((v) => v.toLowerCase() === raw.trim().toLowerCase());
      return bad(
        spec.values.length === 1 ? `${spec.values[0]}` : `one of ${spec.values.join(', ')}`,
        folded !== undefined ? ` (did you mean ${folded}? values are case-sensitive)` : '',
      );
    }
    case 'string':
      return raw;
    case 'color': {
      const c = parseColorValue(raw);
      if (c === undefined) return bad('a colour #RRGGBB, #RRGGBBAA or rgba(r,g,b,a) with r,g,b 0…255 and a 0…1');
      return formatHexColor(c);
    }
    case 'palette':
      parsePalette(raw); // validates; throws a processing.palette error naming the entry
      return raw;
  }
}

/** `#RRGGBB`, `#RRGGBBAA`, `rgb(r,g,b)` or `rgba(r,g,b,a)` (a in 0…1). */
export function parseColorValue(raw: string): Rgba | undefined {
  const hex = parseHexColor(raw);
  if (hex !== undefined) return hex;
  const m = RGBA_FUNCTION.exec(raw);
  if (m === null) return undefined;
  const [r, g, b] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const alpha = m[4] === undefined ? 1 : Number(m[4]);
  if (r > 255 || g > 255 || b > 255 || alpha > 1) return undefined;
  return { r, g, b, a: Math.round(alpha * 255) };
}

/**
 * Validate and resolve request fields (multipart name/value strings) for one endpoint.
 * Image-source fields are skipped; unknown fields, fields given twice, fields not accepted on this
 * endpoint and malformed or out-of-range values throw `parameterError` (400 / 1019).
 */
export function parseOptions(fields: Iterable<readonly [string, string]>, endpoint: Endpoint): VectorizeOptions {
  const values: Record<string, unknown> = { ...DEFAULT_OPTIONS };
  const seen = new Set<string>();
  for (const [name, raw] of fields) {
    if (IMAGE_SOURCE_FIELDS.has(name)) continue;
    const spec = OPTION_BY_NAME.get(name);
    if (spec === undefined) throw unknownFieldError(name, endpoint);
    if (!spec.endpoints.includes(endpoint)) {
      throw parameterError(
        `${spec.name} is not accepted on /${endpoint} (it is a /${spec.endpoints.join(' and /')} parameter` +
          (endpoint === 'download' ? '; processing options need a new /vectorize call)' : ')'),
      );
    }
    if (seen.has(name)) throw parameterError(`${name} was given more than once; give each parameter at most once`);
    seen.add(name);
    values[name] = parseOptionValue(spec, raw);
  }
  return values as VectorizeOptions;
}

function unknownFieldError(name: string, endpoint: Endpoint): TracelabError {
  const suggestion = closestName(name, endpoint);
  return parameterError(
    `Unknown parameter ${quoteReceived(name)} for /${endpoint}` +
      (suggestion !== undefined ? ` (did you mean ${suggestion}?)` : '') +
      '; parameter names are case-sensitive and spelled as in the API reference',
  );
}

/** Nearest known name by edit distance, if it is plausibly a typo. */
function closestName(name: string, endpoint: Endpoint): string | undefined {
  const limit = Math.max(2, Math.floor(name.length / 6));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const spec of OPTION_SCHEMA) {
    if (!spec.endpoints.includes(endpoint)) continue;
    // The distance is at least the length difference: a name that far off can never be suggested,
    // and skipping it keeps a huge unknown name (100 kB+) from costing O(length × names) work.
    if (Math.abs(name.length - spec.name.length) > limit) continue;
    const d = editDistance(name.toLowerCase(), spec.name.toLowerCase());
    if (d < bestDistance) {
      bestDistance = d;
      best = spec.name;
    }
  }
  return bestDistance <= limit ? best : undefined;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}

// ---------------------------------------------------------------------------------------------
// Serialising (UI round trips, fetch adapter)

/** Text of a resolved value as sent in a multipart field. */
export function formatOptionValue(value: VectorizeOptions[OptionName]): string | undefined {
  if (value === undefined) return undefined;
  return String(value);
}

/**
 * The fields that reproduce `opts` on `endpoint`: only values that differ from the defaults and
 * that the endpoint accepts, in schema order.
 */
export function toFields(opts: VectorizeOptions, endpoint: Endpoint): [string, string][] {
  const out: [string, string][] = [];
  for (const spec of OPTION_SCHEMA) {
    if (!spec.endpoints.includes(endpoint)) continue;
    const value = opts[spec.name];
    if (value === spec.default) continue;
    const text = formatOptionValue(value);
    if (text !== undefined) out.push([spec.name, text]);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Conversion to engine / writer parameters (the only place that knows both vocabularies)

export function toEngineParams(opts: VectorizeOptions): EngineParams {
  return {
    maxColors: opts['processing.max_colors'],
    palette: parsePalette(opts['processing.palette']),
    minAreaPx: opts['processing.shapes.min_area_px'],
    maxPixels: opts['input.max_pixels'],
    shapeStacking: opts['output.shape_stacking'],
    gradients: opts['tracelab.gradients'],
    layers: opts['tracelab.layers'],
    profile: opts['tracelab.profile'],
    strokes: opts['tracelab.strokes'],
    maxStrokeWidthPx: opts['tracelab.max_stroke_width'],
    parameterizedShapes: {
      ellipseGeneral: opts['processing.parameterizedShapes.ellipse.general.enabled'],
      ellipseCircle: opts['processing.parameterizedShapes.ellipse.circle.enabled'],
      triangleGeneral: opts['processing.parameterizedShapes.triangle.general.enabled'],
      triangleIsosceles: opts['processing.parameterizedShapes.triangle.isosceles.enabled'],
      quadrilateralGeneral: opts['processing.parameterizedShapes.quadrilateral.general.enabled'],
      quadrilateralRectangle: opts['processing.parameterizedShapes.quadrilateral.rectangle.enabled'],
      quadrilateralBullet: opts['processing.parameterizedShapes.quadrilateral.bullet.enabled'],
      starN3: opts['processing.parameterizedShapes.star.N3.enabled'],
      starN4: opts['processing.parameterizedShapes.star.N4.enabled'],
      starN5: opts['processing.parameterizedShapes.star.N5.enabled'],
      starN6: opts['processing.parameterizedShapes.star.N6.enabled'],
    },
  };
}

export function toOutputOptions(opts: VectorizeOptions): OutputOptions {
  const overrideColor = opts['output.strokes.use_override_color'] ? parseColorValue(opts['output.strokes.override_color']) : undefined;
  const size = (name: 'scale' | 'width' | 'height' | 'input_dpi' | 'output_dpi'): Partial<Record<string, number>> => {
    const v = opts[`output.size.${name}`];
    return v === undefined ? {} : { [name === 'input_dpi' ? 'inputDpi' : name === 'output_dpi' ? 'outputDpi' : name]: v };
  };
  return {
    fileFormat: opts['output.file_format'],
    drawStyle: opts['output.draw_style'],
    groupBy: opts['output.group_by'],
    gapFiller: {
      enabled: opts['output.gap_filler.enabled'],
      nonScalingStroke: opts['output.gap_filler.non_scaling_stroke'],
      clip: opts['output.gap_filler.clip'],
      strokeWidthPx: opts['output.gap_filler.stroke_width'],
    },
    strokes: {
      strokeWidthPx: opts['output.strokes.stroke_width'],
      nonScalingStroke: opts['output.strokes.non_scaling_stroke'],
      ...(overrideColor ? { overrideColor } : {}),
    },
    curves: {
      quadraticBezier: opts['output.curves.allowed.quadratic_bezier'],
      cubicBezier: opts['output.curves.allowed.cubic_bezier'],
      circularArc: opts['output.curves.allowed.circular_arc'],
      ellipticalArc: opts['output.curves.allowed.elliptical_arc'],
      lineFitTolerancePx: opts['output.curves.line_fit_tolerance'],
    },
    flattenPrimitives: opts['output.parameterized_shapes.flatten'],
    svg: {
      version: opts['output.svg.version'],
      fixedSize: opts['output.svg.fixed_size'],
      adobeCompatibilityMode: opts['output.svg.adobe_compatibility_mode'],
    },
    pdf: { compress: opts['output.pdf.compression_mode'] === 'Deflate' },
    dxf: { compatibility: opts['output.dxf.compatibility_level'] },
    bitmap: { antiAliased: opts['output.bitmap.anti_aliasing_mode'] === 'anti_aliased' },
    size: {
      unit: opts['output.size.unit'],
      aspectRatio: opts['output.size.aspect_ratio'],
      alignX: opts['output.size.align_x'],
      alignY: opts['output.size.align_y'],
      ...size('scale'),
      ...size('width'),
      ...size('height'),
      ...size('input_dpi'),
      ...size('output_dpi'),
    },
  };
}

/** Fields that set the page's size: their documented ranges start at 0, which gives no page. */
const PAGE_SIZE_FIELDS = ['output.size.scale', 'output.size.width', 'output.size.height'] as const;

/**
 * Refuses (400 / 1019, naming the field) a value inside its field's documented range that no file
 * can be made from here: 0 for output.size.scale, width or height (a page needs a size). It is a
 * rule of the one field, so it is checked with the field — the playground marks the field with
 * this message, as it does a value out of range (issue 29: it was found only when the trace
 * failed, which wiped the result) — and by checkCombination for a whole request. A client of the
 * real service does not apply it: that service's documentation allows 0.
 */
export function checkFieldValue(name: string, value: unknown): void {
  if ((PAGE_SIZE_FIELDS as readonly string[]).includes(name) && typeof value === 'number' && !(value > 0)) {
    throw parameterError(`${name} must be greater than 0 (a page needs a size); received ${value}.`);
  }
}

/**
 * The checks of parsed options beyond each field's range (what planVectorize and a Tracelab server
 * refuse with 400 / 1019 before any work): the page-size rule (checkFieldValue). Every documented value and
 * combination of the others is implemented (issue 41: the colour profiles and a clipped gap filler in SVG Tiny 1.2
 * used to be refused here).
 */
export function checkCombination(options: VectorizeOptions): void {
  for (const name of PAGE_SIZE_FIELDS) checkFieldValue(name, options[name]);
}
