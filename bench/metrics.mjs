// Image-comparison metrics for the Tracelab benchmark.
//
// Pure functions: images are { width, height, data } with data an RGBA byte
// array (Uint8Array / Uint8ClampedArray / Buffer), 4 bytes per pixel, rows top
// to bottom. Nothing here touches the file system.

/** Composite an RGBA image over an opaque background (white by default). Returns a new opaque RGBA image. */
export function flattenOver(img, bg = [255, 255, 255]) {
  const { width, height, data } = img;
  const n = width * height;
  const out = new Uint8ClampedArray(n * 4);
  for (let i = 0; i < n; i++) {
    const o = i * 4;
    const a = data[o + 3];
    if (a === 255) {
      out[o] = data[o];
      out[o + 1] = data[o + 1];
      out[o + 2] = data[o + 2];
    } else {
      // straight (non-premultiplied) alpha, as in PNG
      const t = 255 - a;
      out[o] = Math.round((data[o] * a + bg[0] * t) / 255);
      out[o + 1] = Math.round((data[o + 1] * a + bg[1] * t) / 255);
      out[o + 2] = Math.round((data[o + 2] * a + bg[2] * t) / 255);
    }
    out[o + 3] = 255;
  }
  return { width, height, data: out };
}

/** BT.601 luma of an RGBA image as Float64Array (alpha ignored: flatten first). */
export function luma(img) {
  const { width, height, data } = img;
  const n = width * height;
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const o = i * 4;
    y[i] = 0.299 * data[o] + 0.587 * data[o + 1] + 0.114 * data[o + 2];
  }
  return y;
}

function assertSameSize(a, b) {
  if (a.width !== b.width || a.height !== b.height) {
    throw new Error(`size mismatch: ${a.width}x${a.height} vs ${b.width}x${b.height}`);
  }
}

function gaussianKernel(size, sigma) {
  const k = new Float64Array(size);
  const c = (size - 1) / 2;
  let s = 0;
  for (let i = 0; i < size; i++) {
    k[i] = Math.exp(-((i - c) ** 2) / (2 * sigma * sigma));
    s += k[i];
  }
  for (let i = 0; i < size; i++) k[i] /= s;
  return k;
}

// 'valid' separable convolution of a w×h plane with a 1-D kernel in both directions.
function filterValid(src, w, h, k) {
  const ks = k.length;
  const ow = w - ks + 1;
  const oh = h - ks + 1;
  const tmp = new Float64Array(ow * h);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < ow; x++) {
      let s = 0;
      for (let i = 0; i < ks; i++) s += k[i] * src[row + x + i];
      tmp[y * ow + x] = s;
    }
  }
  const out = new Float64Array(ow * oh);
  for (let y = 0; y < oh; y++) {
    for (let x = 0; x < ow; x++) {
      let s = 0;
      for (let i = 0; i < ks; i++) s += k[i] * tmp[(y + i) * ow + x];
      out[y * ow + x] = s;
    }
  }
  return out;
}

/**
 * Mean SSIM (Wang et al. 2004) on BT.601 luma, Gaussian 11×11 window with σ = 1.5,
 * K1 = 0.01, K2 = 0.03, L = 255, computed over the 'valid' window positions.
 * Images smaller than the window in either dimension fall back to one global
 * window with uniform weights. Both images should be opaque (see flattenOver).
 */
export function ssim(a, b, { windowSize = 11, sigma = 1.5, K1 = 0.01, K2 = 0.03, L = 255 } = {}) {
  assertSameSize(a, b);
  const { width: w, height: h } = a;
  const x = luma(a);
  const y = luma(b);
  const C1 = (K1 * L) ** 2;
  const C2 = (K2 * L) ** 2;
  const n = w * h;
  if (w < windowSize || h < windowSize) {
    let mx = 0, my = 0;
    for (let i = 0; i < n; i++) { mx += x[i]; my += y[i]; }
    mx /= n; my /= n;
    let vx = 0, vy = 0, cxy = 0;
    for (let i = 0; i < n; i++) {
      const dx = x[i] - mx, dy = y[i] - my;
      vx += dx * dx; vy += dy * dy; cxy += dx * dy;
    }
    vx /= n; vy /= n; cxy /= n;
    return ((2 * mx * my + C1) * (2 * cxy + C2)) / ((mx * mx + my * my + C1) * (vx + vy + C2));
  }
  const k = gaussianKernel(windowSize, sigma);
  const xx = new Float64Array(n), yy = new Float64Array(n), xy = new Float64Array(n);
  for (let i = 0; i < n; i++) { xx[i] = x[i] * x[i]; yy[i] = y[i] * y[i]; xy[i] = x[i] * y[i]; }
  const mux = filterValid(x, w, h, k);
  const muy = filterValid(y, w, h, k);
  const exx = filterValid(xx, w, h, k);
  const eyy = filterValid(yy, w, h, k);
  const exy = filterValid(xy, w, h, k);
  let sum = 0;
  const m = mux.length;
  for (let i = 0; i < m; i++) {
    const ux = mux[i], uy = muy[i];
    const sx = exx[i] - ux * ux;
    const sy = eyy[i] - uy * uy;
    const sxy = exy[i] - ux * uy;
    sum += ((2 * ux * uy + C1) * (2 * sxy + C2)) / ((ux * ux + uy * uy + C1) * (sx + sy + C2));
  }
  return sum / m;
}

/** PSNR in dB over the R, G and B channels (alpha ignored). Identical images give Infinity. */
export function psnr(a, b) {
  assertSameSize(a, b);
  const n = a.width * a.height;
  let se = 0;
  for (let i = 0; i < n; i++) {
    const o = i * 4;
    const d0 = a.data[o] - b.data[o];
    const d1 = a.data[o + 1] - b.data[o + 1];
    const d2 = a.data[o + 2] - b.data[o + 2];
    se += d0 * d0 + d1 * d1 + d2 * d2;
  }
  const mse = se / (3 * n);
  if (mse === 0) return Infinity;
  return 10 * Math.log10((255 * 255) / mse);
}

// ---------------------------------------------------------------- colour

const SRGB_TO_LINEAR = new Float64Array(256);
for (let i = 0; i < 256; i++) {
  const c = i / 255;
  SRGB_TO_LINEAR[i] = c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}
// D65 reference white (2° observer), Y normalised to 1.
const XN = 0.95047, YN = 1.0, ZN = 1.08883;
const EPS = 216 / 24389;
const KAPPA = 24389 / 27;
function labF(t) {
  return t > EPS ? Math.cbrt(t) : (KAPPA * t + 16) / 116;
}

/** 8-bit sRGB to CIE L*a*b* (D65). Returns [L, a, b]. */
export function srgbToLab(r, g, b) {
  const R = SRGB_TO_LINEAR[r], G = SRGB_TO_LINEAR[g], B = SRGB_TO_LINEAR[b];
  const X = 0.4124564 * R + 0.3575761 * G + 0.1804375 * B;
  const Y = 0.2126729 * R + 0.7151522 * G + 0.072175 * B;
  const Z = 0.0193339 * R + 0.119192 * G + 0.9503041 * B;
  const fx = labF(X / XN), fy = labF(Y / YN), fz = labF(Z / ZN);
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

const RAD = Math.PI / 180;
const POW25_7 = 25 ** 7;

/**
 * CIEDE2000 colour difference between two L*a*b* colours, following
 * G. Sharma, W. Wu, E. N. Dalal, "The CIEDE2000 color-difference formula:
 * implementation notes, supplementary test data, and mathematical observations",
 * Color Res. Appl. 30 (2005). kL = kC = kH = 1.
 */
export function ciede2000(L1, a1, b1, L2, a2, b2) {
  // (2)-(7): C'ab, h'
  const C1 = Math.hypot(a1, b1);
  const C2 = Math.hypot(a2, b2);
  const Cbar = (C1 + C2) / 2;
  const Cbar7 = Cbar ** 7;
  const G = 0.5 * (1 - Math.sqrt(Cbar7 / (Cbar7 + POW25_7)));
  const a1p = (1 + G) * a1;
  const a2p = (1 + G) * a2;
  const C1p = Math.hypot(a1p, b1);
  const C2p = Math.hypot(a2p, b2);
  let h1p = a1p === 0 && b1 === 0 ? 0 : Math.atan2(b1, a1p) / RAD;
  if (h1p < 0) h1p += 360;
  let h2p = a2p === 0 && b2 === 0 ? 0 : Math.atan2(b2, a2p) / RAD;
  if (h2p < 0) h2p += 360;

  // (8)-(10): ΔL', ΔC', ΔH'
  const dLp = L2 - L1;
  const dCp = C2p - C1p;
  let dhp;
  const CpProd = C1p * C2p;
  if (CpProd === 0) dhp = 0;
  else {
    dhp = h2p - h1p;
    if (dhp > 180) dhp -= 360;
    else if (dhp < -180) dhp += 360;
  }
  const dHp = 2 * Math.sqrt(CpProd) * Math.sin((dhp / 2) * RAD);

  // (12)-(22)
  const Lbarp = (L1 + L2) / 2;
  const Cbarp = (C1p + C2p) / 2;
  let hbarp;
  if (CpProd === 0) hbarp = h1p + h2p;
  else if (Math.abs(h1p - h2p) <= 180) hbarp = (h1p + h2p) / 2;
  else if (h1p + h2p < 360) hbarp = (h1p + h2p + 360) / 2;
  else hbarp = (h1p + h2p - 360) / 2;
  const T =
    1 -
    0.17 * Math.cos((hbarp - 30) * RAD) +
    0.24 * Math.cos(2 * hbarp * RAD) +
    0.32 * Math.cos((3 * hbarp + 6) * RAD) -
    0.2 * Math.cos((4 * hbarp - 63) * RAD);
  const dTheta = 30 * Math.exp(-(((hbarp - 275) / 25) ** 2));
  const Cbarp7 = Cbarp ** 7;
  const RC = 2 * Math.sqrt(Cbarp7 / (Cbarp7 + POW25_7));
  const Lm50sq = (Lbarp - 50) ** 2;
  const SL = 1 + (0.015 * Lm50sq) / Math.sqrt(20 + Lm50sq);
  const SC = 1 + 0.045 * Cbarp;
  const SH = 1 + 0.015 * Cbarp * T;
  const RT = -Math.sin(2 * dTheta * RAD) * RC;
  const tL = dLp / SL, tC = dCp / SC, tH = dHp / SH;
  return Math.sqrt(tL * tL + tC * tC + tH * tH + RT * tC * tH);
}

/** Per-image cache of 24-bit sRGB → Lab. */
function labCache() {
  const m = new Map();
  return (r, g, b) => {
    const key = (r << 16) | (g << 8) | b;
    let v = m.get(key);
    if (v === undefined) { v = srgbToLab(r, g, b); m.set(key, v); }
    return v;
  };
}

const WHITE_LAB = srgbToLab(255, 255, 255);

/**
 * Per-pixel CIEDE2000 of two opaque images. Returns { mean, dE, dEWhiteA, dEWhiteB }
 * where dE is the Float32Array of per-pixel differences and dEWhiteX is each
 * image's per-pixel difference to pure white (used by gapPercent).
 */
export function deltaE2000Maps(a, b) {
  assertSameSize(a, b);
  const n = a.width * a.height;
  const lab = labCache();
  const whiteCache = new Map();
  const toWhite = (r, g, bb) => {
    const key = (r << 16) | (g << 8) | bb;
    let v = whiteCache.get(key);
    if (v === undefined) {
      const [L, A, B] = lab(r, g, bb);
      v = ciede2000(L, A, B, WHITE_LAB[0], WHITE_LAB[1], WHITE_LAB[2]);
      whiteCache.set(key, v);
    }
    return v;
  };
  const dE = new Float32Array(n);
  const dEWhiteA = new Float32Array(n);
  const dEWhiteB = new Float32Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const o = i * 4;
    const r1 = a.data[o], g1 = a.data[o + 1], b1 = a.data[o + 2];
    const r2 = b.data[o], g2 = b.data[o + 1], b2 = b.data[o + 2];
    dEWhiteA[i] = toWhite(r1, g1, b1);
    dEWhiteB[i] = toWhite(r2, g2, b2);
    let d = 0;
    if (r1 !== r2 || g1 !== g2 || b1 !== b2) {
      const p = lab(r1, g1, b1), q = lab(r2, g2, b2);
      d = ciede2000(p[0], p[1], p[2], q[0], q[1], q[2]);
    }
    dE[i] = d;
    sum += d;
  }
  return { mean: sum / n, dE, dEWhiteA, dEWhiteB };
}

/** Mean CIEDE2000 over all pixels of two opaque images. */
export function meanDeltaE2000(a, b) {
  return deltaE2000Maps(a, b).mean;
}

export const GAP_INK_THRESHOLD = 10;
export const GAP_WHITE_THRESHOLD = 3;

/**
 * Gap %: of the input's "ink" pixels (ΔE2000 to pure white > inkThreshold), the
 * percentage where the render shows near-white background (ΔE2000 to white <
 * whiteThreshold). Measures background showing through seams, holes and
 * dropped shapes. Returns { gapPct, ink, gaps }; gapPct = 0 when there is no ink.
 * `input` is the reference image, `render` the rasterised SVG; both opaque.
 */
export function gapPercent(input, render, { inkThreshold = GAP_INK_THRESHOLD, whiteThreshold = GAP_WHITE_THRESHOLD, maps } = {}) {
  const m = maps ?? deltaE2000Maps(input, render);
  const n = input.width * input.height;
  let ink = 0, gaps = 0;
  for (let i = 0; i < n; i++) {
    if (m.dEWhiteA[i] > inkThreshold) {
      ink++;
      if (m.dEWhiteB[i] < whiteThreshold) gaps++;
    }
  }
  return { gapPct: ink === 0 ? 0 : (100 * gaps) / ink, ink, gaps };
}

/** Light blur of the smooth-area test: σ (px) of its Gaussian … */
export const BAND_BLUR_SIGMA = 1.5;
/** … an input pixel is on an edge when a channel of the blurred input changes faster than this (sRGB units per px) … */
export const BAND_EDGE_SLOPE = 4;
/** … and smooth when no edge pixel lies within this many px of it (a render's edge may sit a pixel or two off the input's). */
export const BAND_EDGE_MARGIN = 2;
/** A colour step in the render is visible past this CIEDE2000 between neighbouring pixels. */
export const BAND_STEP_DE = 2;

/**
 * Which pixels of an opaque image lie in a smooth area: each channel blurred (Gaussian, σ =
 * BAND_BLUR_SIGMA: grain and JPEG noise averaged away), its slope by central differences; a pixel
 * whose largest channel slope passes BAND_EDGE_SLOPE is an edge, and every pixel within
 * BAND_EDGE_MARGIN (a square) of an edge is not smooth. Returns a Uint8Array, 1 = smooth.
 */
export function smoothMask(img) {
  const { width: w, height: h, data } = img;
  const n = w * h;
  const radius = Math.ceil(BAND_BLUR_SIGMA * 2);
  const k = gaussianKernel(radius * 2 + 1, BAND_BLUR_SIGMA);
  const slope = new Float32Array(n);
  const plane = new Float64Array(n);
  const tmp = new Float64Array(n);
  const blurred = new Float64Array(n);
  for (let c = 0; c < 3; c++) {
    for (let i = 0; i < n; i++) plane[i] = data[i * 4 + c];
    // Separable blur, clamped at the borders.
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        let s = 0;
        for (let i = -radius; i <= radius; i++) s += k[i + radius] * plane[y * w + Math.min(w - 1, Math.max(0, x + i))];
        tmp[y * w + x] = s;
      }
    }
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        let s = 0;
        for (let i = -radius; i <= radius; i++) s += k[i + radius] * tmp[Math.min(h - 1, Math.max(0, y + i)) * w + x];
        blurred[y * w + x] = s;
      }
    }
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const p = y * w + x;
        const gx = (blurred[y * w + Math.min(w - 1, x + 1)] - blurred[y * w + Math.max(0, x - 1)]) / 2;
        const gy = (blurred[Math.min(h - 1, y + 1) * w + x] - blurred[Math.max(0, y - 1) * w + x]) / 2;
        const g = Math.hypot(gx, gy);
        if (g > slope[p]) slope[p] = g;
      }
    }
  }
  // Edge pixels dilated by the margin (a square: rows, then columns).
  const m = BAND_EDGE_MARGIN;
  const nearRow = new Uint8Array(n);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      for (let d = Math.max(0, x - m); d <= Math.min(w - 1, x + m); d++) {
        if (slope[y * w + d] > BAND_EDGE_SLOPE) {
          nearRow[y * w + x] = 1;
          break;
        }
      }
    }
  }
  const smooth = new Uint8Array(n);
  for (let x = 0; x < w; x++) {
    for (let y = 0; y < h; y++) {
      let near = 0;
      for (let d = -m; d <= m && !near; d++) {
        const yy = y + d;
        if (yy >= 0 && yy < h && nearRow[yy * w + x]) near = 1;
      }
      smooth[y * w + x] = near ? 0 : 1;
    }
  }
  return smooth;
}

/**
 * Band edges in smooth areas: the length (px of pixel border) of the render's visible colour
 * steps — neighbouring pixels more than BAND_STEP_DE (CIEDE2000) apart — where the input is
 * smooth on both sides (smoothMask): a sky or a painted gradient cut into flat bands. Returns
 * { bandPx, smoothPct } (smoothPct: the share of the input's pixels that are smooth). Both
 * images opaque and of one size.
 */
export function bandEdges(input, render) {
  assertSameSize(input, render);
  const { width: w, height: h } = input;
  const smooth = smoothMask(input);
  const lab = labCache();
  const d = render.data;
  let bandPx = 0;
  let smoothCount = 0;
  const step = (p, q) => {
    const o = p * 4;
    const u = q * 4;
    // ΔE00 2 needs more than 1 unit of some channel: most neighbours are skipped unmeasured.
    if (Math.abs(d[o] - d[u]) <= 1 && Math.abs(d[o + 1] - d[u + 1]) <= 1 && Math.abs(d[o + 2] - d[u + 2]) <= 1) return 0;
    const a = lab(d[o], d[o + 1], d[o + 2]);
    const b = lab(d[u], d[u + 1], d[u + 2]);
    return ciede2000(a[0], a[1], a[2], b[0], b[1], b[2]) > BAND_STEP_DE ? 1 : 0;
  };
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const p = y * w + x;
      if (!smooth[p]) continue;
      smoothCount++;
      if (x + 1 < w && smooth[p + 1]) bandPx += step(p, p + 1);
      if (y + 1 < h && smooth[p + w]) bandPx += step(p, p + w);
    }
  }
  return { bandPx, smoothPct: (100 * smoothCount) / (w * h) };
}

/** All raster metrics at once (both images are flattened over white first). */
export function compareImages(input, render) {
  const a = flattenOver(input);
  const b = flattenOver(render);
  const maps = deltaE2000Maps(a, b);
  return {
    ssim: ssim(a, b),
    psnr: psnr(a, b),
    deltaE2000: maps.mean,
    gapPct: gapPercent(a, b, { maps }).gapPct,
    bandPx: bandEdges(a, b).bandPx,
  };
}
