// Run with: node --test bench/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ciede2000,
  srgbToLab,
  ssim,
  psnr,
  meanDeltaE2000,
  gapPercent,
  flattenOver,
  compareImages,
  bandEdges,
} from './metrics.mjs';
import { countGradients, countPathNodes, svgStats } from './svgstats.mjs';

function image(width, height, fill) {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b, a = 255] = fill(x, y);
      const o = (y * width + x) * 4;
      data[o] = r; data[o + 1] = g; data[o + 2] = b; data[o + 3] = a;
    }
  }
  return { width, height, data };
}

// Sharma, Wu & Dalal (2005), Table 1: all 34 published test pairs.
const SHARMA = [
  [[50.0, 2.6772, -79.7751], [50.0, 0.0, -82.7485], 2.0425],
  [[50.0, 3.1571, -77.2803], [50.0, 0.0, -82.7485], 2.8615],
  [[50.0, 2.8361, -74.02], [50.0, 0.0, -82.7485], 3.4412],
  [[50.0, -1.3802, -84.2814], [50.0, 0.0, -82.7485], 1.0],
  [[50.0, -1.1848, -84.8006], [50.0, 0.0, -82.7485], 1.0],
  [[50.0, -0.9009, -85.5211], [50.0, 0.0, -82.7485], 1.0],
  [[50.0, 0.0, 0.0], [50.0, -1.0, 2.0], 2.3669],
  [[50.0, -1.0, 2.0], [50.0, 0.0, 0.0], 2.3669],
  [[50.0, 2.49, -0.001], [50.0, -2.49, 0.0009], 7.1792],
  [[50.0, 2.49, -0.001], [50.0, -2.49, 0.001], 7.1792],
  [[50.0, 2.49, -0.001], [50.0, -2.49, 0.0011], 7.2195],
  [[50.0, 2.49, -0.001], [50.0, -2.49, 0.0012], 7.2195],
  [[50.0, -0.001, 2.49], [50.0, 0.0009, -2.49], 4.8045],
  [[50.0, -0.001, 2.49], [50.0, 0.001, -2.49], 4.8045],
  [[50.0, -0.001, 2.49], [50.0, 0.0011, -2.49], 4.7461],
  [[50.0, 2.5, 0.0], [50.0, 0.0, -2.5], 4.3065],
  [[50.0, 2.5, 0.0], [73.0, 25.0, -18.0], 27.1492],
  [[50.0, 2.5, 0.0], [61.0, -5.0, 29.0], 22.8977],
  [[50.0, 2.5, 0.0], [56.0, -27.0, -3.0], 31.903],
  [[50.0, 2.5, 0.0], [58.0, 24.0, 15.0], 19.4535],
  [[50.0, 2.5, 0.0], [50.0, 3.1736, 0.5854], 1.0],
  [[50.0, 2.5, 0.0], [50.0, 3.2972, 0.0], 1.0],
  [[50.0, 2.5, 0.0], [50.0, 1.8634, 0.5757], 1.0],
  [[50.0, 2.5, 0.0], [50.0, 3.2592, 0.335], 1.0],
  [[60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387], 1.2644],
  [[63.0109, -31.0961, -5.8663], [62.8187, -29.7946, -4.0864], 1.263],
  [[61.2901, 3.7196, -5.3901], [61.4292, 2.248, -4.962], 1.8731],
  [[35.0831, -44.1164, 3.7933], [35.0232, -40.0716, 1.5901], 1.8645],
  [[22.7233, 20.0904, -46.694], [23.0331, 14.973, -42.5619], 2.0373],
  [[36.4612, 47.858, 18.3852], [36.2715, 50.5065, 21.2231], 1.4146],
  [[90.8027, -2.0831, 1.441], [91.1528, -1.6435, 0.0447], 1.4441],
  [[90.9257, -0.5406, -0.9208], [88.6381, -0.8985, -0.7239], 1.5381],
  [[6.7747, -0.2908, -2.4247], [5.8714, -0.0985, -2.2286], 0.6377],
  [[2.0776, 0.0795, -1.135], [0.9033, -0.0636, -0.5514], 0.9082],
];

test('CIEDE2000 matches all 34 Sharma (2005) test pairs to 4 decimals', () => {
  for (const [[L1, a1, b1], [L2, a2, b2], want] of SHARMA) {
    const got = ciede2000(L1, a1, b1, L2, a2, b2);
    assert.equal(got.toFixed(4), want.toFixed(4), `pair ${[L1, a1, b1]} / ${[L2, a2, b2]}: got ${got}`);
    const rev = ciede2000(L2, a2, b2, L1, a1, b1);
    assert.ok(Math.abs(rev - got) < 1e-9, 'symmetric');
  }
  assert.equal(ciede2000(40, 10, -20, 40, 10, -20), 0);
});

test('sRGB → Lab (D65) reference points', () => {
  const [Lw, aw, bw] = srgbToLab(255, 255, 255);
  assert.ok(Math.abs(Lw - 100) < 1e-3 && Math.abs(aw) < 1e-2 && Math.abs(bw) < 1e-2);
  const [Lk] = srgbToLab(0, 0, 0);
  assert.equal(Lk, 0);
  // sRGB red ≈ (53.24, 80.09, 67.20)
  const [Lr, ar, br] = srgbToLab(255, 0, 0);
  assert.ok(Math.abs(Lr - 53.24) < 0.05 && Math.abs(ar - 80.09) < 0.1 && Math.abs(br - 67.2) < 0.1, `${Lr} ${ar} ${br}`);
});

test('SSIM: identical images give 1, different images less', () => {
  const a = image(40, 30, (x, y) => [(x * 7) % 256, (y * 11) % 256, (x * y) % 256]);
  assert.ok(Math.abs(ssim(a, a) - 1) < 1e-12);
  const b = image(40, 30, (x, y) => [(x * 7 + 40) % 256, (y * 11) % 256, (x * y) % 256]);
  const s = ssim(a, b);
  assert.ok(s < 0.99 && s > -1, `ssim ${s}`);
  // tiny images use the global fallback
  const t = image(5, 5, (x) => [x * 50, 0, 0]);
  assert.ok(Math.abs(ssim(t, t) - 1) < 1e-12);
  // flat black vs flat white: SSIM ≈ 0
  const k = image(20, 20, () => [0, 0, 0]);
  const w = image(20, 20, () => [255, 255, 255]);
  assert.ok(ssim(k, w) < 0.01);
});

test('PSNR: identical = Infinity, constant offset of 1 ≈ 48.13 dB', () => {
  const a = image(8, 8, () => [100, 100, 100]);
  const b = image(8, 8, () => [101, 101, 101]);
  assert.equal(psnr(a, a), Infinity);
  assert.ok(Math.abs(psnr(a, b) - 20 * Math.log10(255)) < 1e-9);
});

test('mean CIEDE2000: zero for identical images, exact for a uniform pair', () => {
  const a = image(6, 4, () => [200, 30, 40]);
  assert.equal(meanDeltaE2000(a, a), 0);
  const b = image(6, 4, () => [0, 0, 0]);
  const [L1, a1, b1] = srgbToLab(200, 30, 40);
  assert.ok(Math.abs(meanDeltaE2000(a, b) - ciede2000(L1, a1, b1, 0, 0, 0)) < 1e-4);
});

test('gap %: background showing through a seam in the render', () => {
  // input: 10×10 white image with a solid dark-blue 6×6 square (36 ink pixels)
  const input = image(10, 10, (x, y) => (x >= 2 && x < 8 && y >= 2 && y < 8 ? [20, 40, 120] : [255, 255, 255]));
  // render: same square but with a one-pixel white vertical seam at x = 5 (6 pixels),
  // and one pixel drawn in a slightly lighter blue (not a gap)
  const render = image(10, 10, (x, y) => {
    if (x >= 2 && x < 8 && y >= 2 && y < 8) {
      if (x === 5) return [254, 255, 255]; // near-white: ΔE to white < 3
      if (x === 2 && y === 2) return [40, 60, 140];
      return [20, 40, 120];
    }
    return [255, 255, 255];
  });
  const g = gapPercent(input, render);
  assert.equal(g.ink, 36);
  assert.equal(g.gaps, 6);
  assert.equal(g.gapPct.toFixed(3), '16.667');
  assert.equal(gapPercent(input, input).gapPct, 0);
  // ink drawn in another non-white colour is an error but not a gap
  const grey = image(10, 10, (x, y) => (x >= 2 && x < 8 && y >= 2 && y < 8 ? [128, 128, 128] : [255, 255, 255]));
  assert.equal(gapPercent(input, grey).gaps, 0);
  // no ink at all
  const white = image(4, 4, () => [255, 255, 255]);
  assert.equal(gapPercent(white, white).gapPct, 0);
});

test('bandEdges: a smooth ramp cut into flat bands counts every band edge; the ramp itself, a real edge and grain count nothing', () => {
  // 40 × 96: a vertical ramp 60 → 180 (1.26 units per px) with deterministic grain of ±6.
  let seed = 7;
  const noise = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296 - 0.5) * 12;
  const level = (y) => 60 + (120 * y) / 95;
  const ramp = image(40, 96, (x, y) => { const v = level(y); return [v + noise(), v + noise(), v + noise()]; });
  const clean = image(40, 96, (x, y) => { const v = Math.round(level(y)); return [v, v, v]; });
  // Flat bands of 12 rows: 7 band edges across 40 px.
  const banded = image(40, 96, (x, y) => { const v = Math.round(level(Math.floor(y / 12) * 12 + 6)); return [v, v, v]; });
  const e = bandEdges(ramp, banded);
  assert.equal(e.bandPx, 7 * 40);
  assert.ok(e.smoothPct > 95, `grain is smooth: ${e.smoothPct}`);
  assert.equal(bandEdges(ramp, clean).bandPx, 0);
  // A real edge (black | white halves) reproduced exactly is not a band, nor one 2 px off.
  const halves = image(40, 96, (x) => (x < 20 ? [0, 0, 0] : [255, 255, 255]));
  const shifted = image(40, 96, (x) => (x < 22 ? [0, 0, 0] : [255, 255, 255]));
  assert.equal(bandEdges(halves, halves).bandPx, 0);
  assert.equal(bandEdges(halves, shifted).bandPx, 0);
  // A step of ΔE00 ≤ 2 is not visible: 100 | 101 grey.
  const faint = image(40, 96, (x) => (x < 20 ? [100, 100, 100] : [101, 101, 101]));
  assert.equal(bandEdges(clean, faint).bandPx, 0);
});

test('flattenOver composites RGBA over white', () => {
  const a = image(2, 1, (x) => (x === 0 ? [0, 0, 0, 0] : [0, 0, 0, 128]));
  const f = flattenOver(a);
  assert.deepEqual([...f.data], [255, 255, 255, 255, 127, 127, 127, 255]);
  const m = compareImages(a, f);
  assert.equal(m.ssim.toFixed(6), '1.000000');
  assert.equal(m.psnr, Infinity);
});

test('path node counting', () => {
  assert.equal(countPathNodes('M0 0 L10 0 L10 10 Z'), 3);
  assert.equal(countPathNodes('M0,0 10,0 10,10 z'), 3); // implicit lineto
  assert.equal(countPathNodes('m1-2.5.5.5h3v4'), 4); // packed numbers
  assert.equal(countPathNodes('M0 0C1 1 2 2 3 3 4 4 5 5 6 6Z'), 3); // implicit repeat of C
  assert.equal(countPathNodes('M0 0 S1 1 2 2 Q1 1 2 2 T3 3'), 4);
  assert.equal(countPathNodes('M10 10a5 5 0 1 0 10 0A5 5 0 0010 0'), 3); // packed arc flags
  assert.equal(countPathNodes('M1e2 1E-1 L 2e+1,3'), 2);
  assert.equal(countPathNodes(''), 0);
});

test('svgStats counts drawn elements and nodes', () => {
  const svg = `<?xml version="1.0"?><!-- <path d="M0 0 L1 1"/> -->
<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">
<defs><path id="p" d="M0 0 L5 5"/></defs>
<rect width="10" height="10" fill="#fff"/>
<path d="M0 0 L5 0 L5 5 Z" fill="red"/>
<path fill="blue" d='M1 1 C2 2 3 3 4 4'/>
<circle cx="1" cy="1" r="1"/><ellipse cx="1" cy="1" rx="1" ry="2"/>
<polygon points="0,0 1,0 1,1"/><polyline points="0 0 1 1"/>
<g><pathx/></g>
</svg>`;
  assert.deepEqual(svgStats(svg), { paths: 7, nodes: 1 + 3 + 2 + 1 + 1 + 3 + 2, gradients: 0 });
});

test('countGradients counts linear and radial gradient elements outside comments', () => {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg"><!-- <linearGradient id="x"/> -->
<defs><linearGradient id="a"><stop offset="0"/></linearGradient>
<radialGradient id="b" xlink:href="#a"/><svg:linearGradient id="c"/></defs>
<rect fill="url(#b)" width="1" height="1"/><linearGradientX/><text>linearGradient</text></svg>`;
  assert.equal(countGradients(svg), 3);
  assert.equal(svgStats(svg).gradients, 3);
  assert.equal(countGradients('<svg><path d="M0 0"/></svg>'), 0);
});
