/**
 * The exact-colour table (src/engine/palette/color-table.ts) that pixel art's palette counts its
 * colours in and labels its pixels through: it must answer as the Map it replaced did, through
 * growth, for every 24-bit key (black and white included).
 */
import { describe, expect, it } from 'vitest';
import { ColorTable } from '../../src/engine/palette/color-table.js';

describe('ColorTable', () => {
  it('counts like a Map through growth, black and white included', () => {
    const table = new ColorTable(4);
    const map = new Map<number, number>();
    let seed = 11;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const keys = [0, 0xffffff];
    for (let i = 0; i < 3000; i++) keys.push(Math.floor(random() * 0x1000000));
    for (let i = 0; i < 20000; i++) {
      const key = keys[Math.floor(random() * keys.length)]!;
      const amount = 1 + Math.floor(random() * 5);
      table.add(key, amount);
      map.set(key, (map.get(key) ?? 0) + amount);
    }
    expect(table.size).toBe(map.size);
    for (const [key, count] of map) expect(table.get(key, -1)).toBe(count);
    expect(Array.from(table.keyList()).sort((a, b) => a - b)).toEqual([...map.keys()].sort((a, b) => a - b));
  });

  it('answers `missing` for an absent key, and set overwrites like Map.set', () => {
    const table = new ColorTable();
    expect(table.get(0x123456, -1)).toBe(-1);
    table.set(0x123456, 3);
    table.set(0x123456, 7);
    expect(table.get(0x123456, -1)).toBe(7);
    expect(table.get(0x123457, -1)).toBe(-1);
    expect(table.size).toBe(1);
  });
});
