// Run with: node --test bench/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyrightLicences, smoothPhotoPicks } from './build.mjs';

test('copyrightLicences: each photo of the folder gets its own licence and holder, other folders none', () => {
  const text = [
    'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/',
    '',
    'Files: 16.04/Bridge_by_Sander_Klootwijk.jpg\nCopyright: 2018. Sander Klootwijk\nLicense: CC-BY-SA-4.0',
    '',
    'Files: 16.04/seeding_by_Clements_Engelhardt.jpg\nCopyright: Clemens Engelhardt, 2018\nLicense: CC0-1.0',
    '',
    'Files: 20.04/Kleiber_by_Lukas_Baubkus.jpg\nCopyright: 2021, Lukas Baubkus\nLicense: CC-BY-SA-3.0',
  ].join('\n');
  assert.deepEqual([...copyrightLicences(text, '16.04')], [
    ['Bridge_by_Sander_Klootwijk.jpg', 'CC-BY-SA-4.0, © 2018. Sander Klootwijk'],
    ['seeding_by_Clements_Engelhardt.jpg', 'CC0-1.0, © Clemens Engelhardt, 2018'],
  ]);
  assert.deepEqual([...copyrightLicences(text, '20.04').keys()], ['Kleiber_by_Lukas_Baubkus.jpg']);
});

test('smoothPhotoPicks: the validation and tuning sets split the ranked photos 3:1 and never share one', () => {
  const ranked = Array.from({ length: 10 }, (_, i) => ({ path: `p${i}` }));
  const report = smoothPhotoPicks(ranked, 'report').map((p) => p.path);
  const tune = smoothPhotoPicks(ranked, 'tune').map((p) => p.path);
  assert.deepEqual(report, ['p0', 'p2', 'p3', 'p4', 'p6', 'p7', 'p8']);
  assert.deepEqual(tune, ['p1', 'p5', 'p9']);
});
