import { describe, expect, it } from 'vitest';

import { relativeTime } from './relative-time.js';

const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);
const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;
const DAY = 24 * H;

describe('relativeTime (retained image expiry)', () => {
  it('counts down a two-day retention without jumping from days to 48 hours', () => {
    expect(relativeTime(NOW + 2 * DAY, NOW)).toBe('in 2 days');
    expect(relativeTime(NOW + 2 * DAY - MIN, NOW)).toBe('in 1 day 23 hours');
    expect(relativeTime(NOW + DAY, NOW)).toBe('in 1 day');
    expect(relativeTime(NOW + DAY - MIN, NOW)).toBe('in 23 hours 59 minutes');
    expect(relativeTime(NOW + H, NOW)).toBe('in 1 hour');
    expect(relativeTime(NOW + 47 * MIN, NOW)).toBe('in 47 minutes');
    expect(relativeTime(NOW + 30 * S, NOW)).toBe('in 30 seconds');
  });

  it('the unit never grows as the expiry comes closer', () => {
    const rank = (text: string) => (/day/.test(text) ? 3 : /hour/.test(text) ? 2 : /minute/.test(text) ? 1 : 0);
    let last = Infinity;
    for (let left = 3 * DAY; left > 0; left -= 7 * MIN) {
      const r = rank(relativeTime(NOW + left, NOW));
      expect(r).toBeLessThanOrEqual(last);
      last = r;
    }
  });

  it('past instants read "ago", the same instant "now"', () => {
    expect(relativeTime(NOW - 5 * MIN, NOW)).toBe('5 minutes ago');
    expect(relativeTime(NOW - 2 * DAY - 3 * H, NOW)).toBe('2 days 3 hours ago');
    expect(relativeTime(NOW + 200, NOW)).toBe('now');
  });
});
