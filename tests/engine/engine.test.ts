import { describe, expect, it } from 'vitest';
import jpeg from 'jpeg-js';
import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import { FitScratch, fitChain } from '../../src/engine/fit/fit.js';
import type { EngineParams, TraceResult } from '../../src/engine/types.js';
import { writeSvg } from '../../src/formats/svg.js';
import { DEFAULT_OUTPUT_OPTIONS } from '../../src/formats/types.js';
import { sampleChain } from '../helpers/geometry.js';
import { disc, drawCells, drawShape, rect, type Rgb } from '../helpers/raster.js';

const WHITE: Rgb = [255, 255, 255];
const RED: Rgb = [220, 30, 40];
const BLUE: Rgb = [30, 60, 200];
const GREEN: Rgb = [20, 160, 60];

const params = (over: Partial<EngineParams> = {}): EngineParams => ({ ...DEFAULT_ENGINE_PARAMS, ...over });

function shapeOfColor(result: TraceResult, rgb: Rgb) {
  return result.shapes.filter((s) => Math.abs(s.color.r - rgb[0]) + Math.abs(s.color.g - rgb[1]) + Math.abs(s.color.b - rgb[2]) < 30);
}

describe('traceImage', () => {
  it('traces an anti-aliased disc to a closed curve within 0.5 px of the true circle', () => {
    const cx = 40.3;
    const cy = 38.7;
    const r = 25.2;
    const result = traceImage(drawShape(80, 80, WHITE, [{ color: RED, inside: disc(cx, cy, r) }]), params());
    const discs = shapeOfColor(result, RED);
    expect(discs).toHaveLength(1);
    const shape = discs[0]!;
    expect(shape.holes).toHaveLength(0);
    let worst = 0;
    for (const use of shape.outer) {
      for (const [x, y] of sampleChain(result.chains[use.chain]!)) worst = Math.max(worst, Math.abs(Math.hypot(x - cx, y - cy) - r));
    }
    expect(worst).toBeLessThan(0.5);
  });

  it('a logo anti-aliased only in its alpha channel (on transparency) is flat art, not pixel art', () => {
    const width = 64;
    const height = 64;
    const data = new Uint8Array(width * height * 4);
    const inside = disc(32, 32, 20);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        let covered = 0;
        for (let sy = 0; sy < 8; sy++) for (let sx = 0; sx < 8; sx++) if (inside(x + (sx + 0.5) / 8, y + (sy + 0.5) / 8)) covered++;
        data.set([230, 20, 30, Math.round((covered / 64) * 255)], (y * width + x) * 4);
      }
    }
    const result = traceImage({ width, height, data }, params());
    expect(result.stats.profile).toBe('flat');
    const red = result.shapes.filter((s) => s.color.r > 200);
    expect(red).toHaveLength(1);
    expect(red[0]!.outer.every((u) => result.chains[u.chain]!.segments.toSegments().every((seg) => seg.kind === 'arc'))).toBe(true);
  });

  it('an anti-aliased edge stays the edge of its two colours where a third palette colour matches its shades', () => {
    // A highlight colour halfway between yellow and white (a real colour of the art, in its own
    // patch) also matches the half-covered pixels along the disc's edge; those must not become
    // slivers of the highlight.
    const yellow: Rgb = [240, 240, 20];
    const highlight: Rgb = [248, 248, 138];
    const image = drawShape(160, 120, WHITE, [
      { color: yellow, inside: disc(60, 60, 45.3) },
      { color: highlight, inside: rect(120, 20, 150, 100) },
    ]);
    const result = traceImage(image, params());
    const highlights = shapeOfColor(result, highlight);
    expect(highlights).toHaveLength(1);
    expect(highlights[0]!.areaPx).toBeGreaterThan(2000);
    expect(shapeOfColor(result, yellow)).toHaveLength(1);
  });

  it('a JPEG q60 copy of a flat logo keeps its palette: the logo colours, not JPEG shades', () => {
    const dark: Rgb = [15, 15, 20];
    const logo = drawShape(240, 180, WHITE, [
      { color: RED, inside: disc(90, 90, 60) },
      { color: GREEN, inside: rect(140, 40, 210, 140) },
      // A 3 px dark bar across both (an outline-like stroke).
      { color: dark, inside: rect(20, 88, 220, 91) },
    ]);
    const encoded = jpeg.encode({ width: logo.width, height: logo.height, data: Buffer.from(logo.data) }, 60).data;
    const decoded = jpeg.decode(encoded, { useTArray: true, formatAsRGBA: true });
    const result = traceImage({ width: decoded.width, height: decoded.height, data: decoded.data }, params());
    const fills = new Map<string, Rgb>();
    for (const s of result.shapes) fills.set(`${s.color.r},${s.color.g},${s.color.b}`, [s.color.r, s.color.g, s.color.b]);
    expect(fills.size).toBeLessThanOrEqual(4);
    for (const want of [WHITE, RED, GREEN, dark]) {
      const closest = Math.min(...[...fills.values()].map((c) => Math.hypot(c[0] - want[0], c[1] - want[1], c[2] - want[2])));
      expect(closest).toBeLessThan(40);
    }
  });

  it('gives two touching squares exactly one shared boundary', () => {
    const image = drawCells([[1, 2]], [WHITE, RED, BLUE], 20);
    const result = traceImage(image, params());
    const red = shapeOfColor(result, RED)[0]!;
    const blue = shapeOfColor(result, BLUE)[0]!;
    const redChains = new Set(red.outer.map((u) => u.chain));
    const shared = blue.outer.filter((u) => redChains.has(u.chain));
    expect(shared).toHaveLength(1);
    const chain = result.chains[shared[0]!.chain]!;
    expect(new Set([chain.leftRegion, chain.rightRegion])).toEqual(new Set([red.region, blue.region]));
    // The shared border is the straight line x = 20 from top to bottom.
    for (const [x] of sampleChain(chain)) expect(x).toBeCloseTo(20, 6);
  });

  it('keeps the hole of a ring and fills it with the shape inside', () => {
    const ring = (x: number, y: number) => disc(50, 50, 40)(x, y) && !disc(50, 50, 20)(x, y);
    const result = traceImage(drawShape(100, 100, WHITE, [{ color: GREEN, inside: ring }]), params());
    const green = shapeOfColor(result, GREEN);
    expect(green).toHaveLength(1);
    expect(green[0]!.holes).toHaveLength(1);
    // The white centre is its own shape, bounded by the same chain as the ring's hole.
    const holeChains = new Set(green[0]!.holes[0]!.map((u) => u.chain));
    const centre = result.shapes.find((s) => s.outer.every((u) => holeChains.has(u.chain)));
    expect(centre).toBeDefined();
  });

  it('drops covered holes in stacked mode but keeps them in cutouts mode', () => {
    const ring = (x: number, y: number) => disc(50, 50, 40)(x, y) && !disc(50, 50, 20)(x, y);
    const image = drawShape(100, 100, WHITE, [{ color: GREEN, inside: ring }]);
    const stacked = traceImage(image, params({ shapeStacking: 'stacked' }));
    expect(shapeOfColor(stacked, GREEN)[0]!.holes).toHaveLength(0);
    const cutouts = traceImage(image, params({ shapeStacking: 'cutouts' }));
    expect(shapeOfColor(cutouts, GREEN)[0]!.holes).toHaveLength(1);
  });

  it('traces a pixel-art checkerboard cell-exact', () => {
    const grid = Array.from({ length: 6 }, (_, y) => Array.from({ length: 6 }, (_, x) => (x + y) % 2));
    const result = traceImage(drawCells(grid, [[0, 0, 0], [250, 250, 250]], 1), params());
    expect(result.stats.profile).toBe('pixel');
    // Every chain vertex lies on the pixel lattice and every segment is axis-aligned.
    for (const chain of result.chains) {
      let x = chain.startX;
      let y = chain.startY;
      expect(Number.isInteger(x) && Number.isInteger(y)).toBe(true);
      for (const s of chain.segments) {
        expect(s.kind).toBe('line');
        expect(Number.isInteger(s.x) && Number.isInteger(s.y)).toBe(true);
        expect(s.x === x || s.y === y).toBe(true);
        x = s.x;
        y = s.y;
      }
    }
    // 36 one-pixel cells: total painted area equals the image.
    const area = result.shapes.reduce((sum, s) => sum + s.areaPx, 0);
    expect(area).toBe(36);
  });

  it('honours max_colors: two colours at most', () => {
    const image = drawShape(60, 60, WHITE, [
      { color: RED, inside: rect(5, 5, 30, 30) },
      { color: BLUE, inside: rect(30, 30, 55, 55) },
      { color: GREEN, inside: disc(45, 15, 10) },
    ]);
    const result = traceImage(image, params({ maxColors: 2 }));
    const fills = new Set(result.shapes.map((s) => `${s.color.r},${s.color.g},${s.color.b}`));
    expect(fills.size).toBeLessThanOrEqual(2);
    const svg = writeSvg(result, { ...DEFAULT_OUTPUT_OPTIONS, gapFiller: { ...DEFAULT_OUTPUT_OPTIONS.gapFiller, enabled: false } });
    const svgFills = new Set([...svg.matchAll(/fill="(#[0-9a-f]+)"/g)].map((m) => m[1]));
    expect(svgFills.size).toBeLessThanOrEqual(2);
  });

  it('remaps exactly the matched colour with a palette rule', () => {
    const image = drawShape(60, 40, WHITE, [
      { color: RED, inside: rect(5, 5, 25, 35) },
      { color: BLUE, inside: rect(35, 5, 55, 35) },
    ]);
    const plain = traceImage(image, params());
    const rule = { color: { r: RED[0], g: RED[1], b: RED[2], a: 255 }, remap: { r: 0, g: 255, b: 0, a: 255 }, tolerance: 0.1 };
    const remapped = traceImage(image, params({ palette: [rule] }));
    const colors = (r: TraceResult) => r.shapes.map((s) => [s.color.r, s.color.g, s.color.b].join(',')).sort();
    const before = colors(plain);
    const after = colors(remapped);
    expect(after).toHaveLength(before.length);
    const changed = before.filter((c, i) => c !== after[i]);
    expect(after).toContain('0,255,0');
    expect(changed.length).toBe(1);
  });

  it('deletes a colour whose palette entry is fully transparent', () => {
    const image = drawShape(40, 40, WHITE, [{ color: RED, inside: rect(10, 10, 30, 30) }]);
    const result = traceImage(image, params({ palette: [{ color: { r: 255, g: 255, b: 255, a: 0 }, tolerance: 0.05 }] }));
    expect(result.shapes.every((s) => !(s.color.r === 255 && s.color.g === 255 && s.color.b === 255))).toBe(true);
    expect(shapeOfColor(result, RED)).toHaveLength(1);
  });

  it('deleting the background colour leaves the other shapes smooth (issue 17: no stair steps against a deleted colour)', () => {
    // An anti-aliased ring and disc on a background that a palette rule deletes: the edges against
    // the deleted colour keep their sub-pixel positions (coverage from colour, not from alpha, which
    // is 255 there), so the curves need no more nodes than with the background kept.
    const ring = (x: number, y: number) => disc(40, 40, 30)(x, y) && !disc(40, 40, 16)(x, y);
    const image = drawShape(130, 80, WHITE, [
      { color: GREEN, inside: ring },
      { color: RED, inside: disc(102.4, 40.3, 20.6) },
    ]);
    const kept = traceImage(image, params());
    const deleted = traceImage(image, params({ palette: [{ color: { r: 255, g: 255, b: 255, a: 0 }, tolerance: 0.05 }] }));
    const nodes = (r: TraceResult, rgb: Rgb) =>
      shapeOfColor(r, rgb).reduce((n, s) => n + [...s.outer, ...s.holes.flat()].reduce((m, u) => m + r.chains[u.chain]!.segments.length, 0), 0);
    for (const rgb of [GREEN, RED]) {
      expect(shapeOfColor(deleted, rgb)).toHaveLength(1);
      expect(nodes(deleted, rgb)).toBeLessThanOrEqual(Math.ceil(nodes(kept, rgb) * 1.15) + 2);
    }
    // And the disc's edge stays within half a pixel of the true circle.
    const discChain = shapeOfColor(deleted, RED)[0]!.outer.map((u) => deleted.chains[u.chain]!);
    for (const chain of discChain) for (const [x, y] of sampleChain(chain)) expect(Math.abs(Math.hypot(x - 102.4, y - 40.3) - 20.6)).toBeLessThan(0.5);
  });

  it('produces no shape for fully transparent pixels', () => {
    const image = drawShape(30, 30, WHITE, [{ color: RED, inside: rect(10, 10, 20, 20) }]);
    const data = image.data as Uint8Array;
    for (let i = 0; i < 30 * 30; i++) if (data[i * 4] === 255) data[i * 4 + 3] = 0;
    const result = traceImage(image, params());
    expect(result.shapes).toHaveLength(1);
    expect(shapeOfColor(result, RED)).toHaveLength(1);
  });

  it('merges specks below min_area_px into a neighbour instead of punching holes', () => {
    const image = drawCells(
      [
        [0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0],
        [0, 0, 1, 0, 0],
        [0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0],
      ],
      [BLUE, RED],
      2,
    );
    const result = traceImage(image, params({ minAreaPx: 5 }));
    expect(result.shapes).toHaveLength(1);
    expect(result.shapes[0]!.holes).toHaveLength(0);
  });

  it('shrinks inputs above input.max_pixels and keeps the viewBox in input pixels', () => {
    const image = drawShape(200, 100, WHITE, [{ color: RED, inside: disc(100, 50, 30) }]);
    const result = traceImage(image, params({ maxPixels: 5000 }));
    expect(result.width * result.height).toBeLessThanOrEqual(5000);
    expect(result.inputWidth).toBe(200);
    expect(writeSvg(result)).toContain('viewBox="0 0 200 100"');
  });

  it('is deterministic: same input and parameters give byte-identical SVG', () => {
    const image = drawShape(64, 64, WHITE, [
      { color: RED, inside: disc(30, 30, 20) },
      { color: BLUE, inside: rect(40, 40, 60, 60) },
    ]);
    const a = writeSvg(traceImage(image, params()));
    const b = writeSvg(traceImage(image, params()));
    expect(a).toBe(b);
  });

  it('rejects an empty image and bad parameters with API error codes', () => {
    expect(() => traceImage({ width: 0, height: 0, data: new Uint8Array(0) }, params())).toThrow(expect.objectContaining({ code: 1006 }));
    const image = drawCells([[0]], [WHITE], 4);
    expect(() => traceImage(image, params({ maxColors: 300 }))).toThrow(expect.objectContaining({ code: 1019 }));
  });
});

describe('parameterized shape switches', () => {
  const image = drawShape(80, 80, WHITE, [{ color: RED, inside: disc(40, 40, 28) }]);
  const arcsOf = (r: TraceResult) => r.chains.flatMap((c) => c.segments.toSegments()).filter((s) => s.kind === 'arc');

  it('writes a clean disc as circular arcs by default', () => {
    expect(arcsOf(traceImage(image, params())).length).toBeGreaterThan(0);
  });

  it('turns circle detection off with processing.parameterizedShapes.ellipse.circle.enabled=false', () => {
    const off = params({ parameterizedShapes: { ...DEFAULT_ENGINE_PARAMS.parameterizedShapes, ellipseCircle: false } });
    expect(arcsOf(traceImage(image, off))).toHaveLength(0);
  });
});

describe('elliptical arcs', () => {
  const angle = (30 * Math.PI) / 180;
  const inside = (x: number, y: number) => {
    const dx = x - 60.4;
    const dy = y - 50.2;
    const u = dx * Math.cos(angle) + dy * Math.sin(angle);
    const v = -dx * Math.sin(angle) + dy * Math.cos(angle);
    return (u / 40) ** 2 + (v / 22) ** 2 <= 1;
  };
  const image = drawShape(120, 100, WHITE, [{ color: BLUE, inside }]);

  it('traces a rotated anti-aliased ellipse as elliptical arcs with its true axes', () => {
    const result = traceImage(image, params());
    const arcs = result.chains.flatMap((c) => c.segments.toSegments()).filter((s) => s.kind === 'arc');
    expect(arcs.length).toBe(2);
    for (const arc of arcs) {
      if (arc.kind !== 'arc') continue;
      expect(Math.abs(arc.rx - 40) / 40).toBeLessThan(0.02);
      expect(Math.abs(arc.ry - 22) / 22).toBeLessThan(0.02);
      expect(Math.abs(arc.rotationDeg - 30)).toBeLessThan(1.5);
    }
  });

  it('turns ellipse detection off with processing.parameterizedShapes.ellipse.general.enabled=false', () => {
    const off = params({ parameterizedShapes: { ...DEFAULT_ENGINE_PARAMS.parameterizedShapes, ellipseGeneral: false } });
    expect(traceImage(image, off).chains.flatMap((c) => c.segments.toSegments()).filter((s) => s.kind === 'arc')).toHaveLength(0);
  });
});

describe('corners', () => {
  it('traces an anti-aliased five-pointed star as straight sides meeting at sharp corners', () => {
    const cx = 60.3;
    const cy = 58.6;
    const vertices: [number, number][] = [];
    for (let k = 0; k < 10; k++) {
      const r = k % 2 === 0 ? 48 : 19;
      const a = -Math.PI / 2 + (k * Math.PI) / 5 + 0.1;
      vertices.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
    }
    const inside = (x: number, y: number) => {
      let hit = false;
      for (let i = 0, j = vertices.length - 1; i < vertices.length; j = i++) {
        const [xi, yi] = vertices[i]!;
        const [xj, yj] = vertices[j]!;
        if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) hit = !hit;
      }
      return hit;
    };
    const result = traceImage(drawShape(120, 120, WHITE, [{ color: RED, inside }]), params());
    const star = shapeOfColor(result, RED)[0]!;
    const segments = star.outer.flatMap((u) => result.chains[u.chain]!.segments.toSegments());
    expect(segments.every((s) => s.kind === 'line')).toBe(true);
    expect(segments.length).toBeGreaterThanOrEqual(10);
    // Ten sides, plus at most a few extra vertices where a sub-pixel tip meets a junction.
    expect(segments.length).toBeLessThanOrEqual(14);
    // Every true vertex, tips included, has a traced corner within 0.75 px.
    const ends = segments.map((s) => [s.x, s.y] as const);
    for (const [vx, vy] of vertices) expect(Math.min(...ends.map(([x, y]) => Math.hypot(x - vx, y - vy)))).toBeLessThan(0.75);
  });
});

describe('curve economy', () => {
  it('a smooth S-curve sampled every pixel is a few curves within the tolerance, not a curve per wiggle', () => {
    // 600 samples of y = 20·sin(x/40) with ±0.1 px jitter (what coverage samples look like).
    const n = 600;
    const points = new Float64Array(n * 2);
    for (let i = 0; i < n; i++) {
      points[i * 2] = i;
      points[i * 2 + 1] = 50 + 20 * Math.sin(i / 40) + 0.1 * Math.sin(i * 2.3);
    }
    const fitted = fitChain(new FitScratch(), points, false, { tolerancePx: 0.3, cornerAngleDeg: 45, detectCircles: false, detectEllipses: false });
    // About five half-waves: Schneider's splits at the worst sample alone gave 11 pieces.
    expect(fitted.segments.length).toBeLessThanOrEqual(8);
    const chain = { startX: fitted.startX, startY: fitted.startY, segments: fitted.segments, leftRegion: 0, rightRegion: -1, closed: false };
    const curve = sampleChain(chain, 1000);
    for (let i = 0; i < n; i++) {
      let nearest = Infinity;
      for (const [x, y] of curve) nearest = Math.min(nearest, Math.hypot(x - points[i * 2]!, y - points[i * 2 + 1]!));
      expect(nearest).toBeLessThan(0.3 + 0.05);
    }
  });
});

describe('hostile input', () => {
  it('random 64-colour noise is traced as photo texture, not one shape per pixel', () => {
    const size = 400;
    let seed = 3;
    const next = (): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const colors = Array.from({ length: 64 }, () => [next() * 255, next() * 255, next() * 255].map(Math.floor));
    const data = new Uint8Array(size * size * 4);
    for (let i = 0; i < size * size; i++) data.set([...colors[Math.floor(next() * 64)]!, 255], i * 4);
    const result = traceImage({ width: size, height: size, data }, params());
    expect(result.stats.profile).toBe('photo');
    // Pixel for pixel it would be ~155,000 shapes.
    expect(result.shapes.length).toBeLessThan(20_000);
  });
});

describe('scanned line art', () => {
  it('blurred ink on tinted paper with noise is one ink colour, not a dark core inside a lighter rim', () => {
    const width = 200;
    const height = 120;
    const ink: Rgb = [30, 28, 20];
    const paper: Rgb = [243, 241, 232];
    // Strokes: a ring and two bars, anti-aliased, then a 3 × 3 blur and seeded noise (a scan).
    // Letter-sized strokes, 2.4 px wide: small rings ("o") and bars ("l"), three rows of them.
    const strokes: { color: Rgb; inside: (x: number, y: number) => boolean }[] = [];
    for (let row = 0; row < 3; row++) {
      for (let col = 0; col < 8; col++) {
        const cx = 14 + col * 24;
        const cy = 20 + row * 38;
        strokes.push({ color: ink, inside: (x, y) => Math.abs(Math.hypot(x - cx, y - cy) - 7) < 1.2 });
        strokes.push({ color: ink, inside: rect(cx + 9.3, cy - 14, cx + 11.7, cy + 8) });
      }
    }
    const sharp = drawShape(width, height, paper, strokes);
    let seed = 9;
    const next = (): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const blur = (src: Uint8Array | Uint8ClampedArray, noise: number): Uint8Array => {
      const out = new Uint8Array(width * height * 4);
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const n = (next() + next() + next() - 1.5) * noise;
          for (let k = 0; k < 3; k++) {
            let sum = 0;
            let weight = 0;
            for (let dy = -1; dy <= 1; dy++) {
              for (let dx = -1; dx <= 1; dx++) {
                const xx = Math.min(width - 1, Math.max(0, x + dx));
                const yy = Math.min(height - 1, Math.max(0, y + dy));
                const w = (dx === 0 ? 2 : 1) * (dy === 0 ? 2 : 1);
                sum += src[(yy * width + xx) * 4 + k]! * w;
                weight += w;
              }
            }
            out[(y * width + x) * 4 + k] = Math.max(0, Math.min(255, Math.round(sum / weight + n)));
          }
          out[(y * width + x) * 4 + 3] = 255;
        }
      }
      return out;
    };
    // The page lies a little askew (1.2°, bilinear), the optics blur, noise comes last.
    const turned = new Uint8Array(width * height * 4);
    const angle = (1.2 * Math.PI) / 180;
    const at = (x: number, y: number, k: number): number => sharp.data[(Math.min(height - 1, Math.max(0, y)) * width + Math.min(width - 1, Math.max(0, x))) * 4 + k]!;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const sx = (x - width / 2) * Math.cos(angle) - (y - height / 2) * Math.sin(angle) + width / 2;
        const sy = (x - width / 2) * Math.sin(angle) + (y - height / 2) * Math.cos(angle) + height / 2;
        const x0 = Math.floor(sx);
        const y0 = Math.floor(sy);
        const fx = sx - x0;
        const fy = sy - y0;
        for (let k = 0; k < 3; k++) {
          turned[(y * width + x) * 4 + k] = Math.round(
            (1 - fx) * (1 - fy) * at(x0, y0, k) + fx * (1 - fy) * at(x0 + 1, y0, k) + (1 - fx) * fy * at(x0, y0 + 1, k) + fx * fy * at(x0 + 1, y0 + 1, k),
          );
        }
        turned[(y * width + x) * 4 + 3] = 255;
      }
    }
    const scanned = blur(turned, 6);
    // Saved as a JPEG, as scans are.
    const decoded = jpeg.decode(jpeg.encode({ width, height, data: Buffer.from(scanned) }, 85).data, { useTArray: true, formatAsRGBA: true });
    const result = traceImage({ width, height, data: decoded.data }, params());
    expect(result.stats.colors).toBe(2);
  });
});
