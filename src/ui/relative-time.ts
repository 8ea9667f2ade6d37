/**
 * "in 2 days 3 hours", "in 47 minutes", "5 seconds ago": a time relative to now for the retained
 * images' expiry. In: two instants (ms since the epoch). Out: English text.
 *
 * The unit only ever gets smaller as the instant comes closer (days and hours → hours → minutes →
 * seconds) and counts whole units left, so a retention of two days reads "in 2 days", then
 * "in 1 day 23 hours", never "in 2 days" followed by "in 48 hours" (issue 17).
 */

const MINUTE_S = 60;
const HOUR_S = 3600;
const DAY_S = 86_400;

function unit(n: number, name: string): string {
  return `${n} ${name}${n === 1 ? '' : 's'}`;
}

/** The span `seconds` (≥ 0) in its largest whole units: "2 days 3 hours", "1 hour", "40 seconds". */
function span(seconds: number): string {
  if (seconds >= DAY_S) {
    const days = Math.floor(seconds / DAY_S);
    const hours = Math.floor((seconds - days * DAY_S) / HOUR_S);
    return hours > 0 ? `${unit(days, 'day')} ${unit(hours, 'hour')}` : unit(days, 'day');
  }
  if (seconds >= HOUR_S) {
    const hours = Math.floor(seconds / HOUR_S);
    const minutes = Math.floor((seconds - hours * HOUR_S) / MINUTE_S);
    return minutes > 0 ? `${unit(hours, 'hour')} ${unit(minutes, 'minute')}` : unit(hours, 'hour');
  }
  if (seconds >= MINUTE_S) return unit(Math.floor(seconds / MINUTE_S), 'minute');
  return unit(Math.floor(seconds), 'second');
}

/** `at` relative to `now`: "in …" ahead, "… ago" past, "now" within a second. */
export function relativeTime(at: number, now: number): string {
  const seconds = (at - now) / 1000;
  if (Math.abs(seconds) < 1) return 'now';
  return seconds > 0 ? `in ${span(seconds)}` : `${span(-seconds)} ago`;
}
