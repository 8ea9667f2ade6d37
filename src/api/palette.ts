/**
 * `processing.palette` mini-language (reference §3.2):
 *
 *     entry   = colour [ "->" colour ] [ "~" tolerance ]
 *     palette = entry { ";" entry } [ ";" ]
 *
 * Colours are `#RRGGBB` (opaque) or `#RRGGBBAA`; whitespace is allowed around every token; the
 * tolerance is a decimal in 0…2 (default 2, i.e. "any distance"); at most 1,024 entries; the empty
 * string means "no rules". Whether the service accepts 3/4-digit hex or colour names is unknown
 * (reference §8), so only 6/8 hex digits are accepted here, and the error says so.
 */

import type { PaletteRule, Rgba } from '../engine/types.js';
import { parameterError } from '../engine/errors.js';

export const PALETTE_FIELD = 'processing.palette';
export const MAX_PALETTE_ENTRIES = 1024;
export const DEFAULT_PALETTE_TOLERANCE = 2;
export const MAX_PALETTE_TOLERANCE = 2;

/** Longest excerpt of user input quoted back in an error message. */
const QUOTE_LIMIT = 60;

/** Quote a received value for an error message, shortening long ones. */
export function quoteReceived(value: string): string {
  if (value.length <= QUOTE_LIMIT) return `'${value}'`;
  return `'${value.slice(0, QUOTE_LIMIT)}…' (${value.length} characters)`;
}

const HEX_COLOR = /^#(?:[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$/;
/** Plain decimal: digits with an optional fraction (or a bare fraction), optional sign. */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * Parse `#RRGGBB` / `#RRGGBBAA` into an Rgba, or return undefined if the text is not exactly that.
 */
export function parseHexColor(text: string): Rgba | undefined {
  if (!HEX_COLOR.test(text)) return undefined;
  const byte = (i: number): number => parseInt(text.slice(1 + 2 * i, 3 + 2 * i), 16);
  return { r: byte(0), g: byte(1), b: byte(2), a: text.length === 9 ? byte(3) : 255 };
}

/** Canonical text of a colour: `#RRGGBB` when opaque, else `#RRGGBBAA`, upper-case. */
export function formatHexColor(c: Rgba): string {
  const hex = (v: number): string => v.toString(16).toUpperCase().padStart(2, '0');
  return `#${hex(c.r)}${hex(c.g)}${hex(c.b)}${c.a === 255 ? '' : hex(c.a)}`;
}

const COLOR_FORMS = '#RRGGBB or #RRGGBBAA (6 or 8 hex digits; #RGB short forms and colour names are not accepted)';

/** Parse the whole `processing.palette` value. Throws `parameterError` (400/1019) on any fault. */
export function parsePalette(text: string): PaletteRule[] {
  if (text.trim() === '') return [];

  const pieces = text.split(';');
  // A trailing ';' (optionally followed by whitespace) ends the last entry; it is not an entry.
  if (pieces.length > 1 && pieces[pieces.length - 1]!.trim() === '') pieces.pop();

  if (pieces.length > MAX_PALETTE_ENTRIES) {
    throw parameterError(
      `${PALETTE_FIELD}: at most ${MAX_PALETTE_ENTRIES} entries are allowed; received ${pieces.length} entries`,
    );
  }

  return pieces.map((piece, i) => parseEntry(piece, i + 1));
}

function parseEntry(entry: string, index: number): PaletteRule {
  const fail: (what: string) => never = (what) => {
    throw parameterError(`${PALETTE_FIELD}: entry ${index} ${quoteReceived(entry.trim())}: ${what}`);
  };

  let pos = 0;
  const skipSpace = (): void => {
    while (pos < entry.length && /\s/.test(entry[pos]!)) pos++;
  };
  /** Read a token up to the next whitespace or operator character. */
  const readWord = (): string => {
    const start = pos;
    while (pos < entry.length && !/[\s~;]/.test(entry[pos]!) && !entry.startsWith('->', pos)) pos++;
    return entry.slice(start, pos);
  };
  const readColor = (role: string): Rgba => {
    skipSpace();
    const word = readWord();
    if (word === '') {
      return fail(
        pos >= entry.length
          ? `expected ${role} (${COLOR_FORMS}) but the entry ends here` +
              (entry.trim() === '' ? ' — the entry is empty (two ";" in a row?)' : '')
          : `expected ${role} (${COLOR_FORMS}) before ${quoteReceived(entry.slice(pos))}`,
      );
    }
    const color = parseHexColor(word);
    if (color === undefined) return fail(`${role} ${quoteReceived(word)} is not ${COLOR_FORMS}`);
    return color;
  };

  const color = readColor('a colour');
  let remap: Rgba | undefined;
  let tolerance = DEFAULT_PALETTE_TOLERANCE;

  skipSpace();
  if (entry.startsWith('->', pos)) {
    pos += 2;
    remap = readColor('a remap colour after "->"');
    skipSpace();
  }
  if (entry[pos] === '~') {
    pos++;
    skipSpace();
    const word = readWord();
    if (word === '') fail('expected a tolerance (a decimal in 0…2) after "~"');
    const value = DECIMAL.test(word) ? Number(word) : NaN;
    if (!Number.isFinite(value)) fail(`tolerance ${quoteReceived(word)} is not a decimal number (expected 0…2)`);
    if (value < 0 || value > MAX_PALETTE_TOLERANCE) {
      fail(`tolerance must be in 0…${MAX_PALETTE_TOLERANCE}; received ${quoteReceived(word)}`);
    }
    tolerance = value;
    skipSpace();
  }
  if (pos < entry.length) {
    fail(
      `unexpected ${quoteReceived(entry.slice(pos).trim())}; an entry is "colour [-> colour] [~ tolerance]" ` +
        'and entries are separated by ";"',
    );
  }

  return remap === undefined ? { color, tolerance } : { color, remap, tolerance };
}

/** Inverse of parsePalette (canonical spelling), for the UI and for round-trip tests. */
export function formatPalette(rules: readonly PaletteRule[]): string {
  return rules
    .map((r) => {
      let s = formatHexColor(r.color);
      if (r.remap !== undefined) s += ` -> ${formatHexColor(r.remap)}`;
      if (r.tolerance !== DEFAULT_PALETTE_TOLERANCE) s += ` ~ ${r.tolerance}`;
      return `${s};`;
    })
    .join(' ');
}
