/**
 * A large but accepted canvas from a tiny file: a 5000×5000 constant-colour PNG (25 MP, under the 33.5 MP cap;
 * ~77 KB) is decoded and shrunk to input.max_pixels (default 2,097,252) before tracing, within a stated memory
 * budget. Its own test file so that vitest runs it in a fresh process and the peak RSS (getrusage maxRSS) is
 * this case's. A 6000×6000 PNG (36 MP) is over the cap and refused with 1013 (fuzz-slice.test.ts).
 */

import { Zlib } from 'fflate';
import { expect, it } from 'vitest';

import { concat, PNG_SIGNATURE, pngChunk } from '../decode/build.js';
import { prepareFuzzHost, runOne } from './run-one.js';

/**
 * Peak RSS budget for the whole test process (measured on Node 20, 2 cores: 461–487 MB, from ~105 MB before): the decode holds the 25 MB inflated rows,
 * fast-png's 25 MB grey samples and the 100 MB RGBA image at once; the trace then works on the 2.1 MP copy.
 */
const PEAK_RSS_BUDGET_MB = 640;
const SIZE = 5000;

function constantGreyPng(size: number, value: number): Uint8Array {
  const parts: Uint8Array[] = [];
  const z = new Zlib({ level: 9 }, (chunk) => parts.push(chunk));
  const row = new Uint8Array(size + 1).fill(value);
  row[0] = 0; // filter: none
  for (let y = 0; y < size; y++) z.push(row, y === size - 1);
  const ihdr = [size >>> 24, (size >>> 16) & 255, (size >>> 8) & 255, size & 255];
  return concat(PNG_SIGNATURE, pngChunk('IHDR', [...ihdr, ...ihdr, 8, 0, 0, 0, 0]), pngChunk('IDAT', concat(...parts)), pngChunk('IEND'));
}

it(`a ${SIZE}×${SIZE} constant PNG is shrunk to input.max_pixels within ${PEAK_RSS_BUDGET_MB} MB peak RSS`, async () => {
  prepareFuzzHost();
  const png = constantGreyPng(SIZE, 180);
  expect(png.length).toBeLessThan(128 * 1024);
  const rssBefore = process.memoryUsage.rss() / 2 ** 20;
  const out = await runOne(png);
  const peakMb = process.resourceUsage().maxRSS / 1024;
  if (out.kind !== 'ok') throw new Error(`expected a trace, got ${out.kind}: ${'message' in out ? out.message : ''}`);
  expect(out.width * out.height).toBeLessThanOrEqual(2_097_252);
  expect(out.width).toBeGreaterThan(1000);
  console.log(`5000×5000 PNG (${png.length} bytes): traced at ${out.width}×${out.height} in ${out.ms.toFixed(0)} ms; RSS before ${rssBefore.toFixed(0)} MB, peak ${peakMb.toFixed(0)} MB`);
  expect(peakMb).toBeLessThan(PEAK_RSS_BUDGET_MB);
});
