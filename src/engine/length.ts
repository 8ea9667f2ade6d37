/**
 * Euclidean lengths for hot loops. In: vector components. Out: √(Σ c²).
 *
 * Math.hypot is not inlined by V8: each call boxed its arguments (≈ 30 MB of heap numbers per
 * 0.3-MP trace, a large share of the garbage collector's time), and the specification leaves its
 * precision to the engine ("implementation-approximated"), while √ is correctly rounded
 * everywhere. The inputs here are pixel-scale, far from overflow or underflow, which is all
 * hypot's extra care buys.
 */

export function hypot2(dx: number, dy: number): number {
  return Math.sqrt(dx * dx + dy * dy);
}

export function hypot3(dx: number, dy: number, dz: number): number {
  return Math.sqrt(dx * dx + dy * dy + dz * dz);
}
