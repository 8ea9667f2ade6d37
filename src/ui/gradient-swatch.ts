/**
 * How the palette panel shows a gradient fill (tracelab.gradients). In: a GradientEntry of the
 * worker's stats (kind and stops). Out: a CSS background that previews its ramp — left to right
 * for a linear one (a swatch shows the colours, not each shape's direction), from the centre to the
 * swatch's edge for a radial one (SVG's r is where the last stop is reached) — and the text that
 * names it for screen readers and beside the swatch.
 */

import type { GradientEntry } from '../worker/protocol.js';

type Ramp = Pick<GradientEntry, 'kind' | 'stops'>;

/** `0.25` → `25%`, at most two decimals. */
function percent(offset: number): string {
  return `${Number((offset * 100).toFixed(2))}%`;
}

/** The CSS `background` of a swatch of `ramp`. */
export function gradientCss(ramp: Ramp): string {
  const stops = ramp.stops.map((s) => `${s.hex} ${percent(s.offset)}`).join(', ');
  return ramp.kind === 'linear' ? `linear-gradient(to right, ${stops})` : `radial-gradient(circle closest-side, ${stops})`;
}

/** The stops as text, e.g. `#FF0000 → #0000FF`; offsets in brackets where they are not evenly spaced. */
export function rampText(ramp: Ramp): string {
  const last = ramp.stops.length - 1;
  const even = ramp.stops.every((s, i) => Math.abs(s.offset - (last > 0 ? i / last : 0)) < 0.005);
  return ramp.stops.map((s) => (even ? s.hex : `${s.hex} (${percent(s.offset)})`)).join(' → ');
}

/** The swatch's accessible name, e.g. `Linear gradient #FF0000 → #0000FF`. */
export function gradientLabel(ramp: Ramp): string {
  return `${ramp.kind === 'linear' ? 'Linear' : 'Radial'} gradient ${rampText(ramp)}`;
}
