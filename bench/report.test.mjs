// node --test bench/ : the per-image report's ratios, worst images and target marks, and the gradients extension's targets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  annotateRows, flatTargets, gradientArtRecords, gradientSection, imageReport, photoTargets, readCsv,
} from './report.mjs';

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
