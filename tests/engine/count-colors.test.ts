import { describe, expect, it } from 'vitest';

import { countColors } from '../../src/engine/profile/profile.js';

/** The same counts with a Map: the reference the hash table must agree with. */
function naive(data: Uint8Array, pixelCount: number) {
  const seen = new Map<number, number>();
  let opaque = 0;
  for (let i = 0; i < pixelCount; i++) {
    if (data[i * 4 + 3]! < 128) continue;
    opaque++;
    const key = (data[i * 4]! << 16) | (data[i * 4 + 1]! << 8) | data[i * 4 + 2]!;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  let rare = 0;
  for (const n of seen.values()) if (n <= 3) rare += n;
  return { opaque, distinct: seen.size, rare };
}

/** Deterministic pseudo-random bytes (xorshift32). */
function image(pixelCount: number, colors: number, run: number, seed: number): Uint8Array {
  const data = new Uint8Array(pixelCount * 4);
  let x = seed;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
  let color = 0;
  for (let i = 0; i < pixelCount; i++) {
    if (i % run === 0) color = next() % colors;
    // Spread the colour index over all three channels; every 17th pixel transparent.
    data.set([color & 255, (color >> 8) & 255, (color * 7) & 255, i % 17 === 0 ? 0 : 255], i * 4);
  }
  return data;
}

describe('countColors', () => {
  it('agrees with a plain count: few colours in runs (flat art), many colours (a photo, the table grows), single pixels', () => {
    for (const [colors, run] of [
      [3, 50],
      [1500, 8],
      [60_000, 1],
      [200, 1],
    ] as const) {
      const pixels = 90_000;
      const data = image(pixels, colors, run, 12345 + colors);
      expect(countColors(data, pixels), `${colors} colours, runs of ${run}`).toEqual(naive(data, pixels));
    }
  });

  it('counts only the first pixelCount pixels; an empty or transparent image has no colours', () => {
    const data = image(1000, 50, 3, 7);
    expect(countColors(data, 400)).toEqual(naive(data, 400));
    expect(countColors(new Uint8Array(64), 16)).toEqual({ opaque: 0, distinct: 0, rare: 0 });
  });
});
