/**
 * Index sorts (src/engine/order.ts) that the palette, the shape order and the containment pass
 * rely on: the order of `(a, b) => key[a] − key[b] || a − b` (or its descending twin), so
 * replacing those inline comparators changed no output.
 */
import { describe, expect, it } from 'vitest';
import { indicesByKey, sortIndicesByKey } from '../../src/engine/order.js';

describe('index sorts', () => {
  it('orders by key, equal keys by index, both directions', () => {
    const keys = [3, 1, 3, 2, 1, 3];
    expect(indicesByKey(keys, true)).toEqual([0, 2, 5, 3, 1, 4]);
    expect(indicesByKey(keys, false)).toEqual([1, 4, 3, 0, 2, 5]);
  });

  it('matches the inline comparator on many random keys (typed and plain)', () => {
    let seed = 7;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let round = 0; round < 20; round++) {
      const n = 1 + Math.floor(random() * 300);
      const keys = new Float64Array(n);
      for (let i = 0; i < n; i++) keys[i] = Math.floor(random() * 12) * (random() < 0.2 ? 0.5 : 1);
      const expected = Array.from({ length: n }, (_, i) => i).sort((a, b) => keys[b]! - keys[a]! || a - b);
      expect(indicesByKey(keys, true)).toEqual(expected);
      const subset = expected.filter((i) => i % 3 !== 0);
      const ascending = [...subset].sort((a, b) => keys[a]! - keys[b]! || a - b);
      expect(sortIndicesByKey([...subset].reverse(), Array.from(keys), false)).toEqual(ascending);
    }
  });

  it('sorts in place and returns the same array', () => {
    const indices = [2, 0, 1];
    expect(sortIndicesByKey(indices, [5, 6, 7], false)).toBe(indices);
    expect(indices).toEqual([0, 1, 2]);
  });
});
