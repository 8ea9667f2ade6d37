/**
 * Text edits of the `processing.palette` option (reference §3.2) for the palette panel.
 * In: the current option text (always valid: the store only keeps valid values) and a colour of the
 * result as the stats list it (`#RRGGBB`, upper case). Out: the new option text, canonically
 * spelled by src/api/palette.ts's formatPalette, or a plain description of the rules for display.
 *
 * How one detected colour is targeted without touching the others (src/engine/palette/palette.ts):
 * rules apply after clustering, to each detected colour; a colour snaps to the nearest rule within
 * that rule's tolerance and takes its remap colour, and an output alpha of 0 deletes it. The
 * stats list a detected colour by its rounded value, so a rule at that exact colour with a small
 * tolerance (TARGET_TOLERANCE) matches it and nothing else:
 *
 *     #RRGGBB -> #XXXXXX ~ 0.02;   remap
 *     #RRGGBB00 ~ 0.02;            delete (a transparent entry matches by RGB and drops the colour)
 *
 * A colour shown in the result may already be the output of a rule (a remap, or a snap to a
 * palette colour); then that rule is edited instead of adding one that would never match.
 *
 * A translucent colour (`#RRGGBBAA`) is an opaque detected colour whose area was translucent in the
 * picture: the engine matches rules against the opaque colour and puts the area's alpha back on
 * its shapes afterwards, times the rule's output alpha (src/engine/translucency.ts). So a new rule
 * names the colour opaque, and a rule produced a shown colour when the RGB agree and the shown
 * alpha is at most the rule's.
 */

import { formatHexColor, formatPalette, parseHexColor, parsePalette } from '../api/palette.js';
import type { PaletteRule, Rgba } from '../engine/types.js';

/** Fractional ARGB distance (≈ 5 of 255 per channel): catches one detected colour, not its neighbours. */
export const TARGET_TOLERANCE = 0.02;

/** One rule as the panel lists it. */
export interface RuleView {
  /** The colour the rule matches, `#RRGGBB` (alpha dropped: a delete entry matches by RGB). */
  readonly hex: string;
  readonly kind: 'remap' | 'delete' | 'snap';
  /** Remap target (`remap` only). */
  readonly to?: string;
  readonly tolerance: number;
}

/** The rules of `text`; text the API would reject counts as no rules (the store never holds it). */
function rulesOf(text: string): PaletteRule[] {
  try {
    return parsePalette(text);
  } catch {
    return [];
  }
}

function colorOf(hex: string): Rgba {
  const color = parseHexColor(hex.trim());
  if (!color) throw new Error(`not a #RRGGBB or #RRGGBBAA colour: ${JSON.stringify(hex)}`);
  return color;
}

const sameRgba = (p: Rgba, q: Rgba): boolean => p.r === q.r && p.g === q.g && p.b === q.b && p.a === q.a;
const sameRgb = (p: Rgba, q: Rgba): boolean => p.r === q.r && p.g === q.g && p.b === q.b;

/** The colour a rule gives its matches. */
const outputOf = (rule: PaletteRule): Rgba => rule.remap ?? rule.color;

const isDelete = (rule: PaletteRule): boolean => outputOf(rule).a === 0;

/** A delete entry in the canonical form: the matched colour made transparent, no remap. */
function asDelete(rule: PaletteRule): PaletteRule {
  return { color: { ...rule.color, a: 0 }, tolerance: rule.tolerance };
}

/** Whether a rule's output `output` can be drawn as `shown`: the same, or made more transparent by a translucent area. */
const drawsAs = (output: Rgba, shown: Rgba): boolean => sameRgb(output, shown) && shown.a <= output.a;

/** Rules whose output is the shown colour `target` (the colour the result draws). */
function producing(rules: readonly PaletteRule[], target: Rgba): boolean[] {
  return rules.map((rule) => !isDelete(rule) && drawsAs(outputOf(rule), target));
}

/** The detected colour a shown colour no rule produced comes from: its RGB, opaque (detected colours are). */
const detectedOf = (shown: Rgba): Rgba => ({ ...shown, a: 255 });

/** Remaps the result colour `fromHex` to `toHex`; other colours stay as they are. */
export function addRemap(text: string, fromHex: string, toHex: string): string {
  const rules = rulesOf(text);
  const shown = colorOf(fromHex);
  const to = colorOf(toHex);
  const hits = producing(rules, shown);
  if (hits.some(Boolean)) {
    return formatPalette(
      rules.map((rule, i) => {
        if (!hits[i]) return rule;
        // Back to the rule's own colour: the remap is no longer needed.
        if (sameRgba(rule.color, to)) return { color: rule.color, tolerance: rule.tolerance };
        return { color: rule.color, remap: to, tolerance: rule.tolerance };
      }),
    );
  }
  const from = detectedOf(shown);
  if (sameRgba(from, to)) return formatPalette(rules);
  return formatPalette([...rules, { color: from, remap: to, tolerance: TARGET_TOLERANCE }]);
}

/** Deletes the result colour `hex` (its shapes are omitted); other colours stay as they are. */
export function addDelete(text: string, hex: string): string {
  const rules = rulesOf(text);
  const target = colorOf(hex);
  const hits = producing(rules, target);
  if (hits.some(Boolean)) return formatPalette(rules.map((rule, i) => (hits[i] ? asDelete(rule) : rule)));
  return formatPalette([...rules, asDelete({ color: target, tolerance: TARGET_TOLERANCE })]);
}

/** Drops every rule that matches the colour `hex` (compared by RGB), e.g. to bring a deleted colour back. */
export function removeRule(text: string, hex: string): string {
  const target = colorOf(hex);
  return formatPalette(rulesOf(text).filter((rule) => !sameRgb(rule.color, target)));
}

/** `#RRGGBB` of a colour with its alpha dropped. */
function rgbHex(color: Rgba): string {
  return formatHexColor({ ...color, a: 255 });
}

/** The rules of `text` for display, in order. */
export function describeRules(text: string): RuleView[] {
  return rulesOf(text).map((rule) => {
    const hex = rgbHex(rule.color);
    if (isDelete(rule)) return { hex, kind: 'delete', tolerance: rule.tolerance };
    if (rule.remap) return { hex, kind: 'remap', to: formatHexColor(rule.remap), tolerance: rule.tolerance };
    return { hex, kind: 'snap', tolerance: rule.tolerance };
  });
}

/** One line of text for a rule, e.g. "#FF0000 → #00FF00 (~ 0.02)". */
export function ruleText(rule: RuleView): string {
  const tol = `~ ${rule.tolerance}`;
  switch (rule.kind) {
    case 'delete':
      return `${rule.hex} deleted (${tol})`;
    case 'remap':
      return `${rule.hex} → ${rule.to} (${tol})`;
    case 'snap':
      return `${rule.hex} snaps near colours (${tol})`;
  }
}
