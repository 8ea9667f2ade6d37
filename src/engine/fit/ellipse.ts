/**
 * Direct least-squares ellipse fitting (Fitzgibbon, Pilu & Fisher 1999, in the numerically stable
 * form of Halíř & Flusser 1998). In: points (x, y pairs). Out: centre, semi-axes and rotation, or
 * undefined when the best conic is not an ellipse. Points are centred and scaled first; the
 * 3×3 reduced eigenproblem is solved with the characteristic cubic.
 */

import { hypot2, hypot3 } from '../length.js';

export interface Ellipse {
  readonly cx: number;
  readonly cy: number;
  /** Semi-major axis (a ≥ b). */
  readonly a: number;
  readonly b: number;
  /** Rotation of the major axis, radians in [0, π), y down. */
  readonly angle: number;
}

/** Mean of the points (x, y pairs). */
export function centroid(p: Float64Array): [number, number] {
  const n = p.length / 2;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += p[i * 2]!;
    my += p[i * 2 + 1]!;
  }
  return [mx / n, my / n];
}

/**
 * The circle nearest the points in the algebraic sense (Kåsa): centre and radius, or undefined
 * when the points lie on a line. Exact for points on a circle, whole or an arc of it.
 */
export function fitCircle(p: Float64Array): { cx: number; cy: number; r: number } | undefined {
  const n = p.length / 2;
  const [mx, my] = centroid(p);
  let suu = 0, suv = 0, svv = 0, suuu = 0, svvv = 0, suvv = 0, svuu = 0;
  for (let i = 0; i < n; i++) {
    const u = p[i * 2]! - mx;
    const v = p[i * 2 + 1]! - my;
    suu += u * u;
    suv += u * v;
    svv += v * v;
    suuu += u * u * u;
    svvv += v * v * v;
    suvv += u * v * v;
    svuu += v * u * u;
  }
  const det = suu * svv - suv * suv;
  if (Math.abs(det) < 1e-9) return undefined;
  const bu = 0.5 * (suuu + suvv);
  const bv = 0.5 * (svvv + svuu);
  const uc = (bu * svv - suv * bv) / det;
  const vc = (suu * bv - suv * bu) / det;
  return { cx: mx + uc, cy: my + vc, r: Math.sqrt(uc * uc + vc * vc + (suu + svv) / n) };
}

export function fitEllipse(p: Float64Array): Ellipse | undefined {
  const n = p.length / 2;
  if (n < 6) return undefined;
  const [mx, my] = centroid(p);
  let scale = 0;
  for (let i = 0; i < n; i++) scale = Math.max(scale, Math.abs(p[i * 2]! - mx), Math.abs(p[i * 2 + 1]! - my));
  if (scale < 1e-9) return undefined;
  const { s1, s2, s3 } = scatterMatrices(p, mx, my, scale);
  const s3inv = invert3(s3);
  if (!s3inv) return undefined;
  const { t, mm } = reducedScatter(s1, s2, s3inv);
  const best = ellipticEigenvector(mm);
  if (!best) return undefined;
  const a2 = [0, 1, 2].map((r) => t[r * 3]! * best[0]! + t[r * 3 + 1]! * best[1]! + t[r * 3 + 2]! * best[2]!);
  const e = conicToEllipse(best[0]!, best[1]!, best[2]!, a2[0]!, a2[1]!, a2[2]!, mx, my, scale);
  return e && rescaleToPoints(p, e);
}

/**
 * Scatter matrices S1 = D1ᵀD1, S2 = D1ᵀD2, S3 = D2ᵀD2 (3 × 3, row-major) with D1 = [x², xy, y²],
 * D2 = [x, y, 1] of the points moved by (−mx, −my) and divided by scale.
 */
function scatterMatrices(p: Float64Array, mx: number, my: number, scale: number): { s1: Float64Array; s2: Float64Array; s3: Float64Array } {
  const n = p.length / 2;
  const s1 = new Float64Array(9);
  const s2 = new Float64Array(9);
  const s3 = new Float64Array(9);
  for (let i = 0; i < n; i++) {
    const x = (p[i * 2]! - mx) / scale;
    const y = (p[i * 2 + 1]! - my) / scale;
    const xx = x * x;
    const xy = x * y;
    const yy = y * y;
    // Rows of D1 = [xx, xy, yy] and D2 = [x, y, 1], accumulated without temporary arrays.
    s1[0]! += xx * xx; s1[1]! += xx * xy; s1[2]! += xx * yy;
    s1[4]! += xy * xy; s1[5]! += xy * yy; s1[8]! += yy * yy;
    s2[0]! += xx * x; s2[1]! += xx * y; s2[2]! += xx;
    s2[3]! += xy * x; s2[4]! += xy * y; s2[5]! += xy;
    s2[6]! += yy * x; s2[7]! += yy * y; s2[8]! += yy;
    s3[0]! += x * x; s3[1]! += x * y; s3[2]! += x;
    s3[4]! += y * y; s3[5]! += y; s3[8]! += 1;
  }
  // The symmetric halves.
  s1[3] = s1[1]!; s1[6] = s1[2]!; s1[7] = s1[5]!;
  s3[3] = s3[1]!; s3[6] = s3[2]!; s3[7] = s3[5]!;
  return { s1, s2, s3 };
}

/**
 * The quadratic part's eigenproblem: T = −S3⁻¹ S2ᵀ (the linear part from the quadratic one) and
 * M = S1 + S2 T premultiplied by C1⁻¹ (rows: M2/2, −M1, M0/2).
 */
function reducedScatter(s1: Float64Array, s2: Float64Array, s3inv: ArrayLike<number>): { t: Float64Array; mm: Float64Array } {
  const t = new Float64Array(9);
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) {
      let sum = 0;
      for (let k = 0; k < 3; k++) sum += s3inv[r * 3 + k]! * s2[c * 3 + k]!;
      t[r * 3 + c] = -sum;
    }
  }
  const m = new Float64Array(9);
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) {
      let sum = s1[r * 3 + c]!;
      for (let k = 0; k < 3; k++) sum += s2[r * 3 + k]! * t[k * 3 + c]!;
      m[r * 3 + c] = sum;
    }
  }
  const mm = new Float64Array(9);
  for (let c = 0; c < 3; c++) {
    mm[c] = m[6 + c]! / 2;
    mm[3 + c] = -m[3 + c]!;
    mm[6 + c] = m[c]! / 2;
  }
  return { t, mm };
}

/** The first eigenvector of mm (quadratic coefficients a, b, c) that is an ellipse (4ac − b² > 0). */
function ellipticEigenvector(mm: Float64Array): number[] | undefined {
  for (const lambda of realEigenvalues3(mm)) {
    const v = nullVector3(mm, lambda);
    if (!v) continue;
    if (4 * v[0]! * v[2]! - v[1]! * v[1]! > 0) return v;
  }
  return undefined;
}

/**
 * The algebraic fit is biased towards ellipses that are slightly too small (it minimises the
 * conic's value, not distance). Scale both axes by the mean factor that puts each point on the
 * curve along its ray from the centre, so the residuals average out to zero.
 */
function rescaleToPoints(p: Float64Array, e: Ellipse): Ellipse {
  const cos = Math.cos(e.angle);
  const sin = Math.sin(e.angle);
  let sum = 0;
  const n = p.length / 2;
  for (let i = 0; i < n; i++) {
    const dx = p[i * 2]! - e.cx;
    const dy = p[i * 2 + 1]! - e.cy;
    const u = dx * cos + dy * sin;
    const v = -dx * sin + dy * cos;
    sum += Math.sqrt((u * u) / (e.a * e.a) + (v * v) / (e.b * e.b));
  }
  const factor = sum / n;
  return { ...e, a: e.a * factor, b: e.b * factor };
}

function conicToEllipse(A: number, B: number, C: number, D: number, E: number, F: number, mx: number, my: number, scale: number): Ellipse | undefined {
  const det = 4 * A * C - B * B;
  if (det <= 0) return undefined;
  const x0 = (B * E - 2 * C * D) / det;
  const y0 = (B * D - 2 * A * E) / det;
  const f0 = A * x0 * x0 + B * x0 * y0 + C * y0 * y0 + D * x0 + E * y0 + F;
  const angle = 0.5 * Math.atan2(B, A - C);
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const ap = A * cos * cos + B * cos * sin + C * sin * sin;
  const cp = A * sin * sin - B * cos * sin + C * cos * cos;
  if (!(-f0 / ap > 0 && -f0 / cp > 0)) return undefined;
  const a = Math.sqrt(-f0 / ap) * scale;
  const b = Math.sqrt(-f0 / cp) * scale;
  // Report the major axis as `a`, its angle in [0, π).
  const major = a >= b ? angle : angle + Math.PI / 2;
  const norm = ((major % Math.PI) + Math.PI) % Math.PI;
  return { cx: mx + x0 * scale, cy: my + y0 * scale, a: Math.max(a, b), b: Math.min(a, b), angle: norm };
}

function invert3(m: Float64Array): Float64Array | undefined {
  const [a, b, c, d, e, f, g, h, i] = m as unknown as number[];
  const A = e! * i! - f! * h!;
  const B = -(d! * i! - f! * g!);
  const C = d! * h! - e! * g!;
  const det = a! * A + b! * B + c! * C;
  if (Math.abs(det) < 1e-15) return undefined;
  const out = new Float64Array([
    A, -(b! * i! - c! * h!), b! * f! - c! * e!,
    B, a! * i! - c! * g!, -(a! * f! - c! * d!),
    C, -(a! * h! - b! * g!), a! * e! - b! * d!,
  ]);
  for (let k = 0; k < 9; k++) out[k]! /= det;
  return out;
}

/** Real roots of det(M − λI) = 0 for a 3×3 matrix. */
function realEigenvalues3(m: Float64Array): number[] {
  const tr = m[0]! + m[4]! + m[8]!;
  const minors = m[0]! * m[4]! - m[1]! * m[3]! + m[0]! * m[8]! - m[2]! * m[6]! + m[4]! * m[8]! - m[5]! * m[7]!;
  const det =
    m[0]! * (m[4]! * m[8]! - m[5]! * m[7]!) - m[1]! * (m[3]! * m[8]! - m[5]! * m[6]!) + m[2]! * (m[3]! * m[7]! - m[4]! * m[6]!);
  // λ³ − tr λ² + minors λ − det = 0 → depressed cubic in s = λ − tr/3.
  const p = minors - (tr * tr) / 3;
  const q = (-2 * tr * tr * tr) / 27 + (tr * minors) / 3 - det;
  const shift = tr / 3;
  const disc = (q * q) / 4 + (p * p * p) / 27;
  if (disc > 1e-18) {
    const u = Math.cbrt(-q / 2 + Math.sqrt(disc));
    const v = Math.cbrt(-q / 2 - Math.sqrt(disc));
    return [u + v + shift];
  }
  if (Math.abs(p) < 1e-18) return [shift];
  const r = Math.sqrt(-p / 3);
  const phi = Math.acos(Math.max(-1, Math.min(1, (-q / 2) / (r * r * r))));
  return [0, 1, 2].map((k) => 2 * r * Math.cos((phi - 2 * Math.PI * k) / 3) + shift);
}

/** A vector v with (M − λI) v ≈ 0: the largest cross product of two rows. */
function nullVector3(m: Float64Array, lambda: number): number[] | undefined {
  const rows = [0, 1, 2].map((r) => [m[r * 3]! - (r === 0 ? lambda : 0), m[r * 3 + 1]! - (r === 1 ? lambda : 0), m[r * 3 + 2]! - (r === 2 ? lambda : 0)]);
  let best: number[] | undefined;
  let bestNorm = 0;
  for (const [i, j] of [[0, 1], [0, 2], [1, 2]] as const) {
    const a = rows[i]!;
    const b = rows[j]!;
    const v = [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];
    const norm = hypot3(v[0]!, v[1]!, v[2]!);
    if (norm > bestNorm) {
      bestNorm = norm;
      best = v;
    }
  }
  return best && bestNorm > 1e-15 ? best.map((x) => x / bestNorm) : undefined;
}

/** Largest radial distance (px) from the points to the ellipse; a close, cautious estimate. */
export function ellipseMaxError(p: Float64Array, e: Ellipse): number {
  const cos = Math.cos(e.angle);
  const sin = Math.sin(e.angle);
  let worst = 0;
  for (let i = 0; i < p.length / 2; i++) {
    const dx = p[i * 2]! - e.cx;
    const dy = p[i * 2 + 1]! - e.cy;
    const u = dx * cos + dy * sin;
    const v = -dx * sin + dy * cos;
    const r = hypot2(u, v);
    if (r < 1e-9) return Infinity;
    const k = 1 / Math.sqrt((u * u) / (e.a * e.a) + (v * v) / (e.b * e.b));
    worst = Math.max(worst, Math.abs(1 - k) * r);
  }
  return worst;
}
