import { describe, expect, it } from 'vitest';
import { formatPalette, parseHexColor, parsePalette } from '../../src/api/palette.js';
import { TracelabError } from '../../src/engine/errors.js';

const RED = { r: 255, g: 0, b: 0, a: 255 };
const GREEN = { r: 0, g: 255, b: 0, a: 255 };
const BLUE = { r: 0, g: 0, b: 255, a: 255 };

/** Run `fn`, expect a 400/1019 TracelabError, return its message. */
function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(TracelabError);
    const err = e as TracelabError;
    expect(err.code).toBe(1019);
    expect(err.status).toBe(400);
    return err.message;
  }
  throw new Error('expected a parameter error');
}

describe('parsePalette: reference §3.2 examples', () => {
  it('snaps to pure RGB: "#FF0000; #00FF00; #0000FF;"', () => {
    expect(parsePalette('#FF0000; #00FF00; #0000FF;')).toEqual([
      { color: RED, tolerance: 2 },
      { color: GREEN, tolerance: 2 },
      { color: BLUE, tolerance: 2 },
    ]);
  });

  it('the spec example without spaces: "#FF0000;#00FF00;#0000FF;"', () => {
    expect(parsePalette('#FF0000;#00FF00;#0000FF;')).toHaveLength(3);
  });

  it('remap with tolerance: "#FF0000 -> #00FF00 ~ 0.02;"', () => {
    expect(parsePalette('#FF0000 -> #00FF00 ~ 0.02;')).toEqual([{ color: RED, remap: GREEN, tolerance: 0.02 }]);
  });

  it('tolerance only: "#FF0000 ~ 0.02; #00FF00 ~ 0.02; #0000FF ~ 0.02;"', () => {
    const rules = parsePalette('#FF0000 ~ 0.02; #00FF00 ~ 0.02; #0000FF ~ 0.02;');
    expect(rules.map((r) => r.tolerance)).toEqual([0.02, 0.02, 0.02]);
    expect(rules.every((r) => r.remap === undefined)).toBe(true);
  });

  it('transparent colour drops a white background: "#FFFFFF00;"', () => {
    expect(parsePalette('#FFFFFF00;')).toEqual([{ color: { r: 255, g: 255, b: 255, a: 0 }, tolerance: 2 }]);
  });
});

describe('parsePalette: syntax details', () => {
  it('empty or blank string = no rules', () => {
    expect(parsePalette('')).toEqual([]);
    expect(parsePalette('   \n')).toEqual([]);
  });

  it('trailing ";" is optional on the last entry', () => {
    expect(parsePalette('#FF0000; #00FF00')).toEqual(parsePalette('#FF0000; #00FF00;'));
  });

  it('whitespace around tokens is optional (and may be tabs/newlines)', () => {
    const tight = parsePalette('#FF0000->#00FF00~0.5;');
    const loose = parsePalette('  #FF0000\t->\n #00FF00  ~  0.5 ;  ');
    expect(tight).toEqual([{ color: RED, remap: GREEN, tolerance: 0.5 }]);
    expect(loose).toEqual(tight);
  });

  it('hex digits are case-insensitive; 8 digits carry alpha', () => {
    expect(parsePalette('#ff00ff80')).toEqual([{ color: { r: 255, g: 0, b: 255, a: 128 }, tolerance: 2 }]);
  });

  it('tolerance bounds 0 and 2 are accepted, bare fractions too', () => {
    expect(parsePalette('#000000 ~ 0; #FFFFFF ~ 2; #808080 ~ .25').map((r) => r.tolerance)).toEqual([0, 2, 0.25]);
  });

  it('accepts 1,024 entries', () => {
    expect(parsePalette('#000000;'.repeat(1024))).toHaveLength(1024);
  });

  it('formatPalette round-trips', () => {
    const text = '#FF0000 -> #00FF00 ~ 0.02; #FFFFFF00; #0000FF;';
    expect(parsePalette(formatPalette(parsePalette(text)))).toEqual(parsePalette(text));
  });

  it('parseHexColor rejects anything but 6/8 digits', () => {
    expect(parseHexColor('#F00')).toBeUndefined();
    expect(parseHexColor('FF0000')).toBeUndefined();
    expect(parseHexColor('#FF0000')).toEqual(RED);
  });
});

describe('parsePalette: errors (400 / 1019, naming processing.palette and the entry)', () => {
  it('3-digit hex is rejected with the accepted forms', () => {
    const msg = errorOf(() => parsePalette('#FF0000; #F00;'));
    expect(msg).toContain('processing.palette');
    expect(msg).toContain('entry 2');
    expect(msg).toContain("'#F00'");
    expect(msg).toContain('#RRGGBB or #RRGGBBAA');
    expect(msg).toMatch(/6 or 8 hex digits/);
  });

  it('non-hex characters and colour names are rejected', () => {
    expect(errorOf(() => parsePalette('#GG0000'))).toContain('entry 1');
    expect(errorOf(() => parsePalette('red;'))).toMatch(/entry 1.*expected a colour|entry 1.*'red'/);
  });

  it('tolerance out of range', () => {
    const msg = errorOf(() => parsePalette('#FF0000 ~ 2.5;'));
    expect(msg).toContain('entry 1');
    expect(msg).toContain('0…2');
    expect(msg).toContain("'2.5'");
    expect(errorOf(() => parsePalette('#FF0000 ~ -0.1'))).toContain('0…2');
  });

  it('tolerance not a decimal', () => {
    expect(errorOf(() => parsePalette('#FF0000 ~ abc'))).toContain("'abc'");
    expect(errorOf(() => parsePalette('#FF0000 ~ 1e-2'))).toContain('not a decimal');
    expect(errorOf(() => parsePalette('#FF0000 ~ NaN'))).toContain('not a decimal');
    expect(errorOf(() => parsePalette('#FF0000 ~'))).toContain('after "~"');
  });

  it('missing remap colour', () => {
    expect(errorOf(() => parsePalette('#FF0000 -> ~ 0.5'))).toContain('remap colour');
  });

  it('junk after an entry', () => {
    const msg = errorOf(() => parsePalette('#FF0000 #00FF00;'));
    expect(msg).toContain('entry 1');
    expect(msg).toContain("unexpected '#00FF00'");
  });

  it('empty entry between separators', () => {
    expect(errorOf(() => parsePalette('#FF0000;;#00FF00'))).toMatch(/entry 2.*empty/);
  });

  it('more than 1,024 entries', () => {
    const msg = errorOf(() => parsePalette('#000000;'.repeat(1025)));
    expect(msg).toContain('1024');
    expect(msg).toContain('1025');
  });

  it('long entries are truncated in the message', () => {
    const msg = errorOf(() => parsePalette(`#FF0000 ~ ${'9'.repeat(500)}`));
    expect(msg.length).toBeLessThan(400);
    expect(msg).toContain('…');
  });
});
