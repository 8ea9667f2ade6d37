// node --test bench/ : issue 28's speed-target table from the bench's rows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { coldRows, kindRatios, speedTargetsTable } from './speed-targets.mjs';

test('per-kind ratios are medians of per-image ratios; rows without both times are left out', () => {
  const rows = [
    { category: 'icon', tracelab: 30, peer: 10 },
    { category: 'icon', tracelab: 20, peer: 10 },
    { category: 'icon', tracelab: 50, peer: 10 },
    { category: 'photo', tracelab: 90, peer: 100 },
    { category: 'photo', tracelab: 90, peer: undefined },
  ];
  assert.deepEqual(kindRatios(rows, (r) => r.tracelab, (r) => r.peer), [{ kind: 'icon', images: 3, ratio: 3 }, { kind: 'photo', images: 1, ratio: 0.9 }]);
});

test('cold rows pair each image\'s process times by tracer, skipping failed runs', () => {
  const rows = coldRows([
    { tracer: 'tracelab', file: 'a.png', category: 'icon', time_ms: 300 },
    { tracer: 'vtracer-native', file: 'a.png', category: 'icon', time_ms: 100 },
    { tracer: 'vtracer-native', file: 'b.png', category: 'icon', time_ms: 100, status: 'failed' },
  ]);
  assert.deepEqual(rows, [{ file: 'a.png', category: 'icon', tracelab: 300, 'vtracer-native': 100 }]);
});

test('the table marks each target held or missed', () => {
  const md = speedTargetsTable({
    cold: [{ category: 'icon', tracelab: 140, 'vtracer-native': 100 }],
    warm: [
      { category: 'icon', tracelab: 30, 'vtracer-native': 10, gcShare: 0.08 },
      { category: 'photo', tracelab: 100, 'vtracer-native': 110, gcShare: 0.02 },
    ],
    batch: { images: 2, tracelabS: 1, nativeS: 2 },
    browser: [{ category: 'icon', tracelab: 40, vtracer: 20 }],
  }).join('\n');
  assert.match(md, /cold CLI .* icon 1\.40× \| ≤ 1\.5× every kind \| ✓ \|/);
  assert.match(md, /warm library .*, total \| 1\.08× over 2 images \| ≤ 1\.0× \| ✗ \|/);
  assert.match(md, /per-kind median \| icon 3\.00×, photo 0\.91× \| ≤ 1\.3× every kind \| ✗ \|/);
  assert.match(md, /GC share .* \| 5 % \| under 5 % \| ✗ \|/);
  assert.match(md, /batch CLI .* \| 0\.50× \(2 images: 1\.0 s vs 2\.0 s\) \| ≤ 0\.6× \| ✓ \|/);
  assert.match(md, /Chromium .* icon 2\.00× \| ≤ 0\.5× every kind \| ✗ \|/);
});
