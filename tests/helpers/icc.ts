/**
 * Test-only ICC profile builders, byte by byte after ICC.1:2010: a v4 RGB display profile with matrix/TRC tags
 * (desc, cprt, wtpt, chad, r/g/bXYZ, one shared `para` curve for r/g/bTRC), and one described by an A2B0 `mft2`
 * lookup table only (into PCS XYZ or Lab). Its Display P3 variant uses the colorants,
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
  return assemble('mntr', tags, { rTRC: ['gTRC', 'bTRC'] });
}

/** Header, tag table and tag data; `aliases` name further tags that share an earlier tag's data. */
function assemble(profileClass: string, tags: Array<[string, number[]]>, aliases: Record<string, string[]> = {}, pcs: 'XYZ' | 'Lab' = 'XYZ'): Uint8Array {
  const aliasCount = Object.values(aliases).reduce((n, list) => n + list.length, 0);
  const tableBytes = 4 + (tags.length + aliasCount) * 12;
  let at = 128 + tableBytes;
  const table: number[] = [...be32(tags.length + aliasCount)];
  const data: number[] = [];
  for (const [name, body] of tags) {
    table.push(...ascii(name), ...be32(at), ...be32(body.length));
    for (const alias of aliases[name] ?? []) table.push(...ascii(alias), ...be32(at), ...be32(body.length));
    const padded = [...body, ...new Array((4 - (body.length % 4)) % 4).fill(0)];
    data.push(...padded);
    at += padded.length;
  }
  const size = 128 + tableBytes + data.length;
  const header = [
    ...be32(size), ...ascii('lcms'), ...be32(0x04300000), ...ascii(profileClass), ...ascii('RGB '), ...ascii(`${pcs} `),
    ...new Array(12).fill(0), ...ascii('acsp'), ...ascii('APPL'), ...be32(0), ...be32(0), ...be32(0), 0, 0, 0, 0, 0, 0, 0, 0,
    ...be32(0), ...D50.flatMap(s15f16), ...ascii('lcms'), ...new Array(16).fill(0), ...new Array(28).fill(0),
  ];
  return new Uint8Array([...header, ...table, ...data]);
}

export const displayP3Profile = (): Uint8Array => buildRgbProfile('Display P3 (test)', DISPLAY_P3_COLORANTS);

/**
 * Display P3 described by an A2B0 lookup table only (lut16Type `mft2`, 3 in, 3 out, `grid` points per input, no
 * colorant or curve tags), with PCS XYZ: each grid point is the P3 colour through the sRGB curve and the P3
 * colorants, encoded u1Fixed15 — what a profiling tool writes for a display it measured as P3.
 */
export function displayP3LutProfile(pcs: 'XYZ' | 'Lab' = 'XYZ', grid = 17): Uint8Array {
  const decode = (v: number) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
  const clut: number[] = [];
  for (let r = 0; r < grid; r++) for (let g = 0; g < grid; g++) for (let b = 0; b < grid; b++) {
    const lin = [r, g, b].map((v) => decode(v / (grid - 1)));
    const point = [0, 1, 2].map((k) => DISPLAY_P3_COLORANTS.reduce((sum, column, c) => sum + column[k]! * lin[c]!, 0));
    // XYZ as u1Fixed15; Lab (D50) in the legacy 16-bit encoding: L 0–100 and a, b −128…127 over 0–65280.
    const encoded = pcs === 'XYZ' ? point.map((v) => v * 32768) : labOf(point).map((v, k) => (k === 0 ? v / 100 : (v + 128) / 255) * 65280);
    for (const v of encoded) clut.push(...be16(Math.min(65535, Math.max(0, Math.round(v)))));
  }
  const identity = [0, 1, 2].flatMap(() => [...be16(0), ...be16(65535)]);
  const mft2 = [
    ...ascii('mft2'), 0, 0, 0, 0, 3, 3, grid, 0,
    ...[1, 0, 0, 0, 1, 0, 0, 0, 1].flatMap(s15f16),
    ...be16(2), ...be16(2), ...identity, ...clut, ...identity,
  ];
  const tags: Array<[string, number[]]> = [
    ['desc', mluc('Display P3 LUT (test)')],
    ['cprt', mluc('No copyright, use freely')],
    ['wtpt', xyz(D50)],
    ['A2B0', mft2],
  ];
  return assemble('scnr', tags, {}, pcs);
}

/** XYZ (D50) → CIELAB. */
function labOf([x, y, z]: number[]): number[] {
  const f = (t: number) => (t > (6 / 29) ** 3 ? Math.cbrt(t) : t / (3 * (6 / 29) ** 2) + 4 / 29);
  const [fx, fy, fz] = [f(x! / D50[0]!), f(y! / D50[1]!), f(z! / D50[2]!)];
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

/**
 * Display P3 as a v4 A2B0 `mAB` table only. `clut`: identity A curves, a 17-point colour table (16-bit) of the P3
 * colour in PCS XYZ or Lab (v4 encoding), identity B curves. `matrix`: M curves (the sRGB curve as `para` type 3),
 * the P3 colorants as the matrix (scaled to the u1Fixed15 PCS encoding), identity B curves; PCS XYZ.
 */
export function displayP3MabProfile(form: 'clut' | 'matrix', pcs: 'XYZ' | 'Lab' = 'XYZ', grid = 17): Uint8Array {
  const identity = [0, 1, 2].flatMap(() => [...ascii('curv'), 0, 0, 0, 0, ...be32(0)]);
  const paraCurve = [...ascii('para'), 0, 0, 0, 0, ...be16(3), 0, 0, ...SRGB_PARA.flatMap(s15f16)];
  const paraPadded = [...paraCurve, ...new Array((4 - (paraCurve.length % 4)) % 4).fill(0)];
  const elements: number[] = [];
  const offsets = { b: 0, matrix: 0, m: 0, clut: 0, a: 0 };
  const place = (name: keyof typeof offsets, bytes: number[]) => {
    offsets[name] = 32 + elements.length;
    elements.push(...bytes, ...new Array((4 - (bytes.length % 4)) % 4).fill(0));
  };
  place('b', identity);
  if (form === 'matrix') {
    const scale = 32768 / 65535;
    const m = [0, 1, 2].flatMap((row) => [0, 1, 2].map((col) => DISPLAY_P3_COLORANTS[col]![row]! * scale));
    place('matrix', [...m, 0, 0, 0].flatMap(s15f16));
    place('m', [...paraPadded, ...paraPadded, ...paraPadded]);
  } else {
    const decode = (v: number) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    const values: number[] = [];
    for (let r = 0; r < grid; r++) for (let g = 0; g < grid; g++) for (let b = 0; b < grid; b++) {
      const lin = [r, g, b].map((v) => decode(v / (grid - 1)));
      const point = [0, 1, 2].map((k) => DISPLAY_P3_COLORANTS.reduce((sum, column, c) => sum + column[k]! * lin[c]!, 0));
      const encoded = pcs === 'XYZ' ? point.map((v) => v * 32768) : labOf(point).map((v, k) => (k === 0 ? v / 100 : (v + 128) / 255) * 65535);
      for (const v of encoded) values.push(...be16(Math.min(65535, Math.max(0, Math.round(v)))));
    }
    place('clut', [grid, grid, grid, ...new Array(13).fill(0), 2, 0, 0, 0, ...values]);
    place('a', identity);
  }
  const mab = [
    ...ascii('mAB '), 0, 0, 0, 0, 3, 3, 0, 0,
    ...be32(offsets.b), ...be32(offsets.matrix), ...be32(offsets.m), ...be32(offsets.clut), ...be32(offsets.a),
    ...elements,
  ];
  const tags: Array<[string, number[]]> = [
    ['desc', mluc(`Display P3 mAB ${form} (test)`)],
    ['cprt', mluc('No copyright, use freely')],
    ['wtpt', xyz(D50)],
    ['A2B0', mab],
  ];
  return assemble('scnr', tags, {}, pcs);
}
