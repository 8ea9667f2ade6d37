/**
 * The median of a list of numbers, the one the bench scripts quote: non-finite values left out,
 * the mean of the two middle values for an even count, NaN for an empty list.
 */
export function median(values) {
  const sorted = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
