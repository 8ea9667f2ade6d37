/**
 * The preset picker: one labelled select over the presets of presets.ts. Choosing one sets the
 * options presets govern and keeps every other (choosePreset); the select always shows which
 * preset those options are (or "Custom" once one of them was changed), so it never claims a
 * preset that is no longer in effect, and a line under it names the options kept (issue 41: the
 * Logo preset switched tracelab.gradients off without a word).
 */

import { useId, useMemo } from 'react';
import { useStore } from 'zustand';

import { choosePreset, keptFields, matchingPreset, presetById, PRESETS } from './presets.js';
import type { TracelabStore } from './store.js';

const DEFAULTS_TEXT = 'The API defaults: automatic colour count, gap filler on, exact shapes detected.';
const CUSTOM_TEXT = 'Your own settings: pick a preset to start again from one.';

export function PresetPicker({ store }: { store: TracelabStore }) {
  const id = useId();
  const descriptionId = useId();
  const options = useStore(store, (s) => s.options);
  const current = useMemo(() => matchingPreset(options) ?? 'custom', [options]);
  const description = current === 'defaults' ? DEFAULTS_TEXT : current === 'custom' ? CUSTOM_TEXT : presetById(current)!.description;
  const kept = useMemo(() => keptFields(options), [options]);

  const choose = (value: string) => {
    if (value === 'defaults' || presetById(value)) choosePreset(store, value as Parameters<typeof choosePreset>[1]);
  };

  return (
    <section className="presets" aria-label="Presets">
      <div className="field">
        <label htmlFor={id}>Preset</label>
        <select id={id} value={current} aria-describedby={descriptionId} onChange={(e) => choose(e.target.value)}>
          <option value="defaults">Defaults</option>
          {PRESETS.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
          {current === 'custom' && (
            <option value="custom" disabled>
              Custom
            </option>
          )}
        </select>
        <span id={descriptionId} className="hint">
          {description}
          {kept.length > 0 && (
            <span className="preset-kept" data-testid="preset-kept">
              {' '}
              {keptText(kept)}
            </span>
          )}
        </span>
      </div>
    </section>
  );
}

/** "Presets keep your tracelab.gradients=true, output.svg.fixed_size=true." */
function keptText(kept: readonly [string, string][]): string {
  return `Presets keep your ${kept.map(([name, value]) => `${name}=${value}`).join(', ')}.`;
}
