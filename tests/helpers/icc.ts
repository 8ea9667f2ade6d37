/**
 * Test-only ICC profile builder: a v4 RGB display profile with matrix/TRC tags (desc, cprt, wtpt, chad, r/g/bXYZ,
 * one shared `para` curve for r/g/bTRC), byte by byte after ICC.1:2010. Its Display P3 variant uses the colorants,
 * curve and adaptation of Apple's Display P3 profile (published values), so colour-managed readers (lcms2 in
 * ImageMagick and Ghostscript) treat it as that space.
 */

/** Display P3's colorants adapted to D50 (Apple's "Display P3" profile: rXYZ, gXYZ, bXYZ). */
export const DISPLAY_P3_COLORANTS: ReadonlyArray<readonly [number, number, number]> = [
  [0.515121, 0.241196, -0.001053],
  [0.291977, 0.692245, 0.041885],
  [0.157104, 0.066574, 0.784073],
];
/** The sRGB transfer as a `para` function type 3: g, a, b, c, d. */
const SRGB_PARA = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045];
/** Bradford D65 → D50 (the `chad` of D65 display profiles). */
const CHAD_D65_TO_D50 = [1.047882, 0.022919, -0.050201, 0.029587, 0.990479, -0.017059, -0.009232, 0.015076, 0.751678];
const D50 = [0.9642, 1, 0.8249];

const be32 = (v: number) => [(v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255];
const be16 = (v: number) => [(v >>> 8) & 255, v & 255];
const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));
const s15f16 = (v: number) => be32(Math.round(v * 65536) >>> 0);

function mluc(text: string): number[] {
  const utf16 = Array.from(text).flatMap((c) => be16(c.charCodeAt(0)));
  return [...ascii('mluc'), 0, 0, 0, 0, ...be32(1), ...be32(12), ...ascii('enUS'), ...be32(utf16.length), ...be32(28), ...utf16];
}

const xyz = (v: readonly number[]) => [...ascii('XYZ '), 0, 0, 0, 0, ...v.flatMap(s15f16)];

export function buildRgbProfile(description: string, colorants: ReadonlyArray<readonly [number, number, number]>): Uint8Array {
  const para = [...ascii('para'), 0, 0, 0, 0, ...be16(3), 0, 0, ...SRGB_PARA.flatMap(s15f16)];
  const tags: Array<[string, number[]]> = [
    ['desc', mluc(description)],
    ['cprt', mluc('No copyright, use freely')],
    ['wtpt', xyz(D50)],
    ['chad', [...ascii('sf32'), 0, 0, 0, 0, ...CHAD_D65_TO_D50.flatMap(s15f16)]],
    ['rXYZ', xyz(colorants[0]!)],
    ['gXYZ', xyz(colorants[1]!)],
    ['bXYZ', xyz(colorants[2]!)],
    ['rTRC', para],
  ];
  const shared = ['gTRC', 'bTRC'];
  const tableBytes = 4 + (tags.length + shared.length) * 12;
  let at = 128 + tableBytes;
  const table: number[] = [...be32(tags.length + shared.length)];
  const data: number[] = [];
  let paraAt = 0;
  for (const [name, body] of tags) {
    table.push(...ascii(name), ...be32(at), ...be32(body.length));
    if (name === 'rTRC') paraAt = at;
    const padded = [...body, ...new Array((4 - (body.length % 4)) % 4).fill(0)];
    data.push(...padded);
    at += padded.length;
  }
  for (const name of shared) table.push(...ascii(name), ...be32(paraAt), ...be32(para.length));
  const size = 128 + tableBytes + data.length;
  const header = [
    ...be32(size), ...ascii('lcms'), ...be32(0x04300000), ...ascii('mntr'), ...ascii('RGB '), ...ascii('XYZ '),
    ...new Array(12).fill(0), ...ascii('acsp'), ...ascii('APPL'), ...be32(0), ...be32(0), ...be32(0), 0, 0, 0, 0, 0, 0, 0, 0,
    ...be32(0), ...D50.flatMap(s15f16), ...ascii('lcms'), ...new Array(16).fill(0), ...new Array(28).fill(0),
  ];
  return new Uint8Array([...header, ...table, ...data]);
}

export const displayP3Profile = (): Uint8Array => buildRgbProfile('Display P3 (test)', DISPLAY_P3_COLORANTS);
