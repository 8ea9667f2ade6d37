/**
 * The result's palette. In: job.stats.palette (the flat colours the result draws, largest area
 * first), job.stats.gradientFills (its gradient fills, tracelab.gradients) and the
 * `processing.palette` option. Out: edits of that option only — remap one colour, delete one
 * colour, remove one rule, or clear them all — which the tracing controller then re-traces. The
 * rule text is built by palette-rules.ts so that each edit hits exactly one colour. Gradient fills
 * are shown in a row of their own, as previews of their ramps: a rule remaps one flat colour, so
 * they have no remap or delete controls.
 */

import { useDeferredValue, useId, useMemo } from 'react';
import { useStore } from 'zustand';

import { PALETTE_FIELD } from '../api/palette.js';
import type { GradientEntry, PaletteEntry } from '../worker/protocol.js';
import { gradientCss, gradientLabel, rampText } from './gradient-swatch.js';
import { addDelete, addRemap, describeRules, removeRule, ruleText } from './palette-rules.js';
import type { TracelabStore } from './store.js';

/** Gradient fills shown at most; a photo can have hundreds of shaded areas. */
export const MAX_GRADIENT_SWATCHES = 24;

const NO_GRADIENTS: readonly GradientEntry[] = [];

export function PalettePanel({ store }: { store: TracelabStore }) {
  // Deferred: a new result's list (a photo's can hold a hundred colours, each with its controls)
  // is rendered after the viewer and the status have shown the result, in a transition React
  // renders in slices, not in the task that brings the result (with the rest of that render it
  // made a main-thread task of 50–60 ms on a 2-MP photo, measured in Chromium).
  // The deferred value lags a render behind, so it is shown only while it belongs to the picture
  // on screen: a new input takes the old picture's colours (their Delete and Remap) off at once,
  // not 0.1–0.35 s later when the deferred render comes (issue 41).
  const source = useStore(store, (s) => s.source);
  const stats = useStore(store, (s) => s.job.stats);
  const deferred = useDeferredValue(useMemo(() => ({ source, stats }), [source, stats]));
  const current = stats !== null && deferred.source === source ? deferred.stats : null;
  const palette = current?.palette ?? null;
  const gradients = current?.gradientFills ?? NO_GRADIENTS;
  const text = useStore(store, (s) => s.options[PALETTE_FIELD]);
  const headingId = useId();
  const gradientsId = useId();
  const edit = (next: string) => store.getState().setOptionText(PALETTE_FIELD, next);
  const rules = describeRules(text);
  // Shares are of the whole traced area, flat and gradient fills together.
  const total = [...(palette ?? []), ...gradients].reduce((sum, e) => sum + e.areaPx, 0);
  const shareOf = (areaPx: number) => (total > 0 ? areaPx / total : 0);

  return (
    <section className="palette-panel" aria-labelledby={headingId}>
      <h2 id={headingId}>Palette</h2>
      <p className="hint">
        Remap or delete a colour of the result. Each change edits <code>{PALETTE_FIELD}</code> and traces again.
      </p>
      {palette && palette.length > 0 ? (
        <ul className="palette-list" aria-label="Result colours">
          {palette.map((entry) => (
            <PaletteItem
              key={entry.hex}
              entry={entry}
              share={shareOf(entry.areaPx)}
              onRemap={(to) => edit(addRemap(text, entry.hex, to))}
              onDelete={() => edit(addDelete(text, entry.hex))}
            />
          ))}
        </ul>
      ) : gradients.length === 0 ? (
        <p className="placeholder">The result&apos;s colours appear here.</p>
      ) : null}
      {gradients.length > 0 && (
        <div className="palette-gradients">
          <h3 id={gradientsId}>Gradients</h3>
          <p className="hint">
            Smoothly shaded areas filled with one gradient each (<code>tracelab.gradients</code>, a Tracelab extension). Shown for
            reference: the rules edit flat colours.
          </p>
          <ul className="palette-list" aria-labelledby={gradientsId}>
            {gradients.slice(0, MAX_GRADIENT_SWATCHES).map((entry) => (
              <GradientItem key={`${entry.kind} ${rampText(entry)}`} entry={entry} share={shareOf(entry.areaPx)} />
            ))}
          </ul>
          {gradients.length > MAX_GRADIENT_SWATCHES && (
            <p className="hint">and {gradients.length - MAX_GRADIENT_SWATCHES} more gradient fills.</p>
          )}
        </div>
      )}
      {rules.length > 0 && (
        <ul className="palette-rules" aria-label="Palette rules">
          {rules.map((rule, i) => (
            <li key={`${i}:${rule.hex}`}>
              <span className="swatch" style={{ background: rule.hex }} aria-hidden="true" />
              <span>{ruleText(rule)}</span>
              <button type="button" className="link" aria-label={`Remove the rule for ${rule.hex}`} onClick={() => edit(removeRule(text, rule.hex))}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="secondary" disabled={text.trim() === ''} onClick={() => edit('')}>
        Clear palette rules
      </button>
    </section>
  );
}

/** "12.5% of area, 3 shapes": a fill's part of the picture. */
function shareText(share: number, shapes: number): string {
  return `${(share * 100).toFixed(share < 0.001 ? 2 : 1)}% of area, ${shapes} ${shapes === 1 ? 'shape' : 'shapes'}`;
}

function GradientItem({ entry, share }: { entry: GradientEntry; share: number }) {
  return (
    <li className="palette-item palette-gradient">
      <span className="swatch swatch-gradient" style={{ background: gradientCss(entry) }} role="img" aria-label={gradientLabel(entry)} />
      <code className="palette-hex">{rampText(entry)}</code>
      <span className="palette-share">
        {entry.kind}, {shareText(share, entry.shapes)}
      </span>
    </li>
  );
}

function PaletteItem({
  entry,
  share,
  onRemap,
  onDelete,
}: {
  entry: PaletteEntry;
  share: number;
  onRemap(to: string): void;
  onDelete(): void;
}) {
  const inputId = useId();
  return (
    <li className="palette-item">
      <span className="swatch" style={{ background: entry.hex }} aria-hidden="true" />
      <code className="palette-hex">{entry.hex}</code>
      <span className="palette-share">{shareText(share, entry.shapes)}</span>
      <label className="visually-hidden" htmlFor={inputId}>
        Remap {entry.hex} to
      </label>
      <ColorCommitInput id={inputId} value={entry.hex} onCommit={onRemap} />
      <button type="button" className="secondary" aria-label={`Delete ${entry.hex}`} onClick={onDelete}>
        Delete
      </button>
    </li>
  );
}

/**
 * A colour input that reports only the colour the user settles on. React's onChange fires on
 * every `input` event — each step of dragging in the picker — and each would start a trace; the
 * native `change` event fires once, when the picker is closed or the value is committed.
 */
function ColorCommitInput({ id, value, onCommit }: { id: string; value: string; onCommit(hex: string): void }) {
  // The picker takes #rrggbb only: an alpha part is dropped for display.
  const initial = value.slice(0, 7).toLowerCase();
  return (
    <input
      id={id}
      key={initial}
      type="color"
      className="palette-remap"
      defaultValue={initial}
      ref={(el) => {
        if (!el) return undefined;
        const onChange = () => {
          if (el.value.toLowerCase() !== initial) onCommit(el.value.toUpperCase());
        };
        el.addEventListener('change', onChange);
        return () => el.removeEventListener('change', onChange);
      }}
    />
  );
}
