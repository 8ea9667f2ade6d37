/**
 * Starting points for common kinds of picture, as API field values. A preset is applied on top of
 * the defaults (`applyOptions(values, 'defaults')`), so it always gives the same options whatever
 * was set before; `matchingPreset` tells which preset (if any) the current options are.
 *
 * Why each value (see the option hints in src/api/options.ts and the engine notes in docs/engine.md):
 * - logo: few flat colours, small specks removed, circles/ellipses kept exact; the gap filler
 *   (default on) hides seams between neighbouring colours.
 * - illustration: more colours, grouped by colour so each colour is one layer to edit.
 * - line art: two colours snapped to pure black and white, specks from scanning removed.
 * - pixel art: every pixel kept (no despeckle), straight edges only (no curves, no fitted
 *   shapes), so the result stays on the pixel grid.
 * - photo: more colours, larger specks removed, stacked shapes (no cut-out holes, so fewer seams
 *   and smaller files) with the gap filler clipped to its shapes, no exact-shape detection.
 */

import { DEFAULT_OPTIONS, OPTION_BY_NAME, parseOptionValue, type VectorizeOptions } from '../api/index.js';
import { fieldsFor } from './store.js';

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
    description: 'Up to 48 colours, larger specks removed, stacked shapes with a clipped gap filler.',
    values: {
      'processing.max_colors': '48',
      'processing.shapes.min_area_px': '16',
      'processing.parameterizedShapes.ellipse.general.enabled': 'false',
      'processing.parameterizedShapes.ellipse.circle.enabled': 'false',
      'output.shape_stacking': 'stacked',
      'output.gap_filler.clip': 'true',
    },
  },
];

export function presetById(id: string): Preset | undefined {
  return PRESETS.find((p) => p.id === id);
}

/** The options a preset gives: its values on top of the defaults (same as applyOptions). */
export function presetOptions(preset: Preset): VectorizeOptions {
  const next: Record<string, unknown> = { ...DEFAULT_OPTIONS };
  for (const [name, text] of Object.entries(preset.values)) next[name] = parseOptionValue(OPTION_BY_NAME.get(name)!, text);
  return next as VectorizeOptions;
}

let presetKeys: ReadonlyMap<string, Preset['id']> | undefined;

/** The preset whose options equal `options` exactly, 'defaults' when nothing is set, else undefined. */
export function matchingPreset(options: VectorizeOptions): Preset['id'] | 'defaults' | undefined {
  const key = JSON.stringify(fieldsFor(options));
  if (key === '[]') return 'defaults';
  presetKeys ??= new Map(PRESETS.map((p) => [JSON.stringify(fieldsFor(presetOptions(p))), p.id]));
  return presetKeys.get(key);
}
