import { describe, expect, it } from 'vitest';

import { formatDateTime, formatNumber } from './format.js';

describe('formatNumber', () => {
  it('groups digits as en-US does', () => {
    for (const n of [0, 7, 999, 1000, 12345, 999999, 1000000, 1234567890, -1234, 42.4]) {
      expect(formatNumber(n)).toBe(n.toLocaleString('en-US', { maximumFractionDigits: 0 }));
    }
  });
  it('keeps up to the asked fraction digits, without trailing zeros', () => {
    for (const n of [0.2, 1.5, 1234.125, 10.000001, 99.1234567, -0.25, 3]) {
      expect(formatNumber(n, 6)).toBe(n.toLocaleString('en-US', { maximumFractionDigits: 6 }));
    }
  });
  it('rounds 0.4 and -0.4 to 0 (no minus zero)', () => {
    expect(formatNumber(-0.4)).toBe('0');
    expect(formatNumber(Number.NaN)).toBe('NaN');
  });
});

describe('formatDateTime', () => {
  it('reads like the en-GB medium date and short time', () => {
    const d = new Date(2026, 10, 5, 9, 7);
    expect(formatDateTime(d)).toBe('5 Nov 2026, 09:07');
    expect(formatDateTime(d)).toBe(d.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' }));
  });
});
