// node --test bench/ : the derived kinds of issue 27 (1-bit line art, small photos), the element
// counter and the primitive-family counter they are reported with.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decode as decodePng } from 'fast-png';
import {
  areaDownscale, bilevelMask, bilevelPbm, bilevelPng, deriveImages, lineArtSubkind, sizeWithLongSide,
} from './derived.mjs';
import { drawnElements } from './svgstats.mjs';
import { familyCounts } from './tracelab-facts.mjs';

/** RGBA image from a list of [r, g, b, a] pixels. */
const image = (width, height, pixels) => ({ width, height, data: Uint8ClampedArray.from(pixels.flat()) });

test('bilevelMask: luma < 128 is black, alpha composited over white first', () => {
  const img = image(5, 1, [
    [127, 127, 127, 255], // luma 127: black
    [129, 129, 129, 255], // luma 129: white (a grey of 128 sums to 127.99999999999999 in floating point: black)
    [0, 0, 0, 0], // transparent black: white
    [0, 0, 0, 200], // mostly opaque black: 255 × 55/255 = 55 → black
    [255, 0, 0, 255], // red: luma 76.2 → black
  ]);
  assert.deepEqual([...bilevelMask(img)], [1, 0, 0, 1, 1]);
});

test('bilevelPbm: P4 header and rows packed MSB first, 1 = black, padded to whole bytes', () => {
  // 9 × 2: row 0 black at x = 0 and 8, row 1 all white
  const px = [];
  for (let y = 0; y < 2; y++) for (let x = 0; x < 9; x++) px.push(y === 0 && (x === 0 || x === 8) ? [0, 0, 0, 255] : [255, 255, 255, 255]);
  const pbm = bilevelPbm(image(9, 2, px));
  const header = Buffer.from('P4\n9 2\n');
  assert.deepEqual(pbm.subarray(0, header.length), header);
  assert.deepEqual([...pbm.subarray(header.length)], [0x80, 0x80, 0, 0]);
});

test('bilevelPng: a 1-bit grayscale PNG holding the same black pixels (0 = black)', () => {
  const px = [];
  for (let i = 0; i < 30; i++) px.push(i % 3 === 0 ? [20, 20, 20, 255] : [200, 200, 200, 255]);
  const img = image(10, 3, px);
  const png = decodePng(bilevelPng(img));
  assert.equal(png.depth, 1);
  assert.equal(png.channels, 1);
  const rowBytes = 2;
  const black = [];
  for (let y = 0; y < 3; y++) for (let x = 0; x < 10; x++) black.push((png.data[y * rowBytes + (x >> 3)] >> (7 - (x & 7))) & 1 ? 0 : 1);
  assert.deepEqual(black, [...bilevelMask(img)]);
});

test('areaDownscale: whole blocks are averaged', () => {
  // 4 × 2 → 2 × 1: each output pixel the mean of a 2 × 2 block
  const img = image(4, 2, [[0, 0, 0, 255], [100, 100, 100, 255], [200, 0, 0, 255], [200, 0, 0, 255],
    [100, 100, 100, 255], [200, 200, 200, 255], [0, 0, 200, 255], [0, 0, 200, 255]]);
  const out = areaDownscale(img, 2, 1);
  assert.deepEqual([...out.data], [100, 100, 100, 255, 100, 0, 100, 255]);
});

test('areaDownscale: partial pixels weigh by the area they cover; transparency over white', () => {
  // 3 × 1 → 2 × 1: output 0 covers pixel 0 and half of pixel 1, output 1 the other half and pixel 2
  const img = image(3, 1, [[0, 0, 0, 255], [90, 90, 90, 255], [255, 255, 255, 0]]);
  const out = areaDownscale(img, 2, 1);
  assert.deepEqual([...out.data], [30, 30, 30, 255, 200, 200, 200, 255]);
});

test('sizeWithLongSide keeps the aspect and the long side', () => {
  assert.deepEqual(sizeWithLongSide(600, 400, 96), [96, 64]);
  assert.deepEqual(sizeWithLongSide(512, 600, 128), [109, 128]);
  assert.deepEqual(sizeWithLongSide(1000, 1, 96), [96, 1]);
});

test('lineArtSubkind: scans first, then text, else drawings', () => {
  assert.equal(lineArtSubkind({ id: 'scan-text-serif', note: 'scanned paragraph text' }), 'scan');
  assert.equal(lineArtSubkind({ id: 'scan-wing', note: 'scanned-looking line art' }), 'scan');
  assert.equal(lineArtSubkind({ id: 'text-mono-small', note: 'small monospace 13 px' }), 'text');
  assert.equal(lineArtSubkind({ id: 'text-sans-22', note: 'paragraph text, 22px' }), 'text');
  assert.equal(lineArtSubkind({ id: 'recycle-box', note: 'B/W, includes lettering' }), 'drawing');
  assert.equal(lineArtSubkind({ id: 'owl', note: 'hatched engraving style' }), 'drawing');
});

test('drawnElements counts drawn elements by name, outside comments and <defs>', () => {
  const svg = '<svg><defs><rect width="1" height="1"/></defs><!-- <circle r="1"/> -->'
    + '<rect x="0" width="2" height="2"/><circle r="3"/><ellipse rx="1" ry="2"/><path d="M0 0L1 1"/><polygon points="0,0 1,0 1,1"/><RECT/></svg>';
  assert.deepEqual(drawnElements(svg), { path: 1, circle: 1, ellipse: 1, rect: 2, polygon: 1, polyline: 0 });
});

test('familyCounts counts shapes by primitive family, every family present', () => {
  const shapes = [{ primitive: { family: 'star' } }, {}, { primitive: { family: 'circle' } }, { primitive: { family: 'star' } }];
  assert.deepEqual(familyCounts(shapes), { circle: 1, ellipse: 0, rectangle: 0, quadrilateral: 0, bullet: 0, triangle: 0, star: 2 });
});

test('deriveImages: a 1-bit copy per line-art image, small photos only below the original size', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-derived-'));
  const readOut = (name) => readFileSync(join(dir, name));
  try {
    const grey = (w, h, v) => image(w, h, Array.from({ length: w * h }, () => [v, v, v, 255]));
    const pictures = {
      '/c/lineart_bw-a.png': image(2, 2, [[0, 0, 0, 255], [255, 255, 255, 255], [255, 255, 255, 255], [200, 200, 200, 255]]),
      '/c/photo-big.png': grey(300, 200, 90),
      '/c/photo-small.png': grey(100, 128, 90),
    };
    const images = [
      { file: 'lineart_bw-a.png', category: 'lineart_bw', id: 'a', reference_svg: 'lineart_bw-a.ref.svg', note: 'drawing' },
      { file: 'photo-big.png', category: 'photo', id: 'big' },
      { file: 'photo-small.png', category: 'photo', id: 'small' },
      { file: 'clipart-x.png', category: 'clipart', id: 'x' },
    ];
    const out = deriveImages('/c', images, dir, (f) => pictures[f]);
    assert.deepEqual(out.map((x) => [x.category, x.id, x.width, x.height]), [
      ['lineart_bilevel', 'a', 2, 2],
      ['photo_small', 'big-96', 96, 64], ['photo_small', 'big-128', 128, 85], ['photo_small', 'big-192', 192, 128], ['photo_small', 'big-256', 256, 171],
      ['photo_small', 'small-96', 75, 96], // long side 128: only 96 is smaller
    ]);
    const [line] = out;
    assert.equal(line.black_pct, 25);
    assert.equal(line.compare_to, '/c/lineart_bw-a.png');
    assert.equal(line.ref4x, '/c/lineart_bw-a.ref.svg');
    assert.equal(line.subkind, 'drawing');
    assert.ok(out.every((x) => existsSync(x.path)));
    // a grey of 90 stays 90 when area-averaged
    assert.deepEqual([...decodePng(readOut('photo_small-big-96.png')).data.slice(0, 4)], [90, 90, 90, 255]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
