/**
 * Presets: valid API values that the pipeline accepts, applied on top of the defaults by the
 * store, recognised again by matchingPreset — and each does what its description says on the
 * matching sample of the gallery (public/samples/).
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

import { DEFAULT_OPTIONS, parseOptions } from '../api/options.js';
import { planVectorize, runVectorize } from '../api/pipeline.js';
import { choosePreset, keptFields, matchingPreset, presetById, presetOptions, PRESET_FIELDS, PRESETS } from './presets.js';
import { createTracelabStore, fieldsFor, SERVICE_FIELDS } from './store.js';

const samples = fileURLToPath(new URL('../../public/samples/', import.meta.url));
const sample = (name: string) => new Uint8Array(readFileSync(join(samples, name)));

async function trace(presetId: string, file: string) {
  const fields = Object.entries(presetById(presetId)!.values);
  const out = await runVectorize(planVectorize(fields), sample(file));
  return { svg: new TextDecoder().decode(out.body), result: out.result };
}

describe('presets', () => {
  it('five presets with labels, one-line descriptions and valid, non-service values', () => {
    expect(PRESETS.map((p) => p.id)).toEqual(['logo', 'illustration', 'line-art', 'pixel-art', 'photo']);
    for (const p of PRESETS) {
      expect(p.label).not.toBe('');
      expect(p.description).not.toMatch(/\n/);
      expect(Object.keys(p.values).some((n) => SERVICE_FIELDS.has(n))).toBe(false);
      expect(() => planVectorize(Object.entries(p.values))).not.toThrow();
      expect(fieldsFor(presetOptions(p)).length).toBeGreaterThan(0);
      expect(presetOptions(p)).toEqual(parseOptions(Object.entries(p.values), 'vectorize'));
    }
    // Different presets give different options.
    expect(new Set(PRESETS.map((p) => JSON.stringify(fieldsFor(presetOptions(p))))).size).toBe(PRESETS.length);
  });

  it('set the preset fields the same whatever was set before, and are recognised', () => {
    const store = createTracelabStore({ 'processing.max_colors': '5', 'output.group_by': 'color' });
    expect(matchingPreset(store.getState().options)).toBeUndefined();
    // Every preset after every other: no value of the one before is left over.
    for (const before of PRESETS) {
      for (const p of PRESETS) {
        choosePreset(store, before.id);
        choosePreset(store, p.id);
        expect(store.getState().options).toEqual(presetOptions(p));
        expect(matchingPreset(store.getState().options)).toBe(p.id);
      }
    }
    store.getState().setOptionText('processing.shapes.min_area_px', '7');
    expect(matchingPreset(store.getState().options)).toBeUndefined();
    choosePreset(store, 'defaults');
    expect(store.getState().options).toEqual(DEFAULT_OPTIONS);
    expect(matchingPreset(store.getState().options)).toBe('defaults');
  });

  it('keep the tracelab.* extensions and every option no preset sets, and name them (issue 41 item 3)', () => {
    const own = { 'tracelab.gradients': 'true', 'output.svg.fixed_size': 'true', 'output.size.width': '300', 'input.max_pixels': '1000000' };
    const store = createTracelabStore({ ...own, 'processing.max_colors': '5' });
    for (const id of [...PRESETS.map((p) => p.id), 'defaults'] as const) {
      choosePreset(store, id);
      const options = store.getState().options;
      expect(options['tracelab.gradients']).toBe(true);
      expect(options['output.svg.fixed_size']).toBe(true);
      expect(options['output.size.width']).toBe(300);
      expect(options['input.max_pixels']).toBe(1_000_000);
      expect(matchingPreset(options)).toBe(id);
      expect(keptFields(options)).toEqual(fieldsFor(parseOptions(Object.entries(own), 'vectorize')));
    }
    // What the presets set is theirs: none of them is kept.
    expect(keptFields(store.getState().options).some(([name]) => PRESET_FIELDS.has(name))).toBe(false);
    expect(PRESET_FIELDS.has('processing.max_colors')).toBe(true);
    expect([...PRESET_FIELDS].some((name) => name.startsWith('tracelab.'))).toBe(false);
  });

  it('line art: two colours, pure black and white, specks gone', async () => {
    const { svg, result } = await trace('line-art', 'lineart.png');
    const colors = new Set(result.shapes.map(({ color: c }) => `${c.r},${c.g},${c.b}`));
    expect([...colors].sort()).toEqual(['0,0,0', '255,255,255']);
    expect(svg).toContain('<svg');
    const defaults = await runVectorize(planVectorize([]), sample('lineart.png'));
    expect(result.shapes.length).toBeLessThan(defaults.result.shapes.length);
  });

  it('pixel art: straight lines only, on the pixel grid', async () => {
    const { svg } = await trace('pixel-art', 'pixel.png');
    const data = [...svg.matchAll(/\sd="([^"]*)"/g)].map((m) => m[1]!).join(' ');
    expect(data).not.toBe('');
    expect(data).not.toMatch(/[CcSsQqTtAa]/);
    expect(svg).not.toMatch(/<(circle|ellipse)\b/);
    expect(data).not.toMatch(/\d\.\d/); // integer coordinates
  });

  it('logo: at most 8 colours; photo: stacked, fewer shapes than the defaults', async () => {
    const logo = await trace('logo', 'logo.png');
    expect(new Set(logo.result.shapes.map((s) => JSON.stringify(s.color))).size).toBeLessThanOrEqual(8);
    expect(presetOptions(presetById('photo')!)['output.shape_stacking']).toBe('stacked');
    const photo = await trace('photo', 'photo.png');
    const defaults = await runVectorize(planVectorize([]), sample('photo.png'));
    expect(photo.result.shapes.length).toBeLessThan(defaults.result.shapes.length);
  });

  it('photo: a smaller SVG than the defaults on both photo samples (issue 41: 1.01 MB against 835 kB on the coffee)', async () => {
    for (const file of ['photo-coffee.jpg', 'photo.png']) {
      const { svg } = await trace('photo', file);
      const defaults = await runVectorize(planVectorize([]), sample(file));
      expect(svg.length, file).toBeLessThan(defaults.body.length);
    }
  });
});
