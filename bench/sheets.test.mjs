// Run with: node --test bench/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pixelDifference, sheetColumns, sheetSvg, worstWindow } from './sheets.mjs';

test('worstWindow: the window holding the largest difference, not the single largest pixel', () => {
  const [w, h] = [20, 12];
  const diff = new Float64Array(w * h);
  diff[1 * w + 1] = 50; // one loud pixel top left
  for (let y = 6; y < 10; y++) for (let x = 12; x < 16; x++) diff[y * w + x] = 10; // a quieter 4×4 patch (160 in all)
  assert.deepEqual(worstWindow(diff, w, h, 4), { x: 12, y: 6, size: 4, score: 160 });
  // a window of 6 takes in the whole patch; the first such window in raster order wins
  assert.deepEqual(worstWindow(diff, w, h, 6), { x: 10, y: 4, size: 6, score: 160 });
});

test('worstWindow: clamped to a picture smaller than the window, and first in raster order when nothing differs', () => {
  assert.deepEqual(worstWindow(new Float64Array(3 * 2).fill(1), 3, 2, 48), { x: 0, y: 0, size: 2, score: 4 });
  assert.deepEqual(worstWindow(new Float64Array(10 * 10), 10, 10, 4), { x: 0, y: 0, size: 4, score: 0 });
});

test('pixelDifference: the sum of the channel differences, alpha ignored', () => {
  const a = { width: 2, height: 1, data: new Uint8Array([10, 20, 30, 255, 0, 0, 0, 255]) };
  const b = { width: 2, height: 1, data: new Uint8Array([13, 16, 30, 0, 0, 0, 0, 255]) };
  assert.deepEqual([...pixelDifference(a, b)], [7, 0]);
});

test('sheetColumns: stroke rows only for the stroke kind, the artist only where there is an SVG', () => {
  assert.deepEqual(sheetColumns('gradient', true).map((c) => c.label), ['Tracelab default', 'tracelab.gradients=true', 'VTracer', "artist's SVG"]);
  assert.deepEqual(sheetColumns('smooth_photo', false).map((c) => c.label), ['Tracelab default', 'tracelab.gradients=true', 'VTracer']);
  assert.deepEqual(sheetColumns('stroke', true).map((c) => c.tracelab?.join(' ')),
    ['', 'tracelab.gradients=true', 'tracelab.strokes=auto', 'tracelab.strokes=centerline', undefined, undefined]);
});

test('sheetSvg: each column labelled with its figures, its worst window marked and zoomed from the same window', () => {
  const svg = sheetSvg('t', { width: 100, height: 50, png: Buffer.from('x') }, [
    { label: 'Tracelab default', svg: '<svg/>', ssim: 0.98765, gzip: 2345, paths: 12, worst: { x: 10, y: 20, size: 48, score: 5 } },
    { label: 'VTracer', error: 'boom' },
  ]);
  assert.match(svg, /SSIM 0\.9877 · 2\.3 kB gz · 12 paths/);
  assert.match(svg, /worst at 10,20/);
  assert.match(svg, /failed: boom/);
  // the zoom of the input and of the render both shift the picture by the window's corner × 3
  assert.equal((svg.match(/<image x="[\d.]+" y="[\d.]+" width="300" height="150"/g) ?? []).length, 2);
});
