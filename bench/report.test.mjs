// node --test bench/ : the per-image report's ratios, worst images and target marks, and the gradients extension's targets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  annotateRows, bandRecords, bandSection, bilevelRecords, flatTargets, gradientArtRecords, gradientSection, imageReport, issue27Section, lineArtRecords,
  photoRecords, photoTargets, readCsv, strokeRecords, strokeSection, targetSummary,
} from './report.mjs';
import { medianStrokePx, pixelsPerUnit, strokeWidths } from './svgstats.mjs';

const row = (tracer, file, category, gzip, ssim, de = 1, gap = 0) => ({
  tracer, file, id: file.replace('.png', ''), category, status: 'ok', gzip_bytes: gzip, ssim, de2000: de, gap_pct: gap,
});

test('ratios against VTracer and the original SVG', () => {
  const rows = [row('tracelab', 'a.png', 'clipart', 3000, 0.99), row('vtracer-native', 'a.png', 'clipart', 2000, 0.95)];
  const records = annotateRows(rows, new Map([['a.png', 1000]]));
  assert.equal(records.length, 1);
  assert.equal(rows[0].gzip_vs_vtracer, 1.5);
  assert.equal(rows[0].gzip_vs_ref, 3);
  assert.equal(rows[1].gzip_vs_vtracer, undefined);
});

test('the worst image of a kind and the target marks', () => {
  const rows = [
    row('tracelab', 'a.png', 'pixel', 3000, 0.99), row('vtracer-native', 'a.png', 'pixel', 1000, 0.7, 3),
    row('tracelab', 'b.png', 'pixel', 1000, 0.93), row('vtracer-native', 'b.png', 'pixel', 1000, 0.8, 3),
  ];
  const text = imageReport(rows, [], '/nonexistent').join('\n');
  assert.match(text, /\| pixel \| a 3\.00× \| n\/a \| b 0\.9300 \|/);
  assert.match(text, /Lowest pixel-art SSIM: b 0\.9300 .*1\/2/);
  // 2000 (median of 3000, 1000) > VTracer's 1000: gzip target missed.
  assert.match(text, /\| pixel \| 0\.9600 ✓ \(0\.7500\) \| 1\.00 ✓ \(≤ 2\.40\) \| 2\.0 k ✗ \(1\.0 k\)/);
});

test('band edges per kind: median, images with none and the worst image per tracer; the CSV column is read as a number', () => {
  const band = (tracer, file, px) => ({ ...row(tracer, file, 'photo', 1000, 0.9), band_px: px });
  const rows = [band('tracelab', 'a.png', 300), band('tracelab', 'b.png', 100), band('tracelab', 'c.png', 0), band('tracelab-gradients', 'a.png', 0), band('tracelab-gradients', 'b.png', 40)];
  const records = bandRecords(rows);
  assert.deepEqual(records.map((r) => [r.tracer, r.n, r.median, r.none, r.worst.id]), [['tracelab', 3, 100, 1, 'a'], ['tracelab-gradients', 2, 20, 1, 'b']]);
  assert.match(bandSection(rows).join('\n'), /\| photo \| tracelab-gradients \| 2 \| 20 \| 1 \| b \(40\) \|/);
  assert.equal(readCsv('category,file,tracer,band_px\nphoto,a.png,tracelab,12\n')[0].band_px, 12);
});

test('reads the bench CSV, quoted cells included', () => {
  const rows = readCsv('category,file,tracer,ssim,note\nclipart,a.png,tracelab,0.5,"x, y"\n');
  assert.deepEqual(rows, [{ category: 'clipart', file: 'a.png', tracer: 'tracelab', ssim: 0.5, note: 'x, y' }]);
});

// ---- the gradients extension's targets

const full = (tracer, file, category, { gzip = 1000, ssim = 0.9, de = 1, bytes = gzip * 3, gradients = 0 } = {}) => ({
  ...row(tracer, file, category, gzip, ssim, de), bytes, gradients,
});

test('the extension on gets the ratio columns too, but the records stay the default tracelab rows', () => {
  const rows = [row('tracelab', 'a.png', 'gradient', 3000, 0.9), row('tracelab-gradients', 'a.png', 'gradient', 1000, 0.95),
    row('vtracer-native', 'a.png', 'gradient', 2000, 0.9)];
  const records = annotateRows(rows, new Map([['a.png', 500]]));
  assert.deepEqual(records.map((x) => x.row.tracer), ['tracelab']);
  assert.equal(rows[1].gzip_vs_vtracer, 0.5);
  assert.equal(rows[1].gzip_vs_ref, 2);
});

test('gradient art: ratios and the four targets per image, null where a side is missing', () => {
  const rows = [
    full('tracelab', 'g1.png', 'gradient', { gzip: 2000, ssim: 0.95 }), full('tracelab-gradients', 'g1.png', 'gradient', { gzip: 1400, ssim: 0.97 }),
    full('vtracer-native', 'g1.png', 'gradient', { gzip: 2500, ssim: 0.93 }), full('artist', 'g1.png', 'gradient', { gzip: 1000, ssim: 1 }),
    full('tracelab', 'g2.png', 'gradient', { gzip: 3000, ssim: 0.9 }), full('tracelab-gradients', 'g2.png', 'gradient', { gzip: 3000, ssim: 0.89 }),
    full('vtracer-native', 'g2.png', 'gradient', { gzip: 2000, ssim: 0.92 }),
  ];
  const [g1, g2] = gradientArtRecords(rows, new Map([['g1.png', 1000]]));
  assert.equal(g1.onVsArtist, 1.4);
  assert.equal(g1.offVsVt, 0.8);
  assert.deepEqual(g1.targets, { onGzip: true, onSsim: true, offGzip: true, offSsim: true });
  // no reference SVG and no artist row: the artist target is unknown
  assert.ok(Number.isNaN(g2.onVsArtist));
  assert.deepEqual(g2.targets, { onGzip: null, onSsim: false, offGzip: false, offSsim: false });
  // without a reference file the artist row's gzip is used
  assert.equal(gradientArtRecords(rows, new Map())[0].artistGzip, 1000);
});

test('gradient art table: marks, counts and the worst image per target', () => {
  const rows = [
    full('tracelab', 'gradient-a.png', 'gradient', { gzip: 2000, ssim: 0.95 }), full('tracelab-gradients', 'gradient-a.png', 'gradient', { gzip: 1400, ssim: 0.97 }),
    full('vtracer-native', 'gradient-a.png', 'gradient', { gzip: 2500, ssim: 0.93 }), full('artist', 'gradient-a.png', 'gradient', { gzip: 1000, ssim: 0.999 }),
    full('tracelab', 'gradient-b.png', 'gradient', { gzip: 3000, ssim: 0.9 }), full('tracelab-gradients', 'gradient-b.png', 'gradient', { gzip: 4000, ssim: 0.88 }),
    full('vtracer-native', 'gradient-b.png', 'gradient', { gzip: 2000, ssim: 0.92 }), full('artist', 'gradient-b.png', 'gradient', { gzip: 2000, ssim: 1 }),
  ];
  const text = gradientSection(rows, [], new Map(), new Map()).join('\n');
  assert.match(text, /\| gradient-a \| 2\.0 k \| 1\.4 k \| 2\.5 k \| 1\.0 k \| 1\.40× \| 0\.80× \| 0\.9500 \| 0\.9700 \| 0\.9300 \| 0\.9990 \| ✓ \| ✓ \| ✓ \| ✓ \|/);
  assert.match(text, /\| gradient-b \| .* \| 2\.00× \| 1\.50× \| .* \| ✗ \| ✗ \| ✗ \| ✗ \|/);
  assert.match(text, /\| \*\*images meeting the target\*\* \|.* 1\/2 \| 1\/2 \| 1\/2 \| 1\/2 \|/);
  assert.match(text, /on: gzip ≤ 1\.5× artist: gradient-b \(2\.00×\); on: SSIM ≥ off: gradient-b \(SSIM on − off -0\.0200\); off: gzip ≤ VTracer: gradient-b \(1\.50×\); off: SSIM ≥ VTracer: gradient-b \(SSIM off − VTracer -0\.0200\)/);
  // no extension rows: no section
  assert.deepEqual(gradientSection(rows.filter((r) => r.tracer !== 'tracelab-gradients'), [], new Map(), new Map()), []);
});

test('photos with the extension on: medians against the best peer and VTracer, smooth photos apart', () => {
  const images = [{ file: 'p1.png', note: 'photograph' }, { file: 'p2.png', note: 'smooth photo' }, { file: 'p3.png', note: 'smooth photo' }];
  const rows = [
    full('tracelab-gradients', 'p1.png', 'photo', { gzip: 5000, de: 3 }), full('vtracer-native', 'p1.png', 'photo', { gzip: 10000, de: 4 }), full('imagetracerjs', 'p1.png', 'photo', { gzip: 20000, de: 2 }),
    full('tracelab-gradients', 'p2.png', 'photo', { gzip: 1000, de: 1 }), full('vtracer-native', 'p2.png', 'photo', { gzip: 4000, de: 2 }), full('imagetracerjs', 'p2.png', 'photo', { gzip: 8000, de: 3 }),
    full('tracelab-gradients', 'p3.png', 'photo', { gzip: 3000, de: 1 }), full('vtracer-native', 'p3.png', 'photo', { gzip: 6000, de: 2 }), full('imagetracerjs', 'p3.png', 'photo', { gzip: 9000, de: 3 }),
  ];
  const [all, smooth] = photoTargets(rows, images);
  assert.equal(all.n, 3);
  assert.equal(all.de, 1);
  assert.equal(all.bestPeer, 'vtracer-native'); // medians: VTracer 2, imagetracerjs 3
  assert.equal(all.deOk, true); // 1 ≤ 0.8 × 2
  assert.equal(all.gzip, 3000);
  assert.equal(all.vtGzip, 6000);
  assert.equal(all.gzipOk, true); // 3000 ≤ 3600
  assert.equal(all.medianRatio, 0.5);
  assert.equal(all.worstGzip.id, 'p1');
  assert.equal(all.worstDe.id, 'p1'); // 3 / 2 (imagetracerjs on p1)
  assert.equal(smooth.label, 'smooth photo');
  assert.equal(smooth.n, 2);
  assert.equal(smooth.gzip, 2000);
  assert.equal(smooth.gzipOk, true); // 2000 ≤ 0.6 × 5000
  const text = gradientSection(rows, images, new Map(), new Map()).join('\n');
  assert.match(text, /\| smooth photo \| 2 \| 1\.00 \| 2\.00 \(vtracer-native\) \| ✓ \(≤ 1\.60\) \| 2\.0 k \| 5\.0 k \| ✓ \(≤ 3\.0 k\) \| 0\.38× \| p3 0\.50× \| p2 0\.50× \|/);
});

test('layered art gets its own table with the gradient targets; the smooth_photo kind its own photo line', () => {
  const images = [{ file: 's1.png', note: 'smooth photo' }];
  const rows = [
    full('tracelab', 'layered-a.png', 'layered', { gzip: 4000, ssim: 0.97 }), full('tracelab-gradients', 'layered-a.png', 'layered', { gzip: 3000, ssim: 0.98 }),
    full('vtracer-native', 'layered-a.png', 'layered', { gzip: 5000, ssim: 0.95 }), full('artist', 'layered-a.png', 'layered', { gzip: 1000, ssim: 1 }),
    full('tracelab-gradients', 's1.png', 'smooth_photo', { gzip: 2000, de: 1 }), full('vtracer-native', 's1.png', 'smooth_photo', { gzip: 4000, de: 2 }),
  ];
  assert.deepEqual(gradientArtRecords(rows, new Map(), 'layered').map((x) => [x.id, x.onVsArtist]), [['layered-a', 3]]);
  assert.deepEqual(gradientArtRecords(rows, new Map()), []);
  const text = gradientSection(rows, images, new Map(), new Map()).join('\n');
  assert.doesNotMatch(text, /#### Gradient art/);
  assert.match(text, /#### Layered art, every image/);
  assert.match(text, /\| layered-a \| 4\.0 k \| 3\.0 k \| 5\.0 k \| 1\.0 k \| 3\.00× \| 0\.80× \|.* \| ✗ \| ✓ \| ✓ \| ✓ \|/);
  assert.match(text, /Worst layered art image per target — on: gzip ≤ 1\.5× artist: layered-a \(3\.00×\)/);
  // the photo kind has no rows here: only the smooth_photo kind's line
  assert.deepEqual(photoTargets(rows, images).map((p) => [p.label, p.n, p.gzipOk]), [['smooth_photo kind', 1, true]]);
});

test('flat kinds: gradients written and the largest byte change, shaded icons left out', () => {
  const rows = [
    full('tracelab', 'c1.png', 'clipart', { bytes: 10000 }), full('tracelab-gradients', 'c1.png', 'clipart', { bytes: 10050 }),
    full('tracelab', 'c2.png', 'clipart', { bytes: 20000 }), full('tracelab-gradients', 'c2.png', 'clipart', { bytes: 20000 }),
    full('tracelab', 'i1.png', 'icon', { bytes: 8000 }), full('tracelab-gradients', 'i1.png', 'icon', { bytes: 9000, gradients: 2 }),
    full('tracelab', 'i2.png', 'icon', { bytes: 8000 }), full('tracelab-gradients', 'i2.png', 'icon', { bytes: 8100 }),
    full('tracelab', 'x.png', 'pixel', { bytes: 1000 }), // no extension row: nothing to compare
  ];
  const [clipart, icon, ...rest] = flatTargets(rows, new Map([['i1.png', 5], ['c1.png', 0]]));
  assert.deepEqual(rest, []);
  assert.equal(clipart.n, 2);
  assert.equal(clipart.withGradient.length, 0);
  assert.equal(clipart.worst.id, 'c1');
  assert.ok(Math.abs(clipart.worst.deviation - 0.005) < 1e-12);
  assert.equal(clipart.ok, true);
  // i1's artist SVG has gradients: left out; i2 changed by 1.25 %
  assert.equal(icon.n, 1);
  assert.equal(icon.skipped, 1);
  assert.equal(icon.ok, false);
  const text = gradientSection(rows, [], new Map(), new Map([['i1.png', 5]])).join('\n');
  assert.match(text, /\| clipart \| 2 \| 0 \| c1 0\.50 % \| ✓ \| 0 \|/);
  assert.match(text, /\| icon \| 1 \| 0 \| i2 1\.25 % \| ✗ \| 1 \|/);
  // without the artist's counts i1 is compared too, and its gradient shows
  assert.match(gradientSection(rows, [], new Map(), new Map()).join('\n'), /\| icon \| 2 \| 1 \(i1\) \| i1 12\.50 % \| ✗ \| 0 \|/);
});

// ---- issue 27: line art and photos

const bl = (tracer, id, { ssim, ssim4 = '', gzip, subkind = 'drawing' }) => ({
  ...row(tracer, `lineart_bilevel-${id}.png`, 'lineart_bilevel', gzip, ssim), id, subkind, ssim_4x: ssim4, black_pct: 12.5,
});

test('1-bit line art: SSIM within 0.005 of potrace at 1× and 4×, gzip ≤ 1.2× potrace, – without a side', () => {
  const rows = [
    bl('tracelab', 'a', { ssim: 0.951, ssim4: 0.97, gzip: 1200 }), bl('potrace', 'a', { ssim: 0.955, ssim4: 0.98, gzip: 1000 }),
    bl('tracelab', 'b', { ssim: 0.94, gzip: 1300, subkind: 'text' }), bl('potrace', 'b', { ssim: 0.95, gzip: 1000, subkind: 'text' }),
    bl('tracelab', 'c', { ssim: 0.9, gzip: 100, subkind: 'scan' }),
  ];
  const [a, b, c] = bilevelRecords(rows);
  assert.deepEqual(a.targets, { ssim1: true, ssim4: false, gzip: true }); // −0.004 ok; −0.01 at 4×; exactly 1.2×
  assert.deepEqual(b.targets, { ssim1: false, ssim4: null, gzip: false }); // no 4× figures: unknown
  assert.equal(b.subkind, 'text');
  assert.deepEqual(c.targets, { ssim1: null, ssim4: null, gzip: null }); // potrace missing
  // Tracelab failed where potrace worked: the targets fail
  const failed = bilevelRecords([{ ...rows[0], status: 'error' }, rows[1]])[0];
  assert.deepEqual(failed.targets, { ssim1: false, ssim4: false, gzip: false });
  const s = targetSummary([a, b, c], 'ssim1', (x) => -x.ssim1, (x) => x.tl.ssim.toFixed(3));
  assert.deepEqual(s, { holds: 1, n: 2, worst: 'b (0.940)' });
  const text = issue27Section(rows).join('\n');
  assert.match(text, /\| lineart_bilevel: drawings \| SSIM 1× .* \| 1\/1 ✓ \| a \(0\.9510 vs potrace 0\.9550\) \|/);
  assert.match(text, /\| lineart_bilevel: texts \| gzip ≤ 1\.2× potrace .* \| 0\/1 ✗ \| b \(1\.3 k vs potrace 1\.0 k, 1\.30×\) \|/);
  assert.match(text, /\| lineart_bilevel: all \| SSIM 4× .* \| 0\/1 ✗ \| a \(0\.9700 vs potrace 0\.9800\) \|/);
  assert.match(text, /\| b \| text \| 12\.50 \| 0\.9400 \| 0\.9500 \| ✗ \| n\/a \| n\/a \| – \| 1\.3 k \| 1\.0 k \| 1\.30× \| ✗ \|/);
});

test('anti-aliased line art: gzip ≤ 1.5× VTracer per image, gap 0.000, median gzip against potrace', () => {
  const la = (tracer, id, gzip, gap = 0) => ({ ...row(tracer, `lineart_bw-${id}.png`, 'lineart_bw', gzip, 0.9, 1, gap), id });
  const rows = [
    la('tracelab', 'a', 1500), la('vtracer-native', 'a', 1000), la('potrace', 'a', 1400),
    la('tracelab', 'b', 3100, 0.0004), la('vtracer-native', 'b', 2000), la('potrace', 'b', 3000),
    la('tracelab', 'c', 900, 0.012), la('vtracer-native', 'c', 1000), la('artist', 'c', 100),
  ];
  const { images, medians } = lineArtRecords(rows);
  assert.deepEqual(images.map((x) => x.targets), [{ gzipVt: true, gap: true }, { gzipVt: false, gap: true }, { gzipVt: true, gap: false }]);
  // medians over the images potrace traced too (a, b): 2300 vs 2200
  assert.deepEqual(medians, { n: 2, tracelab: 2300, potrace: 2200, ok: false });
  const text = issue27Section(rows).join('\n');
  assert.match(text, /\| lineart_bw \| every image gzip ≤ 1\.5× VTracer \| 2\/3 ✗ \| b \(3\.1 k vs VTracer 2\.0 k, 1\.55×\) \|/);
  assert.match(text, /\| lineart_bw \| gap 0\.000 % \| 2\/3 ✗ \| c \(gap 0\.012 %\) \|/);
  assert.match(text, /\| lineart_bw \| median gzip ≤ potrace's \(medians over 2 images\) \| 0\/1 ✗ \| Tracelab 2\.3 k vs potrace 2\.2 k \|/);
});

test('photos of every size: profile, forbidden primitives, gzip against VTracer', () => {
  const fam = (counts = {}) => Object.fromEntries(['circle', 'ellipse', 'rectangle', 'quadrilateral', 'bullet', 'triangle', 'star']
    .map((f) => [`shapes_${f}`, counts[f] ?? 0]));
  const ph = (tracer, id, category, long, gzip, extra = {}) => ({ ...row(tracer, `${category}-${id}.png`, category, gzip, 0.8), id, width: long, height: long - 10, ...extra });
  const rows = [
    ph('tracelab', 'p', 'photo', 600, 10000, { profile: 'photo', ...fam({ circle: 2 }), svg_rect: 0, svg_polygon: 0 }), ph('vtracer-native', 'p', 'photo', 600, 9000),
    ph('tracelab', 'p-96', 'photo_small', 96, 2000, { profile: 'pixel', ...fam({ star: 1, rectangle: 2 }), svg_rect: 2, svg_polygon: 0 }), ph('vtracer-native', 'p-96', 'photo_small', 96, 1000),
    ph('tracelab', 'p-128', 'photo_small', 128, 1400, { profile: '', ...fam() }), ph('vtracer-native', 'p-128', 'photo_small', 128, 1000),
  ];
  const [p, p96, p128] = photoRecords(rows);
  assert.deepEqual(p.targets, { profile: true, shapes: true, gzipVt: true });
  assert.equal(p.round, 2);
  assert.equal(p96.long, 96);
  assert.equal(p96.shapes, 5); // 1 star + 2 rectangles + their 2 <rect>s
  assert.deepEqual(p96.targets, { profile: false, shapes: false, gzipVt: false });
  assert.deepEqual(p128.targets, { profile: null, shapes: null, gzipVt: true }); // no in-process facts
  const text = issue27Section(rows).join('\n');
  assert.match(text, /\| photo_small, 96 px \| profile not "pixel" \| 0\/1 ✗ \| p-96 \(profile pixel\) \|/);
  assert.match(text, /\| photo_small, 96 px \| no star, .* \| 0\/1 ✗ \| p-96 \(2 rect, 1 star, 2 <rect>\) \|/);
  assert.match(text, /\| all photos \| gzip ≤ 1\.5× VTracer \| 2\/3 ✗ \| p-96 \(2\.0 k vs VTracer 1\.0 k, 2\.00×\) \|/);
  assert.match(text, /\| p-96 \| photo_small \| 96 \| pixel \| ✗ \| 0 \| 2 \/ 0 \/ 0 \/ 0 \/ 1 \| 2 \/ 0 \| ✗ \|/);
  // no line-art or photo rows: no section
  assert.deepEqual(issue27Section([row('tracelab', 'x.png', 'clipart', 1, 1)]), []);
});

test('stroke kind: median stroke-width error over the images with strokes, gzip against the artist, worst images', () => {
  const stroke = (tracer, file, gzip, ssim, err) => ({ ...row(tracer, file, 'stroke', gzip, ssim), stroke_width_err: err });
  const rows = [
    stroke('tracelab', 'a.png', 3000, 0.99, null), stroke('tracelab', 'b.png', 4000, 0.98, null),
    stroke('tracelab-strokes', 'a.png', 1200, 0.985, 0.04), stroke('tracelab-strokes', 'b.png', 2600, 0.98, 0.2), stroke('tracelab-strokes', 'c.png', 900, 0.97, 0.1),
    stroke('artist', 'a.png', 1000, 0.999, 0),
    row('tracelab', 'x.png', 'icon', 100, 0.9),
  ];
  const refGzip = new Map([['a.png', 1000], ['b.png', 2000], ['c.png', 1000]]);
  const [off, on, artist] = strokeRecords(rows, refGzip);
  assert.deepEqual([off.tracer, off.n, off.withStrokes, off.gzipVsArtist], ['tracelab', 2, 0, 2.5]);
  assert.ok(Number.isNaN(off.widthErr));
  assert.deepEqual([on.tracer, on.n, on.withStrokes, on.widthErr, on.worstWidth.id, on.gzipVsArtist, on.worstGzip.id], ['tracelab-strokes', 3, 3, 0.1, 'b', 1.2, 'b']);
  assert.equal(artist.widthErr, 0);
  const md = strokeSection(rows, refGzip).join('\n');
  assert.match(md, /\| tracelab-strokes \| 3 \| 0\.9800 \| 1\.20× \| b 1\.30× \| 3 \| 10\.0 % \| b 20\.0 % \|/);
  assert.match(md, /\| tracelab \| 2 \| .* \| 0 \| n\/a \| n\/a \|/);
  assert.deepEqual(strokeSection([row('tracelab', 'x.png', 'icon', 100, 0.9)], refGzip), []);
});

test('stroke widths an SVG writes: inherited from groups and styles, gap filler and defs left out, in pixels', () => {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" stroke-width="1.5" stroke="currentColor" fill="none">
    <path d="M0 0h4"/><g style="stroke-width:3"><circle r="2"/><path fill="#f00" d="M1 1h2"/></g>
    <g stroke-width="2"><path stroke="#123" vector-effect="non-scaling-stroke" d="M0 0"/><use href="#a"/></g>
    <defs><path id="a" stroke="#000" stroke-width="9" d="M0 0"/></defs><path stroke="none" d="M0 0"/><!-- <path stroke="#000"/> -->
    <text fill="#ff0" stroke-width="4">Aa</text></svg>`;
  assert.deepEqual(strokeWidths(svg), [{ width: 1.5, filled: false }, { width: 3, filled: false }, { width: 3, filled: true }, { width: 4, filled: true }]);
  assert.equal(pixelsPerUnit(svg, 240), 10);
  assert.equal(medianStrokePx(svg, 240), 30);
  assert.equal(medianStrokePx(svg.replace('stroke-width="4"', 'stroke-width="5" stroke="#000"').replace(/<path fill="#f00"[^>]*>/, ''), 240), 30);
  assert.equal(medianStrokePx('<svg width="10"><path fill="#000" d="M0 0"/></svg>', 10), null);
});
