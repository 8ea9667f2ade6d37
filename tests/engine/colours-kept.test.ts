/**
 * Issue 39 items 1–2 on fixtures drawn here: two flat colours a few ΔE00 apart both keep their
 * shapes and their exact colours; a palette rule for one of them is honoured; an anti-aliased edge
 * is two shapes and no crumbs, also in two-tone art the profile calls line art (traced as flat).
 */
import { describe, expect, it } from 'vitest';
import { deltaE2000, rgbToLab } from '../../src/engine/color.js';
import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import type { EngineParams, TraceResult } from '../../src/engine/types.js';
import { disc, drawShape, rect, type Rgb } from '../helpers/raster.js';
import { planVectorize, runVectorize } from '../../src/api/pipeline.js';
import { renderSvgWithResvg } from '../helpers/compare.js';
import { encodePng } from '../helpers/encode.js';

const WHITE: Rgb = [255, 255, 255];
const hex = (c: { r: number; g: number; b: number }) => [c.r, c.g, c.b].map((v) => v.toString(16).padStart(2, '0')).join('');

/** Pixel area per fill colour (hex). */
function areasByFill(result: TraceResult): Map<string, number> {
  const areas = new Map<string, number>();
  for (const s of result.shapes) areas.set(hex(s.color), (areas.get(hex(s.color)) ?? 0) + s.areaPx);
  return areas;
}

function deltaE00(a: Rgb, b: Rgb): number {
  const lab = new Float64Array(6);
  rgbToLab(a[0], a[1], a[2], lab, 0);
  rgbToLab(b[0], b[1], b[2], lab, 3);
  return deltaE2000(lab, 0, lab, 1);
}

// A blue body and its shadow tone 4.6 ΔE00 darker, each far over 0.5 % of the picture.
const BODY: Rgb = [0x3a, 0x7b, 0xd5];
const SHADOW: Rgb = [0x2f, 0x6f, 0xc6];
const bodyAndShadow = () =>
  drawShape(160, 160, WHITE, [
    { color: BODY, inside: disc(80, 80, 64) },
    { color: SHADOW, inside: (x, y) => disc(80, 80, 64)(x, y) && !disc(60, 62, 60)(x, y) },
  ]);

describe('flat colours a few ΔE00 apart', () => {
  it('both keep their shapes, filled with their own exact colours', () => {
    const difference = deltaE00(BODY, SHADOW);
    expect(difference).toBeGreaterThan(3);
    expect(difference).toBeLessThan(6);
    const areas = areasByFill(traceImage(bodyAndShadow(), DEFAULT_ENGINE_PARAMS));
    expect([...areas.keys()].sort()).toEqual(['2f6fc6', '3a7bd5', 'ffffff']);
    // Each about its drawn area (the crescent ≈ 3,500 px, the rest of the disc ≈ 9,300 px).
    expect(areas.get('2f6fc6')).toBeGreaterThan(3000);
    expect(areas.get('3a7bd5')).toBeGreaterThan(8500);
  });

  it('a palette rule for the shadow tone is honoured and does not catch the body', () => {
    // ARGB distance body → shadow is 0.08: a rule of tolerance 0.03 is the shadow's alone.
    const params: EngineParams = { ...DEFAULT_ENGINE_PARAMS, palette: [{ color: { r: SHADOW[0], g: SHADOW[1], b: SHADOW[2], a: 255 }, remap: { r: 255, g: 0, b: 0, a: 255 }, tolerance: 0.03 }] };
    const areas = areasByFill(traceImage(bodyAndShadow(), params));
    expect([...areas.keys()].sort()).toEqual(['3a7bd5', 'ff0000', 'ffffff']);
    expect(areas.get('ff0000')).toBeGreaterThan(3000);
  });
});

describe('a grey tone in grey art', () => {
  it('thin bars of an exact grey inside the ink (1.4 % of the picture) keep their colour', () => {
    // #525252 lies on the line from the ink #3f3f3f to the paper, a little way along: the shape of
    // a blurred ink's rim; but it is one exact colour over 360 px, a third of it inside its own.
    const image = drawShape(160, 160, WHITE, [
      { color: [0x3f, 0x3f, 0x3f], inside: disc(80, 80, 60) },
      { color: [0x52, 0x52, 0x52], inside: rect(50, 60, 110, 63) },
      { color: [0x52, 0x52, 0x52], inside: rect(50, 97, 110, 100) },
    ]);
    const areas = areasByFill(traceImage(image, DEFAULT_ENGINE_PARAMS));
    expect([...areas.keys()].sort()).toEqual(['3f3f3f', '525252', 'ffffff']);
    // 360 px drawn; a few anti-aliased pixels at the disc's rim take the grey too (376).
    expect(Math.abs(areas.get('525252')! - 360)).toBeLessThanOrEqual(20);
  });
});

describe('anti-aliased edges belong to the edge', () => {
  it('a slanted edge between two colours is two shapes, no crumb', () => {
    const image = drawShape(120, 90, [200, 40, 40], [{ color: [30, 90, 200], inside: (x, y) => y > 20 + x * 0.37 }]);
    const result = traceImage(image, DEFAULT_ENGINE_PARAMS);
    expect(result.shapes.length).toBe(2);
    expect(result.stats.smallShapes).toBeUndefined();
  });


  it('two-tone art with blends (profile line art, traced as flat): no shapes of a few pixels', () => {
    // A dark rounded frame and ring with a mid-grey bar and a light-grey bar: the picture is 92 %
    // dark and white, so the profile says line art; its anti-aliasing took the mid grey's label
    // in 1-px crumbs around every curve (76 of 84 shapes) before edge crumbs joined a darker neighbour.
    const dark: Rgb = [0x33, 0x33, 0x33];
    const rounded = (x0: number, y0: number, x1: number, y1: number, r: number) => (x: number, y: number) => {
      if (!rect(x0, y0, x1, y1)(x, y)) return false;
      const cx = x < x0 + r ? x0 + r : x > x1 - r ? x1 - r : x;
      const cy = y < y0 + r ? y0 + r : y > y1 - r ? y1 - r : y;
      return disc(cx, cy, r)(x, y);
    };
    const image = drawShape(200, 200, WHITE, [
      { color: dark, inside: (x, y) => rounded(20, 20, 180, 180, 24)(x, y) && !rounded(26, 26, 174, 174, 18)(x, y) },
      { color: dark, inside: (x, y) => disc(100, 100, 50)(x, y) && !disc(100, 100, 45)(x, y) },
      { color: [0x4c, 0x4c, 0x4c], inside: rect(90.3, 60.3, 110.3, 140.3) },
      { color: [0xb3, 0xb3, 0xb3], inside: rect(60.5, 95.5, 140.5, 105.5) },
    ]);
    const result = traceImage(image, DEFAULT_ENGINE_PARAMS);
    expect(result.stats.profile).toBe('lineart');
    expect(result.stats.smallShapes).toBeUndefined();
    expect(Math.min(...result.shapes.map((s) => s.areaPx))).toBeGreaterThan(100);
    expect(result.shapes.length).toBe(8);
  });

  it('a 0.9-px hairline (profile line art, traced as flat; no pixel reaches the ink) is drawn whole: its ink is found, its pale pieces join the ink, never the paper', async () => {
    // A 0.9-px arc anti-aliased over white: its pixels are a dozen greys, most pieces under 4 px,
    // none flat. Merged into the nearest colour, pale pieces become paper and the arc dashed.
    const arc = (x: number, y: number) => Math.abs(Math.hypot(x - 20, y - 150) - 120) < 0.45 && x > 24 && y < 146;
    const image = drawShape(160, 160, WHITE, [{ color: [0x20, 0x20, 0x20], inside: arc }]);
    const result = traceImage(image, DEFAULT_ENGINE_PARAMS);
    expect(result.stats.profile).toBe('lineart');
    const svg = new TextDecoder().decode((await runVectorize(planVectorize([['output.file_format', 'svg']]), encodePng(image))).body);
    const drawn = renderSvgWithResvg(svg, 160);
    // Every input pixel the arc darkens by 40+ is darkened by 20+ in the render: no gap.
    let inked = 0;
    let gaps = 0;
    for (let i = 0; i < 160 * 160; i++) {
      if (image.data[i * 4]! > 255 - 40) continue;
      inked++;
      if (drawn.data[i * 4]! > 255 - 20) gaps++;
    }
    // Before the faint-ink palette every one of them was a gap (the arc was traced as a blank page).
    expect(inked).toBeGreaterThan(250);
    expect(gaps).toBeLessThanOrEqual(2);
  });

  it('a dot left under 4 px is counted with its kind', () => {
    const image = drawShape(120, 90, [200, 40, 40], [{ color: [30, 90, 200], inside: (x, y) => y > 20 + x * 0.37 }]);
    // A 2-px dot of white inside the red: a feature, not a crumb.
    image.data.set([255, 255, 255, 255, 255, 255, 255, 255], (8 * 120 + 60) * 4);
    const result = traceImage(image, DEFAULT_ENGINE_PARAMS);
    expect(result.stats.smallShapes).toBe(1);
    expect(result.stats.smallShapeKinds).toEqual({ dots: 1 });
  });
});
