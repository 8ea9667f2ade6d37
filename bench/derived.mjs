/**
 * Derived kinds of image for issue 27, made from the corpus in use on every bench run:
 *
 * - `lineart_bilevel`: a 1-bit copy of every `lineart_bw` image (composited over white, BT.601 luma
 *   < 128 = black: the same threshold as the PBM potrace gets), written as a 1-bit grayscale PNG.
 *   Tracelab traces that PNG, potrace the PBM made from it (bilevelPbm, run.mjs's potrace row); both
 *   are scored against the anti-aliased original (`compare_to`) and, where the original has the
 *   artist's SVG, at 4× against it (`ref4x`).
 * - `photo_small`: area-averaged copies of every `photo` image with long side 96, 128, 192 and 256 px
 *   (only sizes below the original's), traced and scored like the photo kind.
 *
 * The pixel functions are pure (images are { width, height, data } with RGBA bytes); deriveImages
 * writes the files. In: the corpus folder and its manifest entries. Out: manifest-like entries with an
 * absolute `path` (the file to trace), `derived_from` (the original's file) and, for line art,
 * `compare_to`, `ref4x`, `subkind` (drawing, text or scan) and `black_pct` (black pixels of the
 * copy, % of all: thin or light lines can vanish at the threshold).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encode as encodePng } from 'fast-png';
import { flattenOver } from './metrics.mjs';

/** The derived kinds: what each is made from, and the tracers that run on it (table order). */
export const DERIVED_KINDS = {
  lineart_bilevel: { from: 'lineart_bw', tracers: ['tracelab', 'vtracer-native', 'potrace'] },
  photo_small: { from: 'photo', tracers: ['tracelab', 'tracelab-gradients', 'vtracer-native', 'vtracer-wasm', 'imagetracerjs'] },
};

/** Long sides of the small photos. */
export const PHOTO_SIZES = [96, 128, 192, 256];

/**
 * 1 where a pixel is black in the 1-bit copy: composited over white (straight alpha), BT.601 luma
 * < 128. Uint8Array, one byte per pixel, rows top to bottom.
 */
export function bilevelMask({ width, height, data }) {
  const mask = new Uint8Array(width * height);
  for (let i = 0; i < mask.length; i++) {
    const o = i * 4;
    const a = data[o + 3] / 255;
    const lum = (0.299 * data[o] + 0.587 * data[o + 1] + 0.114 * data[o + 2]) * a + 255 * (1 - a);
    if (lum < 128) mask[i] = 1;
  }
  return mask;
}

/** Rows of a mask packed 8 pixels a byte, most significant bit first; `one` = the bit's value for black. */
function packRows(mask, width, height, one) {
  const rowBytes = Math.ceil(width / 8);
  const bits = new Uint8Array(rowBytes * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if ((mask[y * width + x] === 1) === one) bits[y * rowBytes + (x >> 3)] |= 0x80 >> (x & 7);
    }
  }
  return bits;
}

/** Binary PBM (P4) of an RGBA image thresholded by bilevelMask (1 = black in PBM). */
export function bilevelPbm(img) {
  const header = Buffer.from(`P4\n${img.width} ${img.height}\n`, 'ascii');
  return Buffer.concat([header, packRows(bilevelMask(img), img.width, img.height, true)]);
}

/** 1-bit grayscale PNG (0 = black, 1 = white) of an RGBA image thresholded by bilevelMask. */
export function bilevelPng(img) {
  const data = packRows(bilevelMask(img), img.width, img.height, false);
  return Buffer.from(encodePng({ width: img.width, height: img.height, data, depth: 1, channels: 1 }));
}

/**
 * Area-average downscale to width × height (each output pixel the mean of the input area it
 * covers, partial pixels weighted by their covered fraction), after compositing over white.
 * Returns an opaque RGBA image.
 */
export function areaDownscale(img, width, height) {
  const src = flattenOver(img);
  // Horizontal pass into a float buffer, then vertical, each with the same 1-D weights.
  const weights = (from, to) => {
    const scale = from / to;
    const taps = [];
    for (let o = 0; o < to; o++) {
      const a = o * scale;
      const b = (o + 1) * scale;
      const list = [];
      for (let i = Math.floor(a); i < Math.min(from, Math.ceil(b)); i++) {
        const w = Math.min(b, i + 1) - Math.max(a, i);
        if (w > 0) list.push([i, w / scale]);
      }
      taps.push(list);
    }
    return taps;
  };
  const wx = weights(src.width, width);
  const wy = weights(src.height, height);
  const mid = new Float64Array(width * src.height * 3);
  for (let y = 0; y < src.height; y++) {
    for (let x = 0; x < width; x++) {
      let r = 0, g = 0, b = 0;
      for (const [i, w] of wx[x]) {
        const o = (y * src.width + i) * 4;
        r += w * src.data[o];
        g += w * src.data[o + 1];
        b += w * src.data[o + 2];
      }
      const m = (y * width + x) * 3;
      mid[m] = r;
      mid[m + 1] = g;
      mid[m + 2] = b;
    }
  }
  const out = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let r = 0, g = 0, b = 0;
      for (const [j, w] of wy[y]) {
        const m = (j * width + x) * 3;
        r += w * mid[m];
        g += w * mid[m + 1];
        b += w * mid[m + 2];
      }
      const o = (y * width + x) * 4;
      out[o] = Math.round(r);
      out[o + 1] = Math.round(g);
      out[o + 2] = Math.round(b);
      out[o + 3] = 255;
    }
  }
  return { width, height, data: out };
}

/** Width × height with the long side `long` (aspect kept, each side at least 1 px). */
export function sizeWithLongSide(width, height, long) {
  const s = long / Math.max(width, height);
  return [Math.max(1, Math.round(width * s)), Math.max(1, Math.round(height * s))];
}

/** Drawing, text or scan, from a line-art image's manifest entry (id, note, processing). */
export function lineArtSubkind(im) {
  const words = `${im.note ?? ''} ${im.processing ?? ''}`;
  if (/\bscan/i.test(`${im.id} ${words}`)) return 'scan';
  if (/^text\b/.test(im.id) || /\btext\b/i.test(im.note ?? '')) return 'text';
  return 'drawing';
}

/**
 * Writes the derived images of `images` (manifest entries of the corpus at `corpusDir`) into
 * `outDir` and returns their entries. `readPng(file)` decodes a PNG file to { width, height, data }
 * (RGBA). Only the kinds in `kinds` (default all) are made.
 */
export function deriveImages(corpusDir, images, outDir, readPng, kinds = Object.keys(DERIVED_KINDS)) {
  mkdirSync(outDir, { recursive: true });
  const out = [];
  for (const im of images) {
    const original = join(corpusDir, im.file);
    const base = { derived_from: im.file, license: im.license, source_package: im.source_package };
    if (im.category === 'lineart_bw' && kinds.includes('lineart_bilevel')) {
      const img = readPng(original);
      const file = `lineart_bilevel-${im.id}.png`;
      writeFileSync(join(outDir, file), bilevelPng(img));
      const black = bilevelMask(img).reduce((n, v) => n + v, 0);
      out.push({
        ...base, file, path: join(outDir, file), category: 'lineart_bilevel', id: im.id, width: img.width, height: img.height,
        compare_to: original, ...(im.reference_svg ? { ref4x: join(corpusDir, im.reference_svg) } : {}),
        subkind: lineArtSubkind(im), black_pct: (100 * black) / (img.width * img.height), note: `1-bit copy (luma < 128) of ${im.file}`,
      });
    }
    if (im.category === 'photo' && kinds.includes('photo_small')) {
      const img = readPng(original);
      for (const long of PHOTO_SIZES) {
        if (long >= Math.max(img.width, img.height)) continue;
        const [w, h] = sizeWithLongSide(img.width, img.height, long);
        const file = `photo_small-${im.id}-${long}.png`;
        const small = areaDownscale(img, w, h);
        writeFileSync(join(outDir, file), Buffer.from(encodePng({ width: w, height: h, data: new Uint8Array(small.data.buffer), channels: 4, depth: 8 })));
        out.push({ ...base, file, path: join(outDir, file), category: 'photo_small', id: `${im.id}-${long}`, width: w, height: h, note: `${im.file} area-averaged to long side ${long}` });
      }
    }
  }
  return out;
}

/** Reads a file and decodes it with pngjs's PNG (passed in: the bench's own dependency). */
export const pngReader = (PNG) => (file) => {
  const png = PNG.sync.read(readFileSync(file));
  return { width: png.width, height: png.height, data: png.data };
};
