/**
 * The solver every family polishes its hypothesis with.
 * In: samples (x, y pairs), a start vector of parameters, a model that turns parameters into the
 * signed distance of a point to the primitive, and a finite-difference step per parameter.
 * Out: the parameters after at most 40 rounds.
 * Method: Levenberg–Marquardt minimising the sum of squared signed distances, with a
 * forward-difference Jacobian and the normal equations solved by Gaussian elimination with
 * partial pivoting. A hypothesis still far off after 8 rounds (RMS over `hopelessRms`) is given
 * up early: a blob is no primitive of this kind, and the full polish would cost most of the time.
 */

/** Signed distance from a point to a primitive's outline (negative inside). */
export type Distance = (x: number, y: number) => number;

/** RMS distance (px) after the first rounds of the polish beyond which a hypothesis is dropped. */
export const HOPELESS_RMS = 1.2;

/**
 * Levenberg–Marquardt on the signed distances of the samples: minimises Σ d(v; pᵢ)² over the
 * parameters v, forward-difference Jacobian with the given steps. Returns the polished v.
 */
export function polish(p: Float64Array, start: Float64Array, model: (v: Float64Array) => Distance, steps: readonly number[], hopelessRms = Infinity): Float64Array {
  const n = p.length / 2;
  const k = start.length;
  let v = start.slice();
  const res = new Float64Array(n);
  const trial = new Float64Array(n);
  const jac = new Float64Array(n * k);
  const eval_ = (params: Float64Array, out: Float64Array): number => {
    const distance = model(params);
    let cost = 0;
    for (let i = 0; i < n; i++) {
      const d = distance(p[i * 2]!, p[i * 2 + 1]!);
      out[i] = d;
      cost += d * d;
    }
    return cost;
  };
  let cost = eval_(v, res);
  let lambda = 1e-3;
  const a = new Float64Array(k * k);
  const g = new Float64Array(k);
  for (let iter = 0; iter < 40; iter++) {
    // Far off after a few rounds: no primitive of this kind (saves the full polish on blobs).
    if (iter === 8 && Math.sqrt(cost / n) > hopelessRms) return v;
    for (let j = 0; j < k; j++) {
      const shifted = v.slice();
      shifted[j] = shifted[j]! + steps[j]!;
      const distance = model(shifted);
      for (let i = 0; i < n; i++) jac[i * k + j] = (distance(p[i * 2]!, p[i * 2 + 1]!) - res[i]!) / steps[j]!;
    }
    a.fill(0);
    g.fill(0);
    for (let i = 0; i < n; i++) {
      for (let r = 0; r < k; r++) {
        const jr = jac[i * k + r]!;
        g[r] = g[r]! + jr * res[i]!;
        for (let c = r; c < k; c++) a[r * k + c] = a[r * k + c]! + jr * jac[i * k + c]!;
      }
    }
    for (let r = 0; r < k; r++) for (let c = 0; c < r; c++) a[r * k + c] = a[c * k + r]!;
    let improved = false;
    while (lambda < 1e10) {
      const m = a.slice();
      for (let r = 0; r < k; r++) m[r * k + r] = m[r * k + r]! * (1 + lambda) + 1e-12;
      const delta = solve(m, g, k);
      if (!delta) {
        lambda *= 10;
        continue;
      }
      const next = v.slice();
      for (let r = 0; r < k; r++) next[r] = next[r]! - delta[r]!;
      const nextCost = eval_(next, trial);
      if (nextCost < cost) {
        const gain = cost - nextCost;
        v = next;
        res.set(trial);
        cost = nextCost;
        lambda = Math.max(1e-7, lambda / 3);
        improved = gain > 1e-10 * (cost + 1e-12);
        break;
      }
      lambda *= 4;
    }
    if (!improved) break;
  }
  return v;
}

/** Solves m·x = b (k×k, Gaussian elimination with partial pivoting); undefined if singular. */
function solve(m: Float64Array, b: Float64Array, k: number): Float64Array | undefined {
  const a = m.slice();
  const x = b.slice();
  for (let col = 0; col < k; col++) {
    let pivot = col;
    for (let r = col + 1; r < k; r++) if (Math.abs(a[r * k + col]!) > Math.abs(a[pivot * k + col]!)) pivot = r;
    if (Math.abs(a[pivot * k + col]!) < 1e-15) return undefined;
    if (pivot !== col) {
      for (let c = 0; c < k; c++) {
        const t = a[col * k + c]!;
        a[col * k + c] = a[pivot * k + c]!;
        a[pivot * k + c] = t;
      }
      const t = x[col]!;
      x[col] = x[pivot]!;
      x[pivot] = t;
    }
    for (let r = col + 1; r < k; r++) {
      const f = a[r * k + col]! / a[col * k + col]!;
      if (f === 0) continue;
      for (let c = col; c < k; c++) a[r * k + c] = a[r * k + c]! - f * a[col * k + c]!;
      x[r] = x[r]! - f * x[col]!;
    }
  }
  for (let r = k - 1; r >= 0; r--) {
    let s = x[r]!;
    for (let c = r + 1; c < k; c++) s -= a[r * k + c]! * x[c]!;
    x[r] = s / a[r * k + r]!;
  }
  return x;
}
