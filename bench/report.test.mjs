// node --test bench/ : the per-image report's ratios, worst images and target marks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { annotateRows, imageReport, readCsv } from './report.mjs';

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
