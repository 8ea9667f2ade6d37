/**
 * Watermarks of the non-production modes (reference §6.2, §6.3):
 * - `heavy` — `test` and `test_preview`: dense diagonal "TRACELAB TEST" text over the whole image;
 * - `discreet` — `preview`: small, sparse, low-opacity diagonal "TRACELAB" text.
 *
 * Bitmaps get the text drawn straight into their RGBA bytes with a built-in 5×7 dot font (no
 * fonts, no DOM, deterministic in every JavaScript engine); SVGs get a `<g>` of rotated `<text>`
 * elements appended after the shapes (`svgWatermark`, inserted by `watermarkSvg`).
 */

import { SegmentPath } from '../engine/segment-path.js';
import type { Chain, Shape, TraceResult } from '../engine/types.js';

export type WatermarkStyle = 'heavy' | 'discreet';

/** 5×7 dot glyphs, one string per row, '1' = dot. Only the letters the watermarks use. */
const GLYPHS: Readonly<Record<string, readonly string[]>> = {
  T: ['11111', '00100', '00100', '00100', '00100', '00100', '00100'],
  R: ['11110', '10001', '10001', '11110', '10100', '10010', '10001'],
  A: ['01110', '10001', '10001', '11111', '10001', '10001', '10001'],
  C: ['01110', '10001', '10000', '10000', '10000', '10001', '01110'],
  E: ['11111', '10000', '10000', '11110', '10000', '10000', '11111'],
  L: ['10000', '10000', '10000', '10000', '10000', '10000', '11111'],
  B: ['11110', '10001', '10001', '11110', '10001', '10001', '11110'],
  S: ['01111', '10000', '10000', '01110', '00001', '00001', '11110'],
  ' ': ['00000', '00000', '00000', '00000', '00000', '00000', '00000'],
};

const GLYPH_W = 5;
const GLYPH_H = 7;

/** The text as a dot mask: `(6 × length − 1) × 7`, row-major, 1 = dot. */
function textMask(text: string): { mask: Uint8Array; width: number; height: number } {
  const width = text.length * (GLYPH_W + 1) - 1;
  const mask = new Uint8Array(width * GLYPH_H);
  for (let i = 0; i < text.length; i++) {
    const glyph = GLYPHS[text[i]!];
    if (!glyph) throw new Error(`watermark font has no glyph for ${JSON.stringify(text[i])}`);
    for (let y = 0; y < GLYPH_H; y++) {
      for (let x = 0; x < GLYPH_W; x++) {
        if (glyph[y]![x] === '1') mask[y * width + i * (GLYPH_W + 1) + x] = 1;
      }
    }
  }
  return { mask, width, height: GLYPH_H };
}

interface BitmapStyle {
  readonly text: string;
  /** Output pixels per font dot. */
  readonly dot: number;
  /** Empty dots between repeats along the text, and between rows. */
  readonly gapX: number;
  readonly gapY: number;
  readonly color: readonly [number, number, number];
  readonly alpha: number;
}

function bitmapStyle(style: WatermarkStyle, width: number, height: number): BitmapStyle {
  const short = Math.min(width, height);
  return style === 'heavy'
    ? { text: 'TRACELAB TEST', dot: Math.max(2, Math.round(short / 90)), gapX: 6, gapY: 6, color: [128, 128, 128], alpha: 0.6 }
    : { text: 'TRACELAB', dot: Math.max(1, Math.round(short / 260)), gapX: 40, gapY: 36, color: [128, 128, 128], alpha: 0.16 };
}

/** Text direction: −30° (rising to the right, y down). */
const COS = Math.cos(-Math.PI / 6);
const SIN = Math.sin(-Math.PI / 6);

/**
 * Draws the watermark into straight-alpha RGBA `rgba` (`width × height`, modified in place):
 * diagonal rows of dot-font text composited "source over" (so it shows on transparent areas too).
 * Returns `rgba`.
 */
export function watermarkRgba(rgba: Uint8Array, width: number, height: number, style: WatermarkStyle): Uint8Array {
  const s = bitmapStyle(style, width, height);
  const { mask, width: mw, height: mh } = textMask(s.text);
  const tileW = (mw + s.gapX) * s.dot;
  const tileH = (mh + s.gapY) * s.dot;
  const [cr, cg, cb] = s.color;
  const sa = s.alpha;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const px = x + 0.5;
      const py = y + 0.5;
      const u = px * COS + py * SIN;
      const v = -px * SIN + py * COS;
      const row = Math.floor(v / tileH);
      const uu = u + (row & 1 ? tileW / 2 : 0);
      const gx = Math.floor((uu - Math.floor(uu / tileW) * tileW) / s.dot);
      const gy = Math.floor((v - row * tileH) / s.dot);
      if (gx >= mw || gy >= mh || mask[gy * mw + gx] === 0) continue;
      const i = (y * width + x) * 4;
      const da = rgba[i + 3]! / 255;
      const oa = sa + da * (1 - sa);
      const k = da * (1 - sa);
      rgba[i] = Math.round((cr * sa + rgba[i]! * k) / oa);
      rgba[i + 1] = Math.round((cg * sa + rgba[i + 1]! * k) / oa);
      rgba[i + 2] = Math.round((cb * sa + rgba[i + 2]! * k) / oa);
      rgba[i + 3] = Math.round(oa * 255);
    }
  }
  return rgba;
}

function num(n: number): string {
  const text = n.toFixed(2).replace(/\.?0+$/, '');
  return text === '-0' ? '0' : text;
}

/** Marker id of the SVG watermark group (tests and clients can look for it). */
export const SVG_WATERMARK_ID = 'tracelab-test-watermark';
export const WATERMARK_TEXT = 'TRACELAB TEST';

/**
 * The heavy SVG watermark for a `width × height` viewBox: a `<g>` of "TRACELAB TEST" texts rotated
 * −30°, tiled (alternate rows shifted by half a step) so every part of the image is crossed.
 */
export function svgWatermark(width: number, height: number): string {
  const size = Math.max(width, height) / 14;
  const stepX = size * 9;
  const stepY = size * 3;
  const out: string[] = [];
  out.push(
    `<g id="${SVG_WATERMARK_ID}" fill="#808080" fill-opacity="0.55" stroke="#FFFFFF" stroke-opacity="0.55" ` +
      `stroke-width="${num(size / 30)}" font-family="Arial, Helvetica, sans-serif" font-weight="bold" ` +
      `font-size="${num(size)}" pointer-events="none">\n`,
  );
  let row = 0;
  for (let y = -height; y <= 2 * height; y += stepY, row++) {
    for (let x = -width + (row % 2 ? stepX / 2 : 0); x <= 2 * width; x += stepX) {
      out.push(`<text x="${num(x)}" y="${num(y)}" transform="rotate(-30 ${num(x)} ${num(y)})">${WATERMARK_TEXT}</text>\n`);
    }
  }
  out.push('</g>\n');
  return out.join('');
}

/** `svg` with the heavy watermark group appended after the shapes (just before `</svg>`). */
export function watermarkSvg(svg: string, width: number, height: number): string {
  const end = svg.lastIndexOf('</svg>');
  if (end < 0) throw new Error('not an SVG document: no </svg>');
  return svg.slice(0, end) + svgWatermark(width, height) + svg.slice(end);
}

/**
 * The watermark as extra shapes on top of a trace, for the vector formats that have neither text
 * nor pixels to draw into (PDF, EPS, DXF): every dot of the dot-font text becomes a small square
 * shape, tiled like the bitmap watermark. Squares that would cross the picture's edge are left
 * out, so the page size stays the picture's.
 */
export function watermarkTrace(result: TraceResult, style: WatermarkStyle): TraceResult {
  const s = bitmapStyle(style, result.width, result.height);
  const { mask, width: mw, height: mh } = textMask(s.text);
  const dot = s.dot;
  const tileW = (mw + s.gapX) * dot;
  const tileH = (mh + s.gapY) * dot;
  const color = { r: s.color[0], g: s.color[1], b: s.color[2], a: Math.round(s.alpha * 255) };
  const chains: Chain[] = [...result.chains];
  const shapes: Shape[] = [...result.shapes];
  let region = result.shapes.reduce((m, sh) => Math.max(m, sh.region), -1) + 1;
  // (u, v) = the picture's coordinates turned by −30°; back: x = u·cos − v·sin, y = u·sin + v·cos.
  const toX = (u: number, v: number): number => u * COS - v * SIN;
  const toY = (u: number, v: number): number => u * SIN + v * COS;
  const corners = [[0, 0], [result.width, 0], [0, result.height], [result.width, result.height]] as const;
  const us = corners.map(([x, y]) => x * COS + y * SIN);
  const vs = corners.map(([x, y]) => -x * SIN + y * COS);
  const [u0, u1, v0, v1] = [Math.min(...us), Math.max(...us), Math.min(...vs), Math.max(...vs)];
  for (let row = Math.floor(v0 / tileH); row * tileH <= v1; row++) {
    const shift = row & 1 ? tileW / 2 : 0;
    for (let col = Math.floor((u0 + shift) / tileW) - 1; col * tileW - shift <= u1; col++) {
      const tu = col * tileW - shift;
      const tv = row * tileH;
      for (let gy = 0; gy < mh; gy++) {
        for (let gx = 0; gx < mw; gx++) {
          if (mask[gy * mw + gx] === 0) continue;
          const ua = tu + gx * dot;
          const va = tv + gy * dot;
          const pts = [[ua, va], [ua + dot, va], [ua + dot, va + dot], [ua, va + dot]].map(([u, v]) => [toX(u!, v!), toY(u!, v!)] as const);
          if (pts.some(([x, y]) => x < 0 || y < 0 || x > result.width || y > result.height)) continue;
          const chain = chains.length;
          chains.push({
            startX: pts[0]![0],
            startY: pts[0]![1],
            segments: SegmentPath.of([1, 2, 3, 0].map((k) => ({ kind: 'line' as const, x: pts[k]![0], y: pts[k]![1] }))),
            leftRegion: region,
            rightRegion: -1,
            closed: true,
          });
          shapes.push({ region, color, outer: [{ chain, reversed: false }], holes: [], areaPx: dot * dot, parent: -1 });
          region++;
        }
      }
    }
  }
  return { ...result, chains, shapes };
}
