/**
 * Index sorts for the engine's once-per-picture stages.
 * In: an index list and a key per index (or an order and what it reads). Out: the indices
 * ordered by key (ascending or descending), equal keys by index — the order
 * `(a, b) => key[a] - key[b] || a - b` gives.
 * A bottom-up merge sort with the keys passed in, rather than Array#sort with a comparator: the
 * comparator would have to read the keys from a module variable (parked state) or be a new
 * closure on every call, which V8 compiles afresh for every picture on the cores that trace. The
 * order is total (ties by index), so any correct sort gives the same result.
 */

/** The order a sort follows: true when index a goes before index b, given the sort's context. */
export type IndexOrder<Context> = (context: Context, a: number, b: number) => boolean;

/**
 * Sorts `indices` in place by `before` (which must be a total order: ties broken by index), a
 * bottom-up merge sort. `before` is a module-level function and `context` what it reads, so no
 * closure is made per call.
 */
export function sortIndices<Context>(indices: number[], context: Context, before: IndexOrder<Context>): number[] {
  const n = indices.length;
  let from = indices;
  let to: number[] = new Array<number>(n);
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) to[k++] = before(context, from[j]!, from[i]!) ? from[j++]! : from[i++]!;
      while (i < mid) to[k++] = from[i++]!;
      while (j < hi) to[k++] = from[j++]!;
    }
    const swap = from;
    from = to;
    to = swap;
  }
  if (from !== indices) for (let k = 0; k < n; k++) indices[k] = from[k]!;
  return indices;
}

interface KeyOrder {
  readonly keys: ArrayLike<number>;
  readonly descending: boolean;
}

/** True when index a goes before index b by key. */
function beforeByKey(order: KeyOrder, a: number, b: number): boolean {
  const difference = order.descending ? order.keys[b]! - order.keys[a]! : order.keys[a]! - order.keys[b]!;
  if (difference < 0) return true;
  if (difference > 0) return false;
  return a < b; // equal keys (and NaN differences, as the comparator's `|| a - b` treats them)
}

/** Sorts `indices` in place by keys[index] (largest first when descending), ties by index. */
export function sortIndicesByKey(indices: number[], keys: ArrayLike<number>, descending: boolean): number[] {
  return sortIndices(indices, { keys, descending }, beforeByKey);
}

/** 0 … keys.length − 1 ordered by key (largest first when descending), ties by index. */
export function indicesByKey(keys: ArrayLike<number>, descending: boolean): number[] {
  const indices: number[] = [];
  for (let i = 0; i < keys.length; i++) indices.push(i);
  return sortIndicesByKey(indices, keys, descending);
}
