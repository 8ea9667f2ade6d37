/**
 * Starting points for common kinds of picture, as API field values. The presets govern the options
 * any of them sets (PRESET_FIELDS: colours, specks, shapes, curves, stacking, gap filler, groups):
 * choosing one puts those back to their defaults and sets its own values on top, so a preset gives
 * the same tracing options whatever was set before. Every other option — the Tracelab extensions
 * (`tracelab.*`), the output size and format settings — is kept as the user set it, and the picker
 * names what it kept (`keptFields`; issue 41: choosing Logo switched gradient fills off silently).
 * `matchingPreset` tells which preset (if any) the preset fields are.
 *
 * Why each value (see the option hints in src/api/options.ts and the engine notes in docs/engine.md):
 * - logo: few flat colours, small specks removed, circles/ellipses kept exact; the gap filler
 *   (default on) hides seams between neighbouring colours.
 * - illustration: more colours, grouped by colour so each colour is one layer to edit.
 * - line art: two colours snapped to pure black and white, specks from scanning removed.
 * - pixel art: every pixel kept (no despeckle), straight edges only (no curves, no fitted
 *   shapes), so the result stays on the pixel grid.
 * - photo: more colours, specks under 20 px² removed, stacked shapes (no cut-out holes, so fewer
 *   seams and smaller files), no exact-shape detection; the gap filler is not clipped (clip paths
 *   made the coffee photo's SVG 1.01 MB against the defaults' 835 kB, issue 41). Its SVG is smaller
 *   than the defaults' on every photo sample and corpus photo (ΔE2000 0.06–0.2 higher).
 */

import { DEFAULT_OPTIONS, OPTION_BY_NAME, parseOptionValue, type VectorizeOptions } from '../api/index.js';
import { fieldsFor, type TracelabStore } from './store.js';

export interface Preset {
  readonly id: 'logo' | 'illustration' | 'line-art' | 'pixel-art' | 'photo';
  readonly label: string;
  /** One line shown under the picker. */
  readonly description: string;
  /** API field values, applied on top of the defaults. */
  readonly values: Readonly<Record<string, string>>;
}

const NO_SHAPE_DETECTION: Readonly<Record<string, string>> = Object.fromEntries(
  [
    'ellipse.general',
    'ellipse.circle',
    'triangle.general',
    'triangle.isosceles',
    'quadrilateral.general',
    'quadrilateral.rectangle',
    'quadrilateral.bullet',
    'star.N3',
    'star.N4',
    'star.N5',
    'star.N6',
  ].map((s) => [`processing.parameterizedShapes.${s}.enabled`, 'false']),
);

export const PRESETS: readonly Preset[] = [
  {
    id: 'logo',
    label: 'Logo',
    description: 'Up to 8 flat colours, specks removed, circles kept exact; the gap filler hides seams.',
    values: {
      'processing.max_colors': '8',
      'processing.shapes.min_area_px': '4',
      'output.gap_filler.enabled': 'true',
    },
  },
  {
    id: 'illustration',
    label: 'Illustration',
    description: 'Up to 24 colours with fine detail kept, grouped by colour (one layer per colour).',
    values: {
      'processing.max_colors': '24',
      'processing.shapes.min_area_px': '1',
      'output.group_by': 'color',
    },
  },
  {
    id: 'line-art',
    label: 'Line art',
    description: 'Two colours snapped to pure black and white; dust and scanning specks (under 6 px²) removed.',
    values: {
      'processing.max_colors': '2',
      'processing.palette': '#000000; #FFFFFF;',
      'processing.shapes.min_area_px': '6',
    },
  },
  {
    id: 'pixel-art',
    label: 'Pixel art',
    description: 'Every pixel kept, straight edges only (no curves or fitted shapes): the result stays on the grid.',
    values: {
      'processing.shapes.min_area_px': '0',
      ...NO_SHAPE_DETECTION,
      'output.curves.allowed.quadratic_bezier': 'false',
      'output.curves.allowed.cubic_bezier': 'false',
      'output.curves.allowed.circular_arc': 'false',
      'output.curves.allowed.elliptical_arc': 'false',
    },
  },
  {
    id: 'photo',
    label: 'Photo',
    description: 'Up to 48 colours, specks under 20 px² removed, stacked shapes: a smaller file than the defaults give.',
    values: {
      'processing.max_colors': '48',
      'processing.shapes.min_area_px': '20',
      'processing.parameterizedShapes.ellipse.general.enabled': 'false',
      'processing.parameterizedShapes.ellipse.circle.enabled': 'false',
      'output.shape_stacking': 'stacked',
    },
  },
];

/** Every option some preset sets: choosing a preset (or Defaults) resets these and keeps every other one. */
export const PRESET_FIELDS: ReadonlySet<string> = new Set(PRESETS.flatMap((p) => Object.keys(p.values)));

export function presetById(id: string): Preset | undefined {
  return PRESETS.find((p) => p.id === id);
}

/** `options` with every preset field back at its default, the rest as they are: what a preset is applied on. */
export function presetBase(options: VectorizeOptions): VectorizeOptions {
  const next: Record<string, unknown> = { ...options };
  for (const name of PRESET_FIELDS) next[name] = (DEFAULT_OPTIONS as Record<string, unknown>)[name];
  return next as VectorizeOptions;
}

/** The options a preset gives on top of `options` (default: the defaults), as choosing it in the picker does. */
export function presetOptions(preset: Preset, options: VectorizeOptions = DEFAULT_OPTIONS): VectorizeOptions {
  const next: Record<string, unknown> = { ...presetBase(options) };
  for (const [name, text] of Object.entries(preset.values)) next[name] = parseOptionValue(OPTION_BY_NAME.get(name)!, text);
  return next as VectorizeOptions;
}

/** Chooses a preset ('defaults': none) in `store`: its fields change, every other option stays. */
export function choosePreset(store: TracelabStore, id: Preset['id'] | 'defaults'): void {
  const base = presetBase(store.getState().options);
  store.getState().applyOptions(id === 'defaults' ? {} : presetById(id)!.values, base);
}

/** The preset fields of `options` that differ from the defaults, as API fields: what a preset is recognised by. */
function presetKey(options: VectorizeOptions): string {
  return JSON.stringify(fieldsFor(options).filter(([name]) => PRESET_FIELDS.has(name)));
}

let presetKeys: ReadonlyMap<string, Preset['id']> | undefined;

/**
 * The preset whose fields equal those of `options` exactly, 'defaults' when none of them is set,
 * else undefined (the user's own). Options outside PRESET_FIELDS do not count (see keptFields).
 */
export function matchingPreset(options: VectorizeOptions): Preset['id'] | 'defaults' | undefined {
  const key = presetKey(options);
  if (key === '[]') return 'defaults';
  presetKeys ??= new Map(PRESETS.map((p) => [presetKey(presetOptions(p)), p.id]));
  return presetKeys.get(key);
}

/** The options no preset sets that differ from the defaults, as API fields: what choosing a preset keeps. */
export function keptFields(options: VectorizeOptions): [string, string][] {
  return fieldsFor(options).filter(([name]) => !PRESET_FIELDS.has(name));
}
