/**
 * The preset picker: one labelled select over the presets of presets.ts. Choosing one applies it
 * on top of the defaults; the select always shows which preset the current options are (or
 * "Custom" once any option was changed), so it never claims a preset that is no longer in effect.
 */

import { useId, useMemo } from 'react';
import { useStore } from 'zustand';

import { matchingPreset, presetById, PRESETS } from './presets.js';
import type { TracelabStore } from './store.js';

const DEFAULTS_TEXT = 'The API defaults: automatic colour count, gap filler on, exact shapes detected.';
const CUSTOM_TEXT = 'Your own settings: pick a preset to start again from one.';

export function PresetPicker({ store }: { store: TracelabStore }) {
  const id = useId();
  const descriptionId = useId();
  const options = useStore(store, (s) => s.options);
  const current = useMemo(() => matchingPreset(options) ?? 'custom', [options]);
  const description = current === 'defaults' ? DEFAULTS_TEXT : current === 'custom' ? CUSTOM_TEXT : presetById(current)!.description;

  const choose = (value: string) => {
    if (value === 'defaults') store.getState().resetOptions();
    else {
      const preset = presetById(value);
      if (preset) store.getState().applyOptions(preset.values, 'defaults');
    }
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
        </span>
      </div>
    </section>
  );
}
