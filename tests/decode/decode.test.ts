import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import { encode as encodePngFast } from 'fast-png';
import jpegJs from 'jpeg-js';
import { GifWriter } from 'omggif';
import UTIF from 'utif2';
import { beforeAll, describe, expect, it } from 'vitest';

import { decodeImage, setWebpWasm, sniffFormat, type DecodedImage } from '../../src/decode/index.js';
import { TracelabError } from '../../src/engine/errors.js';
import {
  PNG_SIGNATURE,
  bmpRows,
  buildBmp,
  buildPng,
  concat,
  exifSegment,
  ihdr,
  insertAfterSoi,
  pngChunk,
  type PngSpec,
} from './build.js';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../fixtures/decode/${name}`, import.meta.url)));

beforeAll(() => {
  // Node can't fetch the wasm by URL; the CLI does the same in src/cli/node-codecs.ts.
  const require = createRequire(import.meta.url);
  setWebpWasm(readFileSync(require.resolve('@jsquash/webp/codec/dec/webp_dec.wasm')));
});

function px(img: DecodedImage, x: number, y: number): number[] {
  const o = (y * img.width + x) * 4;
  return Array.from(img.data.subarray(o, o + 4));
}

function expectClose(actual: number[], expected: number[], tolerance: number): void {
  expect(actual.length).toBe(expected.length);
  actual.forEach((v, i) => {
    if (Math.abs(v - expected[i]) > tolerance) {
      throw new Error(`expected ${JSON.stringify(actual)} to be within ${tolerance} of ${JSON.stringify(expected)}`);
    }
  });
}

async function decodeError(bytes: Uint8Array, limits?: { maxPixels?: number }): Promise<TracelabError> {
  try {
    await decodeImage(bytes, limits);
  } catch (err) {
    expect(err).toBeInstanceOf(TracelabError);
    return err as TracelabError;
  }
  throw new Error('decodeImage resolved; expected a TracelabError');
}

/** The 16×16 fixture picture: red | lime / blue | white quadrants. */
const QUAD = { tl: [255, 0, 0], tr: [0, 255, 0], bl: [0, 0, 255], br: [255, 255, 255] };
function expectQuadrants(img: DecodedImage, tolerance: number, alpha: number[] = [255, 255, 255, 255]): void {
  expect([img.width, img.height]).toEqual([16, 16]);
  expectClose(px(img, 3, 3), [...QUAD.tl, alpha[0]], tolerance);
  expectClose(px(img, 12, 3), [...QUAD.tr, alpha[1]], tolerance);
  if (alpha[2] > 0) expectClose(px(img, 3, 12), [...QUAD.bl, alpha[2]], tolerance);
  else expect(px(img, 3, 12)[3]).toBe(0);
  expectClose(px(img, 12, 12), [...QUAD.br, alpha[3]], tolerance);
}

const GREY = (v: number) => [v, v, v];

describe('sniffFormat', () => {
  it('recognises each format from magic bytes', () => {
    expect(sniffFormat(new Uint8Array(PNG_SIGNATURE))).toBe('png');
    expect(sniffFormat(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(sniffFormat(new TextEncoder().encode('GIF89a......'))).toBe('gif');
    expect(sniffFormat(fixture('webp-lossy.webp'))).toBe('webp');
    expect(sniffFormat(fixture('tiff-rgb-lzw.tif'))).toBe('tiff');
    expect(sniffFormat(buildBmp({ width: 1, height: 1, bpp: 24, pixels: [0, 0, 0, 0] }))).toBe('bmp');
  });

  it('does not take text that starts with "BM" for a bitmap', () => {
    expect(sniffFormat(new TextEncoder().encode('BMW owners club newsletter'))).toBeUndefined();
    expect(sniffFormat(new Uint8Array([0, 1, 2, 3]))).toBeUndefined();
    expect(sniffFormat(new Uint8Array(0))).toBeUndefined();
  });
});

describe('PNG', () => {
  const rgbSamples = [255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30, 200, 100, 50, 7, 8, 9];

  it('RGB 8-bit', async () => {
    const img = await decodeImage(buildPng({ width: 3, height: 2, colorType: 2, depth: 8, samples: rgbSamples }));
    expect(img).toMatchObject({ width: 3, height: 2, format: 'png' });
    expect(img.data).toBeInstanceOf(Uint8Array);
    expect(px(img, 0, 0)).toEqual([255, 0, 0, 255]);
    expect(px(img, 2, 0)).toEqual([0, 0, 255, 255]);
    expect(px(img, 1, 1)).toEqual([200, 100, 50, 255]);
    expect(img.dpi).toBeUndefined();
  });

  it('RGBA 8-bit keeps straight (non-premultiplied) alpha', async () => {
    const samples = [255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 0, 40, 50, 60, 1];
    const img = await decodeImage(buildPng({ width: 2, height: 2, colorType: 6, depth: 8, samples }));
    expect(Array.from(img.data)).toEqual(samples);
  });

  it('RGBA from a real encoder (fast-png)', async () => {
    const data = new Uint8Array([1, 2, 3, 4, 250, 251, 252, 253, 9, 8, 7, 6, 0, 0, 0, 0]);
    const img = await decodeImage(encodePngFast({ width: 2, height: 2, data, channels: 4, depth: 8 }));
    expect(Array.from(img.data)).toEqual(Array.from(data));
  });

  it('greyscale 1-bit', async () => {
    const bits = [1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 1, 1, 1, 0, 0];
    const img = await decodeImage(buildPng({ width: 10, height: 2, colorType: 0, depth: 1, samples: bits }));
    expect([img.width, img.height]).toEqual([10, 2]);
    bits.forEach((b, i) => expect(px(img, i % 10, Math.floor(i / 10))).toEqual([...GREY(b ? 255 : 0), 255]));
  });

  it('greyscale 2- and 4-bit scale to 0..255', async () => {
    const two = await decodeImage(buildPng({ width: 4, height: 1, colorType: 0, depth: 2, samples: [0, 1, 2, 3] }));
    expect([0, 1, 2, 3].map((x) => px(two, x, 0)[0])).toEqual([0, 85, 170, 255]);
    const four = await decodeImage(buildPng({ width: 3, height: 1, colorType: 0, depth: 4, samples: [0, 7, 15] }));
    expect([0, 1, 2].map((x) => px(four, x, 0)[0])).toEqual([0, 119, 255]);
  });

  it('greyscale + alpha, and a grey tRNS colour key', async () => {
    const ga = await decodeImage(buildPng({ width: 2, height: 1, colorType: 4, depth: 8, samples: [10, 255, 200, 0] }));
    expect(Array.from(ga.data)).toEqual([10, 10, 10, 255, 200, 200, 200, 0]);
    const key = await decodeImage(
      buildPng({ width: 3, height: 1, colorType: 0, depth: 8, samples: [5, 77, 200], trns: [0, 77] }),
    );
    expect([0, 1, 2].map((x) => px(key, x, 0)[3])).toEqual([255, 0, 255]);
  });

  it('palette with tRNS (4-bit indexes)', async () => {
    const palette = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [9, 9, 9]];
    const img = await decodeImage(
      buildPng({ width: 5, height: 1, colorType: 3, depth: 4, samples: [0, 1, 2, 3, 1], palette, trns: [255, 128, 0] }),
    );
    expect(px(img, 0, 0)).toEqual([255, 0, 0, 255]);
    expect(px(img, 1, 0)).toEqual([0, 255, 0, 128]);
    expect(px(img, 2, 0)).toEqual([0, 0, 255, 0]);
    expect(px(img, 3, 0)).toEqual([9, 9, 9, 255]); // beyond tRNS: opaque
  });

  it('RGB colour key from tRNS becomes alpha 0', async () => {
    const img = await decodeImage(
      buildPng({ width: 2, height: 1, colorType: 2, depth: 8, samples: [1, 2, 3, 4, 5, 6], trns: [0, 4, 0, 5, 0, 6] }),
    );
    expect([px(img, 0, 0)[3], px(img, 1, 0)[3]]).toEqual([255, 0]);
  });

  it('16-bit RGB and 16-bit grey+alpha scale to 8 bits', async () => {
    const rgb = await decodeImage(
      buildPng({ width: 2, height: 1, colorType: 2, depth: 16, samples: [0xffff, 0x8080, 0x0000, 0x1234, 0x00ff, 0xfeff] }),
    );
    expect(Array.from(rgb.data)).toEqual([255, 128, 0, 255, 18, 1, 254, 255]);
    const ga = await decodeImage(buildPng({ width: 1, height: 1, colorType: 4, depth: 16, samples: [0x4000, 0x8000] }));
    expect(Array.from(ga.data)).toEqual([64, 64, 64, 128]);
  });

  describe('Adam7 interlace gives the same pixels as the plain file', () => {
    const w = 13;
    const h = 11;
    const cases: Array<[string, Omit<PngSpec, 'interlace' | 'width' | 'height'>]> = [
      ['RGB 8-bit', { colorType: 2, depth: 8, samples: Array.from({ length: w * h * 3 }, (_, i) => (i * 37) % 256) }],
      ['RGBA 16-bit', { colorType: 6, depth: 16, samples: Array.from({ length: w * h * 4 }, (_, i) => (i * 4099) % 65536) }],
      ['grey 1-bit', { colorType: 0, depth: 1, samples: Array.from({ length: w * h }, (_, i) => (i * 7) % 3 === 0 ? 1 : 0) }],
      [
        'palette 2-bit + tRNS',
        {
          colorType: 3,
          depth: 2,
          samples: Array.from({ length: w * h }, (_, i) => (i * 5) % 4),
          palette: [[0, 0, 0], [255, 0, 0], [0, 255, 0], [0, 0, 255]],
          trns: [255, 0],
        },
      ],
      ['grey 4-bit', { colorType: 0, depth: 4, samples: Array.from({ length: w * h }, (_, i) => (i * 3) % 16) }],
    ];
    it.each(cases)('%s', async (_name, spec) => {
      const plain = await decodeImage(buildPng({ ...spec, width: w, height: h }));
      const interlaced = await decodeImage(buildPng({ ...spec, width: w, height: h, interlace: true }));
      expect(interlaced.width).toBe(w);
      expect(Array.from(interlaced.data)).toEqual(Array.from(plain.data));
    });
  });

  it('pHYs in pixels per metre → dpi; unit "unknown" gives none', async () => {
    const base: PngSpec = { width: 1, height: 1, colorType: 0, depth: 8, samples: [0] };
    const img = await decodeImage(buildPng({ ...base, phys: [11811, 2835, 1] }));
    expect(img.dpi).toEqual({ x: 300, y: 72 });
    const aspectOnly = await decodeImage(buildPng({ ...base, phys: [1, 2, 0] }));
    expect(aspectOnly.dpi).toBeUndefined();
  });

  it('accepts a file whose IEND chunk is missing', async () => {
    const img = await decodeImage(buildPng({ width: 1, height: 1, colorType: 2, depth: 8, samples: [1, 2, 3], omitIend: true }));
    expect(px(img, 0, 0)).toEqual([1, 2, 3, 255]);
  });
});

describe('JPEG', () => {
  /** 16×8: left half red, right half blue. */
  function twoColourJpeg(): Uint8Array {
    const data = new Uint8Array(16 * 8 * 4);
    for (let y = 0; y < 8; y++) {
      for (let x = 0; x < 16; x++) data.set(x < 8 ? [255, 0, 0, 255] : [0, 0, 255, 255], (y * 16 + x) * 4);
    }
    return new Uint8Array(jpegJs.encode({ data, width: 16, height: 8 }, 95).data);
  }

  it('baseline colours within tolerance', async () => {
    const img = await decodeImage(twoColourJpeg());
    expect(img).toMatchObject({ width: 16, height: 8, format: 'jpeg' });
    expectClose(px(img, 2, 4), [255, 0, 0, 255], 12);
    expectClose(px(img, 13, 4), [0, 0, 255, 255], 12);
  });

  it('EXIF orientation 6 turns the image upright (90° clockwise, sizes swapped)', async () => {
    const img = await decodeImage(insertAfterSoi(twoColourJpeg(), exifSegment(6)));
    expect([img.width, img.height]).toEqual([8, 16]);
    expectClose(px(img, 4, 2), [255, 0, 0, 255], 12); // the left (red) half is now on top
    expectClose(px(img, 4, 13), [0, 0, 255, 255], 12);
  });

  it.each([
    [3, [16, 8], 'blue', 'red'], // 180°: red moves right
    [8, [8, 16], 'blue', 'red'], // 90° counter-clockwise: red moves to the bottom
    [2, [16, 8], 'blue', 'red'], // mirrored: red moves right
    [5, [8, 16], 'red', 'blue'], // transposed: red stays first (top)
  ])('EXIF orientation %i', async (orientation, size, first, second) => {
    const img = await decodeImage(insertAfterSoi(twoColourJpeg(), exifSegment(orientation)));
    expect([img.width, img.height]).toEqual(size);
    const colour = { red: [255, 0, 0, 255], blue: [0, 0, 255, 255] } as const;
    const [a, b] = img.width === 16 ? [px(img, 2, 4), px(img, 13, 4)] : [px(img, 4, 2), px(img, 4, 13)];
    expectClose(a, [...colour[first as 'red']], 12);
    expectClose(b, [...colour[second as 'red']], 12);
  });

  it('dpi from EXIF, or from JFIF when it has real units', async () => {
    const exifDpi = await decodeImage(insertAfterSoi(twoColourJpeg(), exifSegment(1, 200)));
    expect(exifDpi.dpi).toEqual({ x: 200, y: 200 });
    const jfif = twoColourJpeg();
    const app0 = 2; // jpeg-js writes APP0 JFIF first: units at +11, X density +12, Y density +14
    expect(String.fromCharCode(...jfif.subarray(app0 + 4, app0 + 8))).toBe('JFIF');
    jfif.set([1, 0x01, 0x2c, 0x00, 0x96], app0 + 11); // dots per inch, 300 × 150
    expect((await decodeImage(jfif)).dpi).toEqual({ x: 300, y: 150 });
  });

  it('greyscale', async () => {
    const img = await decodeImage(fixture('jpeg-grey.jpg'));
    expect([img.width, img.height]).toEqual([16, 16]);
    const [r, g, b, a] = px(img, 3, 3);
    expect(r).toBe(g);
    expect(g).toBe(b);
    expect(a).toBe(255);
    expectClose(px(img, 3, 3), [...GREY(54), 255], 6); // red → Rec.709 luma 54 (ImageMagick's grey)
    expectClose(px(img, 12, 12), [...GREY(255), 255], 6);
  });

  it('progressive', async () => {
    expectQuadrants(await decodeImage(fixture('jpeg-progressive.jpg')), 12);
  });

  it('Adobe (inverted) CMYK', async () => {
    expectQuadrants(await decodeImage(fixture('jpeg-cmyk-adobe.jpg')), 16);
  });

  it('truncated JPEG is 1006', async () => {
    const jpeg = twoColourJpeg();
    const err = await decodeError(jpeg.subarray(0, jpeg.length - 40));
    expect(err.code).toBe(1006);
    expect(err.message).toMatch(/truncated JPEG/);
  });
});

describe('GIF', () => {
  const palette = [0xff0000, 0x00ff00, 0x0000ff, 0xffffff];

  it('returns the first frame of an animation, transparency as alpha 0', async () => {
    const buf = new Uint8Array(1024);
    const gif = new GifWriter(buf, 4, 2, { palette, loop: 0 });
    gif.addFrame(0, 0, 4, 2, [0, 1, 2, 3, 3, 2, 1, 0], { transparent: 3, delay: 10 });
    gif.addFrame(0, 0, 4, 2, [1, 1, 1, 1, 1, 1, 1, 1], { delay: 10 });
    const img = await decodeImage(buf.slice(0, gif.end()));
    expect(img).toMatchObject({ width: 4, height: 2, format: 'gif' });
    expect(px(img, 0, 0)).toEqual([255, 0, 0, 255]);
    expect(px(img, 1, 0)).toEqual([0, 255, 0, 255]);
    expect(px(img, 2, 0)).toEqual([0, 0, 255, 255]);
    expect(px(img, 3, 0)[3]).toBe(0);
    expect(px(img, 0, 1)[3]).toBe(0);
    expect(px(img, 3, 1)).toEqual([255, 0, 0, 255]);
  });

  it('places a smaller first frame on a transparent canvas', async () => {
    const buf = new Uint8Array(1024);
    const gif = new GifWriter(buf, 4, 3, { palette });
    gif.addFrame(1, 1, 2, 1, [2, 2]);
    const img = await decodeImage(buf.slice(0, gif.end()));
    expect([img.width, img.height]).toEqual([4, 3]);
    expect(px(img, 0, 0)[3]).toBe(0);
    expect(px(img, 1, 1)).toEqual([0, 0, 255, 255]);
    expect(px(img, 2, 1)).toEqual([0, 0, 255, 255]);
    expect(px(img, 3, 1)[3]).toBe(0);
  });

  it('interlaced GIF', async () => {
    expectQuadrants(await decodeImage(fixture('gif-interlaced.gif')), 0, [255, 255, 0, 255]);
  });
});

describe('BMP', () => {
  // 3×2, top row red green blue, bottom row white black grey(128).
  const rows24 = [
    [0, 0, 255, 0, 255, 0, 255, 0, 0],
    [255, 255, 255, 0, 0, 0, 128, 128, 128],
  ];
  function expect3x2(img: DecodedImage): void {
    expect([img.width, img.height]).toEqual([3, 2]);
    expect([px(img, 0, 0), px(img, 1, 0), px(img, 2, 0)]).toEqual([[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255]]);
    expect([px(img, 0, 1), px(img, 1, 1), px(img, 2, 1)]).toEqual([[255, 255, 255, 255], [0, 0, 0, 255], [128, 128, 128, 255]]);
  }

  it('24-bit bottom-up, with dpi from the header', async () => {
    const img = await decodeImage(buildBmp({ width: 3, height: 2, bpp: 24, pixels: bmpRows(rows24), pixelsPerMetre: 3780 }));
    expect(img.format).toBe('bmp');
    expect3x2(img);
    expect(img.dpi).toEqual({ x: 96, y: 96 });
  });

  it('24-bit top-down (negative height)', async () => {
    expect3x2(await decodeImage(buildBmp({ width: 3, height: -2, bpp: 24, pixels: bmpRows(rows24, true) })));
  });

  const palette = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255], [0, 0, 0], [128, 128, 128]];

  it('8-bit palette', async () => {
    expect3x2(await decodeImage(buildBmp({ width: 3, height: 2, bpp: 8, palette, pixels: bmpRows([[0, 1, 2], [3, 4, 5]]) })));
  });

  it('4-bit palette', async () => {
    expect3x2(await decodeImage(buildBmp({ width: 3, height: 2, bpp: 4, palette, pixels: bmpRows([[0x01, 0x20], [0x34, 0x50]]) })));
  });

  it('1-bit', async () => {
    // 10 px wide: 1011001101 / 0100110010
    const img = await decodeImage(
      buildBmp({ width: 10, height: 2, bpp: 1, palette: [[0, 0, 0], [255, 255, 255]], pixels: bmpRows([[0b10110011, 0b01000000], [0b01001100, 0b10000000]]) }),
    );
    const row = (y: number) => Array.from({ length: 10 }, (_, x) => (px(img, x, y)[0] === 255 ? 1 : 0)).join('');
    expect([row(0), row(1)]).toEqual(['1011001101', '0100110010']);
  });

  it('RLE8 (with end-of-line after the last row) and RLE4', async () => {
    // Bottom row first: run of 3 × index 4, EOL; top row: absolute run 0,1,2 (+ pad byte), EOL; end of bitmap.
    const rle8 = [3, 4, 0, 0, 0, 3, 0, 1, 2, 0, 0, 0, 0, 1];
    const a = await decodeImage(buildBmp({ width: 3, height: 2, bpp: 8, compression: 1, palette, pixels: rle8 }));
    expect([px(a, 0, 0), px(a, 1, 0), px(a, 2, 0)]).toEqual([[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255]]);
    expect([px(a, 0, 1), px(a, 1, 1), px(a, 2, 1)]).toEqual([[0, 0, 0, 255], [0, 0, 0, 255], [0, 0, 0, 255]]);
    // RLE4: bottom row 3 px alternating 5,3; top row 3 px of 2.
    const rle4 = [3, 0x53, 0, 0, 3, 0x22, 0, 0, 0, 1];
    const b = await decodeImage(buildBmp({ width: 3, height: 2, bpp: 4, compression: 2, palette, pixels: rle4 }));
    expect([px(b, 0, 1), px(b, 1, 1), px(b, 2, 1)]).toEqual([[128, 128, 128, 255], [255, 255, 255, 255], [128, 128, 128, 255]]);
    expect(px(b, 1, 0)).toEqual([0, 0, 255, 255]);
  });

  it('32-bit BITFIELDS with alpha (V4 header), trailing bytes after the pixels', async () => {
    const masks = [0x00ff0000, 0x0000ff00, 0x000000ff, 0xff000000];
    const pixels = [0x10, 0x20, 0x30, 0x80, 0x01, 0x02, 0x03, 0xff]; // BGRA little-endian words, one row
    const img = await decodeImage(buildBmp({ width: 2, height: 1, bpp: 32, compression: 3, headerSize: 108, masks, pixels, trailing: 2 }));
    expect(Array.from(img.data)).toEqual([0x30, 0x20, 0x10, 0x80, 0x03, 0x02, 0x01, 0xff]);
  });

  it('16-bit 5-6-5 BITFIELDS', async () => {
    const word = (r: number, g: number, b: number) => (r << 11) | (g << 5) | b;
    const w1 = word(31, 0, 0);
    const w2 = word(0, 63, 31);
    const img = await decodeImage(
      buildBmp({ width: 2, height: 1, bpp: 16, compression: 3, masks: [0xf800, 0x07e0, 0x001f], pixels: [w1 & 255, w1 >> 8, w2 & 255, w2 >> 8] }),
    );
    expectClose(px(img, 0, 0), [255, 0, 0, 255], 8);
    expectClose(px(img, 1, 0), [0, 255, 255, 255], 8);
  });
});

describe('WebP', () => {
  it('lossless with alpha is exact', async () => {
    const img = await decodeImage(fixture('webp-lossless-alpha.webp'));
    expect(img.format).toBe('webp');
    expectQuadrants(img, 0, [255, 255, 0, 128]);
  });

  it('lossy, and lossy with an alpha plane', async () => {
    expectQuadrants(await decodeImage(fixture('webp-lossy.webp')), 24);
    expectQuadrants(await decodeImage(fixture('webp-lossy-alpha.webp')), 24, [255, 255, 0, 128]);
  });

  it('animated WebP is refused with a clear message', async () => {
    const vp8x = concat(
      new TextEncoder().encode('RIFF'), [22, 0, 0, 0], new TextEncoder().encode('WEBPVP8X'),
      [10, 0, 0, 0, 0x02, 0, 0, 0, 3, 0, 0, 3, 0, 0],
    );
    const err = await decodeError(vp8x);
    expect(err.code).toBe(1006);
    expect(err.message).toMatch(/animated/);
  });
});

describe('TIFF', () => {
  it('8-bit RGBA from the utif2 encoder (tagged associated alpha → straight alpha)', async () => {
    const premultiplied = new Uint8Array([255, 0, 0, 255, 0, 64, 0, 128, 0, 0, 0, 0, 10, 20, 30, 255]);
    const img = await decodeImage(new Uint8Array(UTIF.encodeImage(premultiplied, 2, 2)));
    expect(img).toMatchObject({ width: 2, height: 2, format: 'tiff' });
    expect(Array.from(img.data)).toEqual([255, 0, 0, 255, 0, 128, 0, 128, 0, 0, 0, 0, 10, 20, 30, 255]);
  });

  it.each([
    ['tiff-rgb-lzw.tif', [255, 255, 255, 255]],
    ['tiff-rgba-deflate.tif', [255, 255, 0, 128]],
    ['tiff-palette.tif', [255, 255, 255, 255]],
    ['tiff-cmyk.tif', [255, 255, 255, 255]],
  ])('%s', async (name, alpha) => {
    expectQuadrants(await decodeImage(fixture(name)), 2, alpha);
  });

  it('8-bit grey (PackBits)', async () => {
    const img = await decodeImage(fixture('tiff-grey-packbits.tif'));
    expectClose(px(img, 3, 3), [...GREY(54), 255], 2); // red → Rec.709 luma 54
    expectClose(px(img, 12, 12), [...GREY(255), 255], 2);
  });

  it('resolution → dpi', async () => {
    expect((await decodeImage(fixture('tiff-rgb-300dpi.tif'))).dpi).toEqual({ x: 300, y: 300 });
  });

  it('a truncated file (its image data cut off) is 1006, not an image with a black band (issue 37 item 6)', async () => {
    const size = 64;
    const rgba = new Uint8Array(size * size * 4).fill(200);
    const whole = new Uint8Array(UTIF.encodeImage(rgba, size, size));
    expect((await decodeImage(whole)).width).toBe(size);
    for (const keep of [0.9, 0.5]) {
      const err = await decodeError(whole.subarray(0, Math.floor(whole.length * keep)));
      expect(err.code).toBe(1006);
      expect(err.message).toMatch(/truncated TIFF \(image data runs past the end of the file\)/);
    }
  });

  it('CCITT fax compression is refused, not decoded', async () => {
    const err = await decodeError(fixture('tiff-g4.tif'));
    expect(err.code).toBe(1006);
    expect(err.message).toMatch(/unsupported TIFF type \(CCITT Group 4 fax\)/);
  });
});

describe('errors', () => {
  it('unknown magic → 1006 naming the first bytes', async () => {
    const err = await decodeError(new Uint8Array([0, 1, 2, 3, 4, 5, 6, 7]));
    expect(err.code).toBe(1006);
    expect(err.status).toBe(400);
    expect(err.message).toContain('unknown format, first bytes 00 01 02 03)');
    expect(err.message).toContain('not a PNG, JPEG, GIF, BMP, TIFF or WebP image');
  });

  it('a text file → 1006 saying it is not an image and quoting its text (issue 17)', async () => {
    const err = await decodeError(new TextEncoder().encode('this is not an image\n'));
    expect(err.code).toBe(1006);
    expect(err.message).toMatch(/not a PNG, JPEG, GIF, BMP, TIFF or WebP image \(unknown format, first bytes 74 68 69 73, text "this is not an i"\)/);
  });

  it('empty input → 1006', async () => {
    expect((await decodeError(new Uint8Array(0))).message).toMatch(/empty input/);
  });

  it('truncated PNG → 1006 "truncated PNG"', async () => {
    const png = buildPng({ width: 8, height: 8, colorType: 2, depth: 8, samples: Array.from({ length: 192 }, (_, i) => i) });
    for (const cut of [20, 40, png.length - 20, png.length - 13]) {
      const err = await decodeError(png.subarray(0, cut));
      expect(err.code).toBe(1006);
      expect(err.message).toMatch(/truncated PNG/);
    }
  });

  it('corrupt PNG CRC → 1006', async () => {
    const png = buildPng({ width: 2, height: 2, colorType: 0, depth: 8, samples: [1, 2, 3, 4] });
    const bad = png.slice();
    bad[bad.length - 14] ^= 0xff; // inside the IDAT CRC
    expect((await decodeError(bad)).code).toBe(1006);
  });

  it('zero width or height → 1006', async () => {
    const png = concat(PNG_SIGNATURE, ihdr(0, 5, 8, 2), pngChunk('IEND'));
    const err = await decodeError(png);
    expect(err.code).toBe(1006);
    expect(err.message).toMatch(/width or height is 0/);
    const bmp = buildBmp({ width: 0, height: 1, bpp: 24, pixels: [] });
    expect((await decodeError(bmp)).message).toMatch(/width or height is 0/);
  });

  it('a tiny PNG claiming 100000×100000 → 1013 from its header, before any inflating', async () => {
    // The IDAT is an empty zlib stream: inflating it would end in 1006 (no pixel data) or in an
    // allocation of 40 GB; 1013 means the header alone refused the file. (Its time: bench/guards.mjs.)
    const bomb = concat(PNG_SIGNATURE, ihdr(100_000, 100_000, 8, 6), pngChunk('IDAT', [0x78, 0x9c, 3, 0, 0, 0, 0, 1]), pngChunk('IEND'));
    const err = await decodeError(bomb);
    expect(err.code).toBe(1013);
    expect(err.status).toBe(413);
    expect(err.message).toMatch(/100000×100000/);
  });

  it('too many pixels for every format, and for limits.maxPixels', async () => {
    const gifHeader = concat(new TextEncoder().encode('GIF89a'), [0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0x3b]);
    expect((await decodeError(gifHeader)).code).toBe(1013);
    const bmp = buildBmp({ width: 50_000, height: -50_000, bpp: 24, pixels: [0, 0, 0, 0] });
    expect((await decodeError(bmp)).code).toBe(1013);
    const jpeg = fixture('jpeg-grey.jpg');
    expect((await decodeError(jpeg, { maxPixels: 100 })).code).toBe(1013);
    await expect(decodeImage(jpeg, { maxPixels: 256 })).resolves.toMatchObject({ width: 16 });
  });

  it('a zlib bomb (1×1 PNG whose data inflates to 8 MB) → 1006', async () => {
    const bomb = concat(
      PNG_SIGNATURE,
      ihdr(1, 1, 8, 0),
      pngChunk('IDAT', (await import('fflate')).zlibSync(new Uint8Array(8 << 20), { level: 9 })),
      pngChunk('IEND'),
    );
    expect(bomb.length).toBeLessThan(20_000);
    const err = await decodeError(bomb);
    expect(err.code).toBe(1006);
    expect(err.message).toMatch(/zlib bomb/);
  });
});

describe('never hangs and never leaks a raw exception on damaged input', () => {
  const samples = (): Array<[string, Uint8Array]> => {
    const buf = new Uint8Array(1024);
    const gif = new GifWriter(buf, 8, 8, { palette: [0, 0xffffff, 0xff0000, 0x00ff00] });
    gif.addFrame(0, 0, 8, 8, Array.from({ length: 64 }, (_, i) => i % 4), { transparent: 0 });
    return [
      ['png', buildPng({ width: 9, height: 7, colorType: 6, depth: 8, samples: Array.from({ length: 252 }, (_, i) => (i * 11) % 256) })],
      ['png-adam7', buildPng({ width: 9, height: 7, colorType: 3, depth: 2, interlace: true, palette: [[0, 0, 0], [9, 9, 9]], samples: Array.from({ length: 63 }, (_, i) => i % 2) })],
      ['gif', buf.slice(0, gif.end())],
      ['bmp', buildBmp({ width: 3, height: 2, bpp: 8, compression: 1, palette: [[1, 2, 3]], pixels: [3, 0, 0, 0, 3, 0, 0, 1] })],
      ['jpeg', fixture('jpeg-progressive.jpg')],
      ['webp', fixture('webp-lossy-alpha.webp')],
      ['tiff-lzw', fixture('tiff-rgb-lzw.tif')],
      ['tiff-deflate', fixture('tiff-rgba-deflate.tif')],
    ];
  };

  it.each(samples())('%s: truncations and random byte changes', async (_name, original) => {
    let seed = 42;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const variants: Uint8Array[] = [];
    for (let i = 1; i < 16; i++) variants.push(original.slice(0, Math.floor((original.length * i) / 16)));
    for (let i = 0; i < 60; i++) {
      const v = original.slice();
      for (let k = 0; k < 3; k++) v[Math.floor(rnd() * v.length)] = Math.floor(rnd() * 256);
      variants.push(v);
    }
    for (const v of variants) {
      try {
        const img = await decodeImage(v);
        expect(img.data.length).toBe(img.width * img.height * 4);
      } catch (err) {
        expect(err).toBeInstanceOf(TracelabError);
        expect([1006, 1013]).toContain((err as TracelabError).code);
      }
    }
  });
});
