import { encode } from 'fast-png';
import { describe, expect, it } from 'vitest';

import { parsePalette } from '../api/palette.js';
import { planVectorize, runVectorize } from '../api/pipeline.js';
import { resultPalette } from '../worker/vectorize.js';
import { addDelete, addRemap, describeRules, removeRule, ruleText, TARGET_TOLERANCE } from './palette-rules.js';

describe('palette rule text', () => {
  it('adds a targeted remap and a targeted delete to empty text', () => {
    expect(addRemap('', '#FF0000', '#00ff00')).toBe('#FF0000 -> #00FF00 ~ 0.02;');
    expect(addDelete('', '#0000FF')).toBe('#0000FF00 ~ 0.02;');
    expect(TARGET_TOLERANCE).toBe(0.02);
  });

  it('keeps the existing rules and appends the new one', () => {
    const text = addDelete(addRemap('#123456 ~ 0.1;', '#FF0000', '#00FF00'), '#0000FF');
    expect(text).toBe('#123456 ~ 0.1; #FF0000 -> #00FF00 ~ 0.02; #0000FF00 ~ 0.02;');
    expect(parsePalette(text)).toHaveLength(3);
  });

  it('edits the rule that produces a shown colour instead of adding one that would never match', () => {
    // #00FF00 is what the result shows for the detected #FF0000.
    expect(addRemap('#FF0000 -> #00FF00 ~ 0.02;', '#00FF00', '#0000FF')).toBe('#FF0000 -> #0000FF ~ 0.02;');
    expect(addDelete('#FF0000 -> #00FF00 ~ 0.02;', '#00FF00')).toBe('#FF000000 ~ 0.02;');
    // A snap entry (default tolerance 2) produces its own colour.
    expect(addRemap('#FF0000;', '#FF0000', '#00FF00')).toBe('#FF0000 -> #00FF00;');
    expect(addDelete('#FF0000; #0000FF;', '#FF0000')).toBe('#FF000000; #0000FF;');
    // Remapping back to the rule's own colour drops the remap.
    expect(addRemap('#FF0000 -> #00FF00 ~ 0.02;', '#00FF00', '#FF0000')).toBe('#FF0000 ~ 0.02;');
  });

  it('a translucent shown colour is targeted by its opaque detected colour (its alpha comes from the picture)', () => {
    // The engine matches rules against the detected colour, always opaque; a translucent area's
    // alpha is put back on its shapes afterwards, so the rule must name #FF0000, not #FF0000BF.
    expect(addRemap('', '#FF0000BF', '#00FF00')).toBe('#FF0000 -> #00FF00 ~ 0.02;');
    // The result now shows #00FF00BF: the rule that produced it is edited, not a second one added.
    expect(addRemap('#FF0000 -> #00FF00 ~ 0.02;', '#00FF00BF', '#0000FF')).toBe('#FF0000 -> #0000FF ~ 0.02;');
    expect(addDelete('#FF0000 -> #00FF00 ~ 0.02;', '#00FF00BF')).toBe('#FF000000 ~ 0.02;');
    // A remap to a translucent colour on a translucent area: its output alpha is scaled, not raised.
    expect(addRemap('#FF0000 -> #00FF0080 ~ 0.02;', '#00FF0060', '#0000FF')).toBe('#FF0000 -> #0000FF ~ 0.02;');
    // Picking the same RGB (the picker has no alpha) changes nothing.
    expect(addRemap('', '#FF0000BF', '#FF0000')).toBe('');
  });

  it('a remap to the same colour changes nothing', () => {
    expect(addRemap('', '#ABCDEF', '#abcdef')).toBe('');
  });

  it('removes the rules of one colour and leaves the rest', () => {
    const text = '#FF0000 -> #00FF00 ~ 0.02; #0000FF00 ~ 0.02; #123456;';
    expect(removeRule(text, '#0000FF')).toBe('#FF0000 -> #00FF00 ~ 0.02; #123456;');
    expect(removeRule(text, '#ff0000')).toBe('#0000FF00 ~ 0.02; #123456;');
    expect(removeRule(text, '#FFFFFF')).toBe(text);
  });

  it('describes the rules for display; unparsable text has none', () => {
    const rules = describeRules('#FF0000 -> #00FF00 ~ 0.02; #0000FF00 ~ 0.02; #123456; #111111 -> #22222200;');
    expect(rules).toEqual([
      { hex: '#FF0000', kind: 'remap', to: '#00FF00', tolerance: 0.02 },
      { hex: '#0000FF', kind: 'delete', tolerance: 0.02 },
      { hex: '#123456', kind: 'snap', tolerance: 2 },
      { hex: '#111111', kind: 'delete', tolerance: 2 },
    ]);
    expect(rules.map(ruleText)).toEqual([
      '#FF0000 → #00FF00 (~ 0.02)',
      '#0000FF deleted (~ 0.02)',
      '#123456 snaps near colours (~ 2)',
      '#111111 deleted (~ 2)',
    ]);
    expect(describeRules('not a palette')).toEqual([]);
  });

  it('rejects a colour that is not hex', () => {
    expect(() => addDelete('', 'red')).toThrow(/not a #RRGGBB/);
  });
});

// ---------------------------------------------------------------------------------------------
// Through the real engine: the rules must hit exactly the one colour.

const WHITE = [255, 255, 255] as const;
const RED = [220, 30, 40] as const;
const BLUE = [30, 60, 200] as const;

/** 48×32, hard edges: white background, a red and a blue rectangle. */
function threeColourPng(): Uint8Array {
  const width = 48;
  const height = 32;
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const c = x >= 4 && x < 20 && y >= 6 && y < 26 ? RED : x >= 26 && x < 44 && y >= 4 && y < 28 ? BLUE : WHITE;
      data.set([...c, 255], (y * width + x) * 4);
    }
  }
  return encode({ width, height, data, channels: 4, depth: 8 });
}

const hex = (c: readonly number[]): string => `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`.toUpperCase();

/** 75 % of 255, as an 8-bit alpha: the translucent disc's. */
const THREE_QUARTERS = 191;

/**
 * 96×64 on transparency: a red disc (anti-aliased) at 75 % alpha — a translucent plateau
 * (src/engine/translucency.ts), so its shape is drawn #DC1E28BF — and an opaque blue rectangle.
 */
function translucentDiscPng(): Uint8Array {
  const width = 96;
  const height = 64;
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let covered = 0;
      for (let sy = 0; sy < 4; sy++) for (let sx = 0; sx < 4; sx++) if ((x + (sx + 0.5) / 4 - 28) ** 2 + (y + (sy + 0.5) / 4 - 32) ** 2 <= 22 ** 2) covered++;
      const o = (y * width + x) * 4;
      if (x >= 60 && x < 88 && y >= 8 && y < 56) data.set([...BLUE, 255], o);
      else if (covered > 0) data.set([...RED, Math.round((covered / 16) * THREE_QUARTERS)], o);
    }
  }
  return encode({ width, height, data, channels: 4, depth: 8 });
}

async function tracePalette(palette: string, png = threeColourPng()): Promise<{ colors: number; palette: Map<string, number> }> {
  const plan = planVectorize(palette === '' ? [] : [['processing.palette', palette]]);
  const { result } = await runVectorize(plan, png);
  return { colors: result.stats.colors, palette: new Map(resultPalette(result).map((e) => [e.hex, e.areaPx])) };
}

describe('palette rules through the engine', () => {
  it('the plain trace has the three colours', async () => {
    const plain = await tracePalette('');
    expect(plain.colors).toBe(3);
    expect([...plain.palette.keys()].sort()).toEqual([hex(BLUE), hex(RED), hex(WHITE)].sort());
  });

  it('addDelete removes that colour only', async () => {
    const plain = await tracePalette('');
    const after = await tracePalette(addDelete('', hex(RED)));
    expect(after.colors).toBe(2);
    expect(after.palette.has(hex(RED))).toBe(false);
    expect(after.palette.get(hex(BLUE))).toBe(plain.palette.get(hex(BLUE)));
    expect(after.palette.has(hex(WHITE))).toBe(true);
  });

  it('addRemap replaces that colour only, and a second remap edits the first rule', async () => {
    const plain = await tracePalette('');
    const once = addRemap('', hex(BLUE), '#00AA00');
    const after = await tracePalette(once);
    expect(after.palette.has(hex(BLUE))).toBe(false);
    expect(after.palette.get('#00AA00')).toBe(plain.palette.get(hex(BLUE)));
    expect(after.palette.get(hex(RED))).toBe(plain.palette.get(hex(RED)));
    expect(after.palette.get(hex(WHITE))).toBe(plain.palette.get(hex(WHITE)));

    // The panel now shows #00AA00; remapping that colour again must still reach the blue shapes.
    const twice = await tracePalette(addRemap(once, '#00AA00', '#FFCC00'));
    expect(twice.palette.get('#FFCC00')).toBe(plain.palette.get(hex(BLUE)));
    expect(twice.palette.has('#00AA00')).toBe(false);
    // …and deleting it too.
    const gone = await tracePalette(addDelete(once, '#00AA00'));
    expect(gone.colors).toBe(2);
    expect(gone.palette.has('#00AA00')).toBe(false);
    expect(gone.palette.get(hex(RED))).toBe(plain.palette.get(hex(RED)));
  });

  it('removeRule brings a deleted colour back', async () => {
    const deleted = addDelete('', hex(RED));
    const back = await tracePalette(removeRule(deleted, hex(RED)));
    expect(back.colors).toBe(3);
    expect(back.palette.has(hex(RED))).toBe(true);
  });

  it('remaps and deletes a translucent colour as the panel lists it', async () => {
    const disc = translucentDiscPng();
    const plain = await tracePalette('', disc);
    const shown = `${hex(RED)}BF`;
    expect([...plain.palette.keys()].sort()).toEqual([hex(BLUE), shown].sort());
    const once = addRemap('', shown, '#00AA00');
    const after = await tracePalette(once, disc);
    expect(after.palette.has(shown)).toBe(false);
    // The area keeps its translucency with the new colour.
    expect(after.palette.get('#00AA00BF')).toBe(plain.palette.get(shown));
    expect(after.palette.get(hex(BLUE))).toBe(plain.palette.get(hex(BLUE)));
    // The panel now shows #00AA00BF: remapping or deleting it again still reaches the red area.
    const twice = await tracePalette(addRemap(once, '#00AA00BF', '#FFCC00'), disc);
    expect(twice.palette.get('#FFCC00BF')).toBe(plain.palette.get(shown));
    const gone = await tracePalette(addDelete(once, '#00AA00BF'), disc);
    expect([...gone.palette.keys()]).toEqual([hex(BLUE)]);
  });
});
