/**
 * The solver every family polishes its hypothesis with.
 * In: samples (x, y pairs), a start vector of parameters, a model that writes the signed distance
 * of every sample to the primitive for given parameters, and a finite-difference step per
 * parameter. Out: the parameters after at most 40 rounds.
 * Method: Levenberg–Marquardt minimising the sum of squared signed distances, with a
 * forward-difference Jacobian and the normal equations solved by Gaussian elimination with
 * partial pivoting. A hypothesis still far off after 8 rounds (RMS over `hopelessRms`) is given
 * up early: a blob is no primitive of this kind, and the full polish would cost most of the time.
 */

/**
 * Signed distances (negative inside) of the samples p (x, y pairs) to a primitive with parameters
 * v, written to out[0 .. p.length / 2). A model fills the whole array in one call rather than
 * answering per point: a per-point function returned a boxed number per sample and was a new
 * closure per parameter vector, most of the polish's garbage.
 */
export type Distances = (v: Float64Array, p: Float64Array, out: Float64Array, scratch: PolishScratch) => void;

/** RMS distance (px) after the first rounds of the polish beyond which a hypothesis is dropped. */
export const HOPELESS_RMS = 1.2;

/**
 * The parameterized shapes' work arrays, one per fitting part (jobs.ts), passed to every fit and
 * polish and kept between calls (one polish runs at a time per thread). Per sample (n): the
 * distances at the current parameters, at a trial step and at one shifted parameter, and the
 * n × k Jacobian (column by column: parameter j's n derivatives from j·n); grown when a loop has
 * more samples than any before (only the first n are used). Per parameter count k (5, 6 or 8):
 * exactly k-long vectors, since a polygon model reads its vertex count from the length of v.
 */
export class PolishScratch {
  res = new Float64Array(0);
  trial = new Float64Array(0);
  column = new Float64Array(0);
  jac = new Float64Array(0);
  private readonly byCount: (ParameterScratch | undefined)[] = [];
  /** The distances errors() (geometry.ts) sums, grown with the largest loop. */
  distances = new Float64Array(0);
  /** Per polygon side, the numbers polygonDistances (geometry.ts) works them out to; grown with the corner count. */
  sides = new Float64Array(0);
  /** By corner count, the polygon a model measures against, rewritten for every parameter vector (the isosceles triangle, the star). */
  private readonly polygons: (Float64Array | undefined)[] = [];

  /** The polygon of `corners` corners (x, y pairs; exactly that long: polygonDistances reads the count from it). */
  polygon(corners: number): Float64Array {
    return (this.polygons[corners] ??= new Float64Array(corners * 2));
  }

  /** Makes room for n samples and k parameters; returns the k-sized arrays. */
  reserve(n: number, k: number): ParameterScratch {
    if (this.res.length < n) {
      const size = Math.max(n, this.res.length * 2);
      this.res = new Float64Array(size);
      this.trial = new Float64Array(size);
      this.column = new Float64Array(size);
    }
    if (this.jac.length < n * k) this.jac = new Float64Array(Math.max(n * k, this.jac.length * 2));
    return (this.byCount[k] ??= new ParameterScratch(k));
  }
}

/** The polish's arrays sized by the parameter count k. */
class ParameterScratch {
  /** The normal matrix JᵀJ and its damped copy the elimination works on; k × k. */
  readonly normal: Float64Array;
  readonly damped: Float64Array;
  /** Jᵀr and the step solved from it. */
  readonly gradient: Float64Array;
  readonly delta: Float64Array;
  /** The current parameters and the trial ones: they swap on an accepted step. */
  current: Float64Array;
  next: Float64Array;
  /** The current parameters with one of them moved by its finite-difference step. */
  readonly shifted: Float64Array;

  constructor(k: number) {
    this.normal = new Float64Array(k * k);
    this.damped = new Float64Array(k * k);
    this.gradient = new Float64Array(k);
    this.delta = new Float64Array(k);
    this.current = new Float64Array(k);
    this.next = new Float64Array(k);
    this.shifted = new Float64Array(k);
  }
}

/**
 * Levenberg–Marquardt on the signed distances of the samples: minimises Σ d(v; pᵢ)² over the
 * parameters v, forward-difference Jacobian with the given steps. Returns the polished v (a new
 * array; `start` is not changed).
 */
export function polish(scratch: PolishScratch, p: Float64Array, start: Float64Array, model: Distances, steps: readonly number[], hopelessRms = Infinity): Float64Array {
  const n = p.length / 2;
  const k = start.length;
  const vectors = scratch.reserve(n, k);
  const { normal: a, damped: m, gradient: g, delta } = vectors;
  let v = vectors.current;
  let next = vectors.next;
  // The distances at v and at the trial step swap on an accepted step rather than being copied.
  let res = scratch.res;
  let trial = scratch.trial;
  v.set(start);
  let cost = sumOfSquares(scratch, model, v, p, res, n);
  let lambda = 1e-3;
  for (let iter = 0; iter < 40; iter++) {
    // Far off after a few rounds: no primitive of this kind (saves the full polish on blobs).
    if (iter === 8 && Math.sqrt(cost / n) > hopelessRms) break;
    jacobian(scratch, vectors, p, v, res, model, steps, n);
    normalEquations(scratch.jac, res, n, k, a, g);
    let improved = false;
    while (lambda < 1e10) {
      m.set(a);
      for (let r = 0; r < k; r++) m[r * k + r] = m[r * k + r]! * (1 + lambda) + 1e-12;
      if (!solveInPlace(m, g, k, delta)) {
        lambda *= 10;
        continue;
      }
      for (let r = 0; r < k; r++) next[r] = v[r]! - delta[r]!;
      const nextCost = sumOfSquares(scratch, model, next, p, trial, n);
      if (nextCost < cost) {
        const gain = cost - nextCost;
        const taken = next;
        next = v;
        v = taken;
        const distances = trial;
        trial = res;
        res = distances;
        cost = nextCost;
        lambda = Math.max(1e-7, lambda / 3);
        improved = gain > 1e-10 * (cost + 1e-12);
        break;
      }
      lambda *= 4;
    }
    if (!improved) break;
  }
  // The swapped pairs go back to the scratch in either order; the caller gets its own copy.
  vectors.current = v;
  vectors.next = next;
  scratch.res = res;
  scratch.trial = trial;
  return v.slice();
}

/**
 * The forward-difference Jacobian of the n distances at v (res) into scratch.jac, column by
 * column: parameter j's n derivatives at jac[j·n …] (contiguous, for normalEquations' dot products).
 */
function jacobian(scratch: PolishScratch, vectors: ParameterScratch, p: Float64Array, v: Float64Array, res: Float64Array, model: Distances, steps: readonly number[], n: number): void {
  const { column, jac } = scratch;
  const shifted = vectors.shifted;
  const k = v.length;
  for (let j = 0; j < k; j++) {
    for (let r = 0; r < k; r++) shifted[r] = v[r]!;
    const step = steps[j]!;
    shifted[j] = shifted[j]! + step;
    model(shifted, p, column, scratch);
    const o = j * n;
    for (let i = 0; i < n; i++) jac[o + i] = (column[i]! - res[i]!) / step;
  }
}

/**
 * JᵀJ (k × k, both triangles) into a and Jᵀr into g, from the column-major Jacobian. Each entry
 * is summed over the samples in their order from zero, one dot product at a time.
 */
function normalEquations(jac: Float64Array, res: Float64Array, n: number, k: number, a: Float64Array, g: Float64Array): void {
  for (let r = 0; r < k; r++) {
    const or = r * n;
    let gr = 0;
    for (let i = 0; i < n; i++) gr += jac[or + i]! * res[i]!;
    g[r] = gr;
    for (let c = r; c < k; c++) {
      const oc = c * n;
      let sum = 0;
      for (let i = 0; i < n; i++) sum += jac[or + i]! * jac[oc + i]!;
      a[r * k + c] = sum;
      a[c * k + r] = sum;
    }
  }
}

/** Writes the model's distances of the n samples for parameters v to out; their sum of squares. */
function sumOfSquares(scratch: PolishScratch, model: Distances, v: Float64Array, p: Float64Array, out: Float64Array, n: number): number {
  model(v, p, out, scratch);
  let cost = 0;
  for (let i = 0; i < n; i++) {
    const d = out[i]!;
    cost += d * d;
  }
  return cost;
}

/**
 * Solves m·x = b (k×k, Gaussian elimination with partial pivoting) into x; false if singular.
 * Eliminates in m itself (the caller's damped copy); b is left as it is.
 */
function solveInPlace(m: Float64Array, b: Float64Array, k: number, x: Float64Array): boolean {
  const a = m;
  for (let r = 0; r < k; r++) x[r] = b[r]!;
  for (let col = 0; col < k; col++) {
    let pivot = col;
    for (let r = col + 1; r < k; r++) if (Math.abs(a[r * k + col]!) > Math.abs(a[pivot * k + col]!)) pivot = r;
    if (Math.abs(a[pivot * k + col]!) < 1e-15) return false;
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
  return true;
}
