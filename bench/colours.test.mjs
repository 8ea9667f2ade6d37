// Run with: node --test bench/
// bench/colours.mjs on pictures and SVGs drawn here: a lost colour is found, a kept one is not; a
// drifting shape is found; shapes under 1 and 4 px² are counted from their geometry.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkImage, dominantColours, pathArea } from './colours.mjs';

/** 40 × 40 white picture with an exact-colour square (10..30) of `rgb`. */
function squarePicture(rgb) {
  const width = 40;
  const height = 40;
  const data = new Uint8Array(width * height * 4).fill(255);
  for (let y = 10; y < 30; y++) for (let x = 10; x < 30; x++) data.set(rgb, (y * width + x) * 4);
  return { width, height, data };
}

const svg = (body) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><path fill="#fff" d="M0 0h40v40h-40z"/>${body}</svg>`;

test('path areas: a square, a square with a hole, a circle drawn with arcs', () => {
  assert.equal(pathArea('M10 10h20v20h-20z'), 400);
  assert.equal(pathArea('M10 10h20v20h-20zM15 15h10v10h-10z'), 300);
  assert.ok(Math.abs(pathArea('m20 10a10 10 0 0 1 0 20 10 10 0 0 1 0-20z') - Math.PI * 100) < 3); // 32 chords: 312
});

test('dominant colours: the square and the paper, each with its interior pixels', () => {
  const colours = dominantColours(squarePicture([232, 232, 0]));
  assert.deepEqual(colours.map((c) => c.key.toString(16)), ['ffffff', 'e8e800']);
  assert.equal(colours[1].interior.length, 18 * 18);
});

test('a square traced in its own colour: nothing lost, nothing drifts', () => {
  const r = checkImage(squarePicture([232, 232, 0]), svg('<path fill="#e8e800" d="M10 10h20v20h-20z"/>'));
  assert.deepEqual(r.lost, []);
  assert.deepEqual(r.drift, []);
  assert.equal(r.shapes, 2);
});

test('a square traced in a darker yellow (#cccc00, ΔE00 > 5 from #e8e800) is lost and drifts', () => {
  const r = checkImage(squarePicture([232, 232, 0]), svg('<path fill="#cccc00" d="M10 10h20v20h-20z"/>'));
  assert.equal(r.lost.length, 1);
  assert.equal(r.lost[0].hex, '#e8e800');
  assert.equal(r.drift.length, 1);
  assert.equal(r.drift[0].fill, '#cccc00');
});

test('crumbs: shapes under 1 px² and under 4 px² are counted', () => {
  const r = checkImage(squarePicture([232, 232, 0]), svg('<path fill="#e8e800" d="M10 10h20v20h-20z"/><path fill="#000" d="M2 2h.5v1h-.5z"/><path fill="#000" d="M5 2h1.5v2h-1.5z"/>'));
  assert.equal(r.under1, 1);
  assert.equal(r.under4, 2);
});
