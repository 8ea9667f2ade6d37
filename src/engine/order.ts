/**
 * Index sorts for the engine's once-per-picture stages.
 * In: an index list and a key per index. Out: the indices ordered by key (ascending or
 * descending), equal keys by index — the order `(a, b) => key[a] - key[b] || a - b` gives.
 * The comparators are module functions reading the keys from a module variable set for the
 * duration of one synchronous sort. An inline comparator would be a new closure on every call,
 * and V8 compiles such closures afresh for every picture, on the same cores that trace.
 */

let sortKeys: ArrayLike<number> = [];

function byKeyAscending(a: number, b: number): number {
  return sortKeys[a]! - sortKeys[b]! || a - b;
}

function byKeyDescending(a: number, b: number): number {
  return sortKeys[b]! - sortKeys[a]! || a - b;
}

/** Sorts `indices` in place by keys[index] (largest first when descending), ties by index. */
export function sortIndicesByKey(indices: number[], keys: ArrayLike<number>, descending: boolean): number[] {
  sortKeys = keys;
  try {
    return indices.sort(descending ? byKeyDescending : byKeyAscending);
  } finally {
    sortKeys = [];
  }
}

/** 0 … keys.length − 1 ordered by key (largest first when descending), ties by index. */
export function indicesByKey(keys: ArrayLike<number>, descending: boolean): number[] {
  const indices: number[] = [];
  for (let i = 0; i < keys.length; i++) indices.push(i);
  return sortIndicesByKey(indices, keys, descending);
}
