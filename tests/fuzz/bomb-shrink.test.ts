/**
 * A large but accepted canvas from a tiny file: a 5000×5000 constant-colour PNG (25 MP, under the 33.5 MP cap;
 * ~77 KB) is decoded and shrunk to input.max_pixels (default 2,097,252) before tracing. Its peak memory is a bench
 * figure (bench/guards.mjs runs it in a fresh process), not a limit here. A 6000×6000 PNG (36 MP) is over the cap
 * and refused with 1013 (fuzz-slice.test.ts).
 */

import { expect, it } from 'vitest';

import { constantGreyPng } from './bombs.js';
import { prepareFuzzHost, runOne } from './run-one.js';

const SIZE = 5000;

it(`a ${SIZE}×${SIZE} constant PNG is accepted and shrunk to input.max_pixels before tracing`, async () => {
  prepareFuzzHost();
  const png = constantGreyPng(SIZE, 180);
  expect(png.length).toBeLessThan(128 * 1024);
  const out = await runOne(png);
  if (out.kind !== 'ok') throw new Error(`expected a trace, got ${out.kind}: ${'message' in out ? out.message : ''}`);
  expect(out.width * out.height).toBeLessThanOrEqual(2_097_252);
  expect(out.width * out.height).toBeGreaterThan(2_000_000);
  expect(out.width).toBe(out.height);
});
