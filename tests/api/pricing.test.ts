import { describe, expect, it } from 'vitest';
import {
  MODES,
  creditHeaders,
  creditsToMicro,
  downloadCost,
  formatCredits,
  storageCost,
  vectorizeCost,
  type Mode,
} from '../../src/api/pricing.js';
import { TracelabError } from '../../src/engine/errors.js';

const fmt = (c: { charged: number; calculated: number }) => [formatCredits(c.charged), formatCredits(c.calculated)];

describe('formatCredits', () => {
  it('prints six decimals from integer micro-credits', () => {
    expect(formatCredits(0)).toBe('0.000000');
    expect(formatCredits(1_000_000)).toBe('1.000000');
    expect(formatCredits(200_000)).toBe('0.200000');
    expect(formatCredits(10_000)).toBe('0.010000');
    expect(formatCredits(1)).toBe('0.000001');
    expect(formatCredits(123_456_789)).toBe('123.456789');
    expect(formatCredits(-10_000)).toBe('-0.010000');
  });
  it('rejects non-integers', () => {
    expect(() => formatCredits(0.5)).toThrow(RangeError);
    expect(() => formatCredits(Number.NaN)).toThrow(RangeError);
  });
  it('has no float drift where doubles would', () => {
    // 0.2 + 0.1 ≠ 0.3 in doubles; in micro-credits it is exact.
    expect(formatCredits(creditsToMicro(0.2) + creditsToMicro(0.1))).toBe('0.300000');
    let sum = 0;
    for (let i = 0; i < 29; i++) sum += storageCost(2);
    expect(formatCredits(sum)).toBe('0.290000');
  });
});

describe('vectorize pricing (§6.2, §5.2, §6.3)', () => {
  const table: [Mode, number, string, string][] = [
    ['production', 0, '1.000000', '1.000000'],
    ['preview', 0, '0.200000', '0.200000'],
    ['test', 0, '0.000000', '1.000000'],
    ['test_preview', 0, '0.000000', '0.200000'],
    ['production', 1, '1.000000', '1.000000'],
    ['production', 2, '1.010000', '1.010000'],
    ['production', 30, '1.290000', '1.290000'],
    ['preview', 7, '0.260000', '0.260000'],
    ['test', 30, '0.000000', '1.290000'],
    ['test_preview', 10, '0.000000', '0.290000'],
  ];
  it.each(table)('%s with %i retained days → charged %s, calculated %s', (mode, days, charged, calculated) => {
    expect(fmt(vectorizeCost(mode, days))).toEqual([charged, calculated]);
  });

  it('storage: first day free, 0.01 per further day, 0 … 30', () => {
    expect(storageCost(0)).toBe(0);
    expect(storageCost(1)).toBe(0);
    expect(formatCredits(storageCost(2))).toBe('0.010000');
    expect(formatCredits(storageCost(30))).toBe('0.290000');
    for (const bad of [-1, 31, 1.5, Number.NaN]) {
      try {
        storageCost(bad);
        throw new Error('expected a parameter error');
      } catch (e) {
        expect(e).toBeInstanceOf(TracelabError);
        expect((e as TracelabError).code).toBe(1019);
        expect((e as TracelabError).status).toBe(400);
      }
    }
  });
});

describe('download pricing (§2.2, §6.2)', () => {
  const table: [Mode, boolean, string, string, boolean][] = [
    ['production', false, '0.100000', '0.100000', false],
    ['production', true, '0.100000', '0.100000', false],
    ['preview', false, '0.900000', '0.900000', true],
    ['preview', true, '0.100000', '0.100000', false],
    ['test', false, '0.000000', '0.100000', false],
    ['test_preview', false, '0.000000', '0.900000', true],
    ['test_preview', true, '0.000000', '0.100000', false],
  ];
  it.each(table)('%s token, valid receipt %s → charged %s, calculated %s, receipt issued %s', (tokenMode, validReceipt, charged, calculated, receipt) => {
    const c = downloadCost({ tokenMode, validReceipt });
    expect(fmt(c)).toEqual([charged, calculated]);
    expect(c.issuesReceipt).toBe(receipt);
  });
});

describe('creditHeaders', () => {
  it('sends Calculated for test modes only, unless asked', () => {
    expect(creditHeaders(vectorizeCost('test'), 'test')).toEqual({
      'X-Credits-Charged': '0.000000',
      'X-Credits-Calculated': '1.000000',
    });
    expect(creditHeaders(vectorizeCost('production'), 'production')).toEqual({ 'X-Credits-Charged': '1.000000' });
    expect(creditHeaders(vectorizeCost('preview', 3), 'preview', true)).toEqual({
      'X-Credits-Charged': '0.220000',
      'X-Credits-Calculated': '0.220000',
    });
  });
  it('every mode has a price', () => {
    for (const m of MODES) expect(Number.isInteger(vectorizeCost(m).calculated)).toBe(true);
  });
});
