/**
 * Every processing.*, input.* and output.* parameter of the API, generated from the options schema
 * (src/api/options.ts): one collapsible group per schema group, one control per option with the
 * schema's label and unit ("Minimum area · px²"), its API name beneath in monospace (what
 * developers type and tune with) and the schema's hint. Text the schema rejects stays in its field with the API's own 1019 message
 * (aria-invalid, announced); only valid values reach the options the tracer sees.
 *
 * A group of Tracelab extensions (tracelab.*: isExtensionOption) is set apart: its title says it is
 * not part of the Vectorizer.AI API, and a note under it says what that means for remote calls and
 * code snippets (src/api/extensions.ts).
 */

import { useId, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';

import { isExtensionOption, OPTION_GROUPS, type OptionSpec, type VectorizeOptions } from '../api/index.js';
import { isNarrowScreen } from './narrow.js';
import { PANEL_OPTIONS, type OptionsEdit, type TracelabStore } from './store.js';

/** Groups in schema order with the options the panel shows; `extension`: every option is a Tracelab extension. */
const PANEL_GROUPS = OPTION_GROUPS.map((g) => {
  const options = PANEL_OPTIONS.filter((o) => o.group === g.id);
  return { ...g, options, extension: options.length > 0 && options.every((o) => isExtensionOption(o.name)) };
}).filter((g) => g.options.length > 0);

/** Under the title of an extension group. */
export const EXTENSION_GROUP_NOTE = 'Tracelab only: the real service does not have these; remote calls and code snippets for it leave them out.';

/**
 * Groups shown open at first on a wide screen; the rest start collapsed. The extensions are open
 * too: they are few, off by default, and what Tracelab offers beyond the API.
 */
const OPEN_GROUPS: ReadonlySet<string> = new Set(['input', 'processing', 'output', 'output.gap_filler', 'tracelab']);

type PanelGroup = (typeof PANEL_GROUPS)[number];

/**
 * Whether `group` starts open: the wide-screen set, and on any screen an extension group with an
 * option set (from a share link or the last session): the result then differs from the API's,
 * and the user should see why.
 */
function startsOpen(group: PanelGroup, narrow: boolean, options: VectorizeOptions): boolean {
  if (!narrow && OPEN_GROUPS.has(group.id)) return true;
  return group.extension && group.options.some((o) => (options as Record<string, unknown>)[o.name] !== o.default);
}

export function OptionsPanel({ store }: { store: TracelabStore }) {
  // Read once: a group the user opened or closed stays so when the window is resized.
  const [open] = useState(() => {
    // The one-column layout: options come after the result there and start folded.
    const narrow = isNarrowScreen();
    const options = store.getState().options;
    return new Set(PANEL_GROUPS.filter((g) => startsOpen(g, narrow, options)).map((g) => g.id));
  });
  return (
    <form className="options" aria-label="Options" onSubmit={(event) => event.preventDefault()}>
      <div className="options-actions">
        <button type="button" className="link" onClick={() => store.getState().resetOptions()}>
          Reset to defaults
        </button>
      </div>
      {PANEL_GROUPS.map((group) => (
        <OptionGroup key={group.id} store={store} group={group} open={open.has(group.id)} />
      ))}
    </form>
  );
}

function OptionGroup({ store, group, open }: { store: TracelabStore; group: PanelGroup; open: boolean }) {
  const noteId = useId();
  return (
    <details
      className={group.extension ? 'option-group extension-group' : 'option-group'}
      data-group={group.id}
      open={open}
      aria-describedby={group.extension ? noteId : undefined}
    >
      <summary>{group.title}</summary>
      {group.extension && (
        <p id={noteId} className="group-note">
          {EXTENSION_GROUP_NOTE}
        </p>
      )}
      <div className="option-grid">
        {group.options.map((spec) => (
          <OptionField key={spec.name} store={store} spec={spec} />
        ))}
      </div>
    </details>
  );
}

/** An API name that may wrap after each dot (a long one reads better broken there than anywhere). */
function breakableName(name: string): ReactNode[] {
  const parts = name.split('.');
  return parts.flatMap((part, i) => (i < parts.length - 1 ? [`${part}.`, <wbr key={i} />] : [part]));
}

/** The text form of a value, as the API takes it. */
function textOf(value: unknown): string {
  return value === undefined ? '' : String(value);
}

function OptionField({ store, spec }: { store: TracelabStore; spec: OptionSpec }) {
  const value = useStore(store, (s) => (s.options as Record<string, unknown>)[spec.name]);
  const error = useStore(store, (s) => s.optionErrors[spec.name]);
  const id = useId();
  const labelId = useId();
  const nameId = useId();
  const hintId = useId();
  const errorId = useId();
  const setText = (text: string, edit: OptionsEdit = 'typing') => store.getState().setOptionText(spec.name, text, edit);
  // What the user is typing, while the field has focus: an emptied field means the default (the
  // store holds it) but stays empty under the cursor until the user leaves it.
  const [draft, setDraft] = useState<string | null>(null);
  const described = error ? `${hintId} ${errorId}` : hintId;
  // Named by both the words and the API name ("Minimum area · px² processing.shapes.min_area_px"):
  // a screen reader says what it is, and a search for the API name finds the field.
  const labelled = `${labelId} ${nameId}`;

  let control;
  switch (spec.kind) {
    case 'bool':
      control = (
        <input id={id} type="checkbox" checked={value === true} aria-labelledby={labelled} aria-describedby={described} onChange={(e) => setText(String(e.target.checked), 'settled')} />
      );
      break;
    case 'enum':
      control = (
        <select id={id} value={textOf(value)} aria-labelledby={labelled} aria-describedby={described} onChange={(e) => setText(e.target.value, 'settled')}>
          {spec.values.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>
      );
      break;
    default: {
      const numeric = spec.kind === 'int' || spec.kind === 'float';
      control = (
        <input
          id={id}
          type={numeric ? 'number' : 'text'}
          step={spec.kind === 'int' ? 1 : numeric ? 'any' : undefined}
          inputMode={spec.kind === 'int' ? 'numeric' : numeric ? 'decimal' : 'text'}
          spellCheck={false}
          placeholder={spec.kind === 'palette' ? '#FF0000 -> #00FF00 ~ 0.1;' : numeric && value === undefined ? 'not set' : undefined}
          value={error ? error.text : draft !== null && draft.trim() === '' ? draft : textOf(value)}
          aria-invalid={error !== undefined}
          aria-labelledby={labelled}
          aria-describedby={described}
          onChange={(e) => {
            setDraft(e.target.value);
            setText(e.target.value);
          }}
          onBlur={() => setDraft(null)}
        />
      );
    }
  }

  return (
    <div className={spec.kind === 'bool' ? 'field field-check' : 'field'} data-option={spec.name}>
      <div className="option-title">
        <label htmlFor={id} id={labelId}>
          {spec.label}
          {spec.unit && <span className="option-unit"> · {spec.unit}</span>}
        </label>
        <code id={nameId} className="option-name">
          {breakableName(spec.name)}
        </code>
      </div>
      {control}
      <span id={hintId} className="hint">
        {spec.hint}
      </span>
      {error && (
        <span id={errorId} className="field-error" role="alert">
          {error.message}
        </span>
      )}
    </div>
  );
}
