/**
 * Line-art fixtures drawn by the tests: synthetic "scans" of drawings and text (ink strokes by
 * area coverage on a paper of uneven tone, blurred, with seeded grain, optionally through a real
 * JPEG round trip), a logo outlined with a hairline thinner than a pixel, and a grey-shaded
 * pixel-art sprite sheet. Every fixture is deterministic (seeded), so a threshold that moves
 * fails the same way on every run.
 */
import jpeg from 'jpeg-js';
import type { RgbaImage } from '../../src/engine/types.js';
import { mulberry32 as seeded } from './random.js';
import type { Rgb } from './raster.js';


/** Distance from (x, y) to the segment (ax, ay)–(bx, by). */
function segmentDistance(x: number, y: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy || 1)));
  return Math.hypot(x - ax - t * dx, y - ay - t * dy);
}

/** An ink mark: inside(x, y) in continuous coordinates, with its bounding box (for speed). */
export interface Mark {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
  readonly inside: (x: number, y: number) => boolean;
}

/** A pen line of width `w` from (ax, ay) to (bx, by), round ends. */
export function penLine(ax: number, ay: number, bx: number, by: number, w: number): Mark {
  const r = w / 2;
  return { x0: Math.min(ax, bx) - r, y0: Math.min(ay, by) - r, x1: Math.max(ax, bx) + r, y1: Math.max(ay, by) + r, inside: (x, y) => segmentDistance(x, y, ax, ay, bx, by) <= r };
}

/** A pen circle (a ring of width `w`) of radius r about (cx, cy); encloses one paper disc. */
export function penRing(cx: number, cy: number, r: number, w: number): Mark {
  const o = r + w / 2;
  return { x0: cx - o, y0: cy - o, x1: cx + o, y1: cy + o, inside: (x, y) => Math.abs(Math.hypot(x - cx, y - cy) - r) <= w / 2 };
}

/** A filled ink dot. */
export function penDot(cx: number, cy: number, r: number): Mark {
  return { x0: cx - r, y0: cy - r, x1: cx + r, y1: cy + r, inside: (x, y) => Math.hypot(x - cx, y - cy) <= r };
}

/** Ink coverage (0–1) per pixel of the marks, by 6 × 6 area sampling. */
export function coverageOf(width: number, height: number, marks: readonly Mark[]): Float64Array {
  const cover = new Float64Array(width * height);
  const ss = 6;
  for (const m of marks) {
    for (let y = Math.max(0, Math.floor(m.y0)); y < Math.min(height, Math.ceil(m.y1)); y++) {
      for (let x = Math.max(0, Math.floor(m.x0)); x < Math.min(width, Math.ceil(m.x1)); x++) {
        let n = 0;
        for (let sy = 0; sy < ss; sy++) for (let sx = 0; sx < ss; sx++) if (m.inside(x + (sx + 0.5) / ss, y + (sy + 0.5) / ss)) n++;
        cover[y * width + x] = Math.max(cover[y * width + x]!, n / (ss * ss));
      }
    }
  }
  return cover;
}

/**
 * A drawing of `rings` closed pen circles (each encloses one paper disc), straight strokes at many
 * angles and widths (1.6–4 px) and a row of dots, none touching another, in a 320 × 240 frame.
 */
export function drawingMarks(): { marks: Mark[]; strokes: number; rings: number } {
  const marks: Mark[] = [];
  for (let k = 0; k < 7; k++) {
    const a = (k * Math.PI) / 7 + 0.1;
    const cx = 40 + k * 40;
    marks.push(penLine(cx - 14 * Math.cos(a), 60 - 30 * Math.sin(a), cx + 14 * Math.cos(a), 60 + 30 * Math.sin(a), 1.6 + 0.4 * k));
  }
  const rings = [penRing(60, 150, 28, 2.5), penRing(150, 150, 36, 3.5), penRing(250, 150, 24, 1.8)];
  marks.push(...rings);
  for (let k = 0; k < 6; k++) marks.push(penDot(40 + k * 48, 215, 2.2 + 0.3 * k));
  return { marks, strokes: marks.length, rings: rings.length };
}

/**
 * Text-like lines: glyphs of stems, bowls (each a closed ring: one counter) and dots, in rows of
 * x-height 9 px, seeded, each glyph apart from its neighbours.
 */
export function textMarks(seed = 5): { marks: Mark[]; glyphs: number; counters: number } {
  const rand = seeded(seed);
  const marks: Mark[] = [];
  let glyphs = 0;
  let counters = 0;
  for (let row = 0; row < 6; row++) {
    const base = 34 + row * 34;
    let x = 14;
    while (x < 290) {
      const kind = rand();
      if (kind < 0.45) {
        // A stem, sometimes with an ascender.
        const top = rand() < 0.3 ? base - 17 : base - 10;
        marks.push(penLine(x + 1.5, top, x + 1.5, base, 2));
        x += 7;
      } else if (kind < 0.85) {
        marks.push(penRing(x + 5, base - 5, 3.8, 1.8));
        counters++;
        x += 13;
      } else {
        marks.push(penDot(x + 1.5, base - 1.5, 1.6));
        x += 6;
      }
      glyphs++;
      // A word space now and then.
      if (rand() < 0.15) x += 8;
    }
  }
  return { marks, glyphs, counters };
}

export interface ScanOptions {
  readonly ink: Rgb;
  /** Paper tone at the top-left corner; it darkens by `paperDrift` levels towards the bottom right. */
  readonly paper: Rgb;
  readonly paperDrift: number;
  /** Standard deviation-like amplitude of the per-pixel grain (uniform ± grain levels, luma and a little chroma). */
  readonly grain: number;
  /** Share of the grain that differs per channel (0: a grey scan stays grey). */
  readonly chromaGrain: number;
  /** Blur passes of a [1 2 1] kernel (each about 0.7 px of blur). */
  readonly blurPasses: number;
  /** JPEG quality of a real round trip (jpeg-js), or 0 for none. */
  readonly jpegQuality: number;
  readonly seed: number;
  /** A lamp's fall-off (a page photographed under it): paper and ink darken by this share towards the bottom-right corner (default 0). */
  readonly lamp?: number;
}

export const SCAN: ScanOptions = { ink: [38, 34, 40], paper: [242, 238, 226], paperDrift: 22, grain: 9, chromaGrain: 0.25, blurPasses: 1, jpegQuality: 75, seed: 11 };

/** Ink of `coverage` laid on paper, then blurred, grained and JPEG'd as a scanner and its file do. */
export function scanOf(width: number, height: number, coverage: Float64Array, o: ScanOptions = SCAN): RgbaImage {
  const planes = [0, 1, 2].map((c) => {
    const plane = new Float64Array(width * height);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        // Uneven paper: a diagonal drift plus a soft, wide shadow.
        const drift = o.paperDrift * ((x / width + y / height) / 2 + 0.3 * Math.sin((x + 2 * y) / 90));
        const paper = o.paper[c]! - drift;
        const k = coverage[y * width + x]!;
        const light = 1 - (o.lamp ?? 0) * ((x / width + y / height) / 2) ** 1.5;
        plane[y * width + x] = (paper * (1 - k) + o.ink[c]! * k) * light;
      }
    }
    return plane;
  });
  for (let pass = 0; pass < o.blurPasses; pass++) for (const plane of planes) blur121(plane, width, height);
  const rand = seeded(o.seed);
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const luma = (rand() * 2 - 1) * o.grain;
    for (let c = 0; c < 3; c++) data[i * 4 + c] = clampByte(planes[c]![i]! + luma + (o.chromaGrain > 0 ? (rand() * 2 - 1) * o.grain * o.chromaGrain : 0));
    data[i * 4 + 3] = 255;
  }
  const image = { width, height, data };
  return o.jpegQuality > 0 ? jpegRoundTrip(image, o.jpegQuality) : image;
}

function clampByte(v: number): number {
  return Math.max(0, Math.min(255, Math.round(v)));
}

/** One separable [1 2 1] / 4 blur pass in place (edges clamped). */
function blur121(plane: Float64Array, width: number, height: number): void {
  const tmp = new Float64Array(plane.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const l = plane[y * width + Math.max(0, x - 1)]!;
      const r = plane[y * width + Math.min(width - 1, x + 1)]!;
      tmp[y * width + x] = (l + 2 * plane[y * width + x]! + r) / 4;
    }
  }
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const u = tmp[Math.max(0, y - 1) * width + x]!;
      const d = tmp[Math.min(height - 1, y + 1) * width + x]!;
      plane[y * width + x] = (u + 2 * tmp[y * width + x]! + d) / 4;
    }
  }
}

export function jpegRoundTrip(image: RgbaImage, quality: number): RgbaImage {
  const encoded = jpeg.encode({ width: image.width, height: image.height, data: Buffer.from(image.data) }, quality).data;
  const decoded = jpeg.decode(encoded, { useTArray: true, formatAsRGBA: true });
  return { width: decoded.width, height: decoded.height, data: new Uint8Array(decoded.data) };
}

/** Ink of `coverage` in `ink` on transparent paper: coverage becomes alpha, as a logo export on transparency. */
export function inkOnTransparent(width: number, height: number, coverage: Float64Array, ink: Rgb): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    data[i * 4] = ink[0];
    data[i * 4 + 1] = ink[1];
    data[i * 4 + 2] = ink[2];
    data[i * 4 + 3] = Math.round(coverage[i]! * 255);
  }
  return { width, height, data };
}

/**
 * A logo: two flat fills (a wobbly blue disc with an orange disc inside) on white, each fill
 * bordered by a dark hairline `lineWidth` px wide centred on its edge, all by area coverage
 * (8 × 8 samples per pixel): every edge pixel mixes a fill, the hairline and the other side.
 */
export function hairlineLogo(size = 360, lineWidth = 0.4): RgbaImage {
  const white: Rgb = [255, 255, 255];
  const blue: Rgb = [30, 90, 200];
  const orange: Rgb = [250, 150, 30];
  const line: Rgb = [20, 20, 20];
  const c = size / 2;
  const outerR = (x: number, y: number) => size * 0.4 * (1 + 0.1 * Math.sin(3 * Math.atan2(y - c, x - c)));
  const innerR = size * 0.17;
  const paint = (x: number, y: number): Rgb => {
    const d = Math.hypot(x - c, y - c);
    const outer = outerR(x, y);
    if (Math.abs(d - outer) <= lineWidth / 2 || Math.abs(d - innerR) <= lineWidth / 2) return line;
    if (d < innerR) return orange;
    return d < outer ? blue : white;
  };
  const data = new Uint8Array(size * size * 4);
  const ss = 8;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const sum = [0, 0, 0];
      for (let sy = 0; sy < ss; sy++) {
        for (let sx = 0; sx < ss; sx++) {
          const p = paint(x + (sx + 0.5) / ss, y + (sy + 0.5) / ss);
          for (let k = 0; k < 3; k++) sum[k]! += p[k]!;
        }
      }
      for (let k = 0; k < 3; k++) data[(y * size + x) * 4 + k] = Math.round(sum[k]! / (ss * ss));
      data[(y * size + x) * 4 + 3] = 255;
    }
  }
  return { width: size, height: size, data };
}

/** The grey levels of the sprite sheet: paper, outline, then three body shades. */
export const SPRITE_GREYS = [255, 0, 96, 150, 205] as const;

/**
 * A sprite sheet of 8 × 4 creatures (24 px cells), each a black-outlined body shaded with three
 * greys (a dark rim inside the outline and the lower right, light upper left), hard-edged, drawn
 * ×`scale` (nearest neighbour).
 */
export function greySpriteSheet(scale = 2): RgbaImage {
  const cell = 24;
  const cols = 8;
  const rows = 4;
  const w = cols * cell;
  const h = rows * cell;
  const index = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const k = Math.floor(y / cell) * cols + Math.floor(x / cell);
      const cx = (x % cell) - 11.5;
      const cy = (y % cell) - 11.5;
      const rx = 7 + (k % 4);
      const ry = 6 + ((k >> 2) % 4);
      const d = (cx / rx) ** 2 + (cy / ry) ** 2;
      let v = 0;
      if (d <= 1) {
        // Black outline, then a 1-px rim of the darkest grey (selective outlining), then the
        // body lit from the upper left.
        const inner = (cx / (rx - 1)) ** 2 + (cy / (ry - 1)) ** 2;
        const rim = (cx / (rx - 2)) ** 2 + (cy / (ry - 2)) ** 2;
        if (inner > 1) v = 1;
        else if (rim > 1 || cx + cy > 3) v = 2;
        else if (cx + cy > -4) v = 3;
        else v = 4;
        if (cy === -2.5 && Math.abs(cx + 2) < 1) v = 1; // an eye
      }
      index[y * w + x] = v;
    }
  }
  const width = w * scale;
  const height = h * scale;
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const g = SPRITE_GREYS[index[Math.floor(y / scale) * w + Math.floor(x / scale)]!]!;
      const o = (y * width + x) * 4;
      data[o] = data[o + 1] = data[o + 2] = g;
      data[o + 3] = 255;
    }
  }
  return { width, height, data };
}

/**
 * Lettering on transparent paper in `fill`, each stroke outlined by a `lineWidth`-px hairline in
 * `line` (a script logo exported on transparency): slanted stems and loops 5 px wide, in a row,
 * coverage anti-aliased in the alpha channel (4 × 4 samples; colour the covered samples' mean).
 */
export function hairlineLettering(width = 420, height = 140, lineWidth = 0.4, fill: Rgb = [190, 57, 43], line: Rgb = [44, 11, 7]): RgbaImage {
  // Signed distances (negative inside) of the strokes: a slanted stem, then a loop, letter by letter.
  const strokes: ((x: number, y: number) => number)[] = [];
  for (let x0 = 20; x0 + 30 < width; x0 += 34) {
    const stem = x0 + 6;
    strokes.push((x, y) => segmentDistance(x, y, stem + 10, 22, stem - 6, height - 24) - 2.5);
    const cx = x0 + 20;
    const cy = height * 0.62;
    strokes.push((x, y) => Math.abs(Math.hypot((x - cx) * 1.3, y - cy) - 16) - 2.5);
  }
  const paint = (x: number, y: number): Rgb | undefined => {
    let d = Infinity;
    for (const s of strokes) d = Math.min(d, s(x, y));
    if (Math.abs(d) <= lineWidth / 2) return line;
    return d < 0 ? fill : undefined;
  };
  const data = new Uint8Array(width * height * 4);
  const ss = 4;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const sum = [0, 0, 0];
      let covered = 0;
      for (let sy = 0; sy < ss; sy++) {
        for (let sx = 0; sx < ss; sx++) {
          const p = paint(x + (sx + 0.5) / ss, y + (sy + 0.5) / ss);
          if (!p) continue;
          covered++;
          for (let k = 0; k < 3; k++) sum[k]! += p[k]!;
        }
      }
      if (covered === 0) continue;
      for (let k = 0; k < 3; k++) data[(y * width + x) * 4 + k] = Math.round(sum[k]! / covered);
      data[(y * width + x) * 4 + 3] = Math.round((covered / (ss * ss)) * 255);
    }
  }
  return { width, height, data };
}
