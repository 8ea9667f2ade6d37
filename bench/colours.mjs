// Colour and crumb checker (issue 39 items 1–2): for flat art traced at defaults, which of the
// picture's own flat colours the output lost or changed, which shapes drift from their pixels'
// colour, how many shapes are crumbs, and how the shape count compares with VTracer's.
//
//   node bench/colours.mjs [--svg-dir DIR] [--kinds clipart,icon,gradient,layered] [--out FILE] [--only a,b]
//                          [--corpus DIR] [--validation DIR]
//
// Images: the corpus's and the validation set's images of the kinds listed (default clipart, icon,
// gradient, layered; pixel and photo may be added for the shape counts). Tracelab's SVGs are read
// from --svg-dir (named after the input, e.g. made by `tracelab vectorize FILES --out-dir DIR`);
// VTracer runs in process with the bench's config (bench/peers/vtracer-native.mjs).
//
// Per image:
// - lost colours: every exact input colour covering ≥ 0.5 % of the picture (rendered flat art keeps
//   the artist's fills as exact colours), measured over its interior pixels (its 4 neighbours the
//   same colour: no anti-aliasing): the CIEDE2000 between it and the output render's mean colour
//   there; "lost" when above 5;
// - drift: every filled shape of 16 px² or more (rasterised with crisp edges, each shape in a colour
//   of its own) against the mean input colour of its interior pixels; "drift" when ΔE00 > 5, with
//   the hue and chroma change of the worst;
// - crumbs: filled shapes under 1 px² and under 4 px² of area (from the path geometry);
// - shapes: drawn elements of Tracelab's and VTracer's SVGs, and their ratio.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { ciede2000, srgbToLab as srgbToLabInt } from './metrics.mjs';
import { CONFIG } from './peers/vtracer-native.mjs';

const require = createRequire(import.meta.url);
const { Resvg } = require('@resvg/resvg-js');
const { PNG } = require('pngjs');
const { vectorize } = require('@neplex/vectorizer');

/** Lab of a (possibly fractional) sRGB colour, rounded to whole units first (metrics.mjs looks them up). */
const srgbToLab = (r, g, b) => srgbToLabInt(Math.round(r), Math.round(g), Math.round(b));

export const KEEP_SHARE = 0.005;
export const LOST_DELTA_E = 5;
export const DRIFT_DELTA_E = 5;
export const DRIFT_MIN_AREA_PX = 16;

function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

/** Exact colours of an RGBA image covering ≥ share of its opaque pixels, with their interior pixels. */
export function dominantColours(img, share = KEEP_SHARE) {
  const { width, height, data } = img;
  const counts = new Map();
  for (let i = 0; i < width * height; i++) {
    const key = (data[i * 4] << 16) | (data[i * 4 + 1] << 8) | data[i * 4 + 2];
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const out = [];
  for (const [key, n] of counts) if (n >= width * height * share) out.push({ key, n, interior: [] });
  const byKey = new Map(out.map((c) => [c.key, c]));
  const word = (i) => (data[i * 4] << 16) | (data[i * 4 + 1] << 8) | data[i * 4 + 2];
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const c = byKey.get(word(i));
      if (!c) continue;
      if (word(i - 1) === c.key && word(i + 1) === c.key && word(i - width) === c.key && word(i + width) === c.key) c.interior.push(i);
    }
  }
  return out.sort((a, b) => b.n - a.n);
}

/** ΔE00 between the input colour and the output's mean colour over the colour's interior pixels. */
export function lostColours(input, render, colours) {
  const lost = [];
  for (const c of colours) {
    if (c.interior.length === 0) continue;
    let r = 0, g = 0, b = 0;
    for (const i of c.interior) {
      r += render.data[i * 4];
      g += render.data[i * 4 + 1];
      b += render.data[i * 4 + 2];
    }
    const n = c.interior.length;
    const a = srgbToLab(c.key >> 16, (c.key >> 8) & 255, c.key & 255);
    const o = srgbToLab(r / n, g / n, b / n);
    const de = ciede2000(a[0], a[1], a[2], o[0], o[1], o[2]);
    if (de > LOST_DELTA_E) lost.push({ hex: hex(c.key), share: c.n / (input.width * input.height), de, out: hex((Math.round(r / n) << 16) | (Math.round(g / n) << 8) | Math.round(b / n)) });
  }
  return lost;
}

function hex(key) {
  return `#${key.toString(16).padStart(6, '0')}`;
}

// ---- path geometry -------------------------------------------------------------------------

const ARITY = { M: 2, L: 2, H: 1, V: 1, C: 6, S: 4, Q: 4, T: 2, A: 7, Z: 0 };

/** Subpaths of a path `d` as polylines (curves sampled at 8 points; arcs as their chord). */
export function pathPolylines(d) {
  const tokens = d.match(/[MmLlHhVvCcSsQqTtAaZz]|[-+]?(?:\d*\.\d+|\d+\.?)(?:[eE][-+]?\d+)?/g) ?? [];
  const polys = [];
  let cur = null;
  let x = 0, y = 0, sx = 0, sy = 0, cmd = 'M', lastCtrl = null;
  let k = 0;
  const num = () => parseFloat(tokens[k++]);
  while (k < tokens.length) {
    if (/[A-Za-z]/.test(tokens[k])) cmd = tokens[k++];
    const up = cmd.toUpperCase();
    const rel = cmd !== up;
    if (up === 'Z') {
      x = sx; y = sy; cur = null; lastCtrl = null;
      continue;
    }
    if (k >= tokens.length || /[A-Za-z]/.test(tokens[k])) { k++; continue; }
    const ox = rel ? x : 0, oy = rel ? y : 0;
    if (up === 'M') {
      x = ox + num(); y = oy + num(); sx = x; sy = y;
      cur = [[x, y]];
      polys.push(cur);
      cmd = rel ? 'l' : 'L';
      lastCtrl = null;
      continue;
    }
    if (!cur) { cur = [[x, y]]; polys.push(cur); }
    let pts;
    if (up === 'L') pts = [[ox + num(), oy + num()]];
    else if (up === 'H') pts = [[ox + num(), y]];
    else if (up === 'V') pts = [[x, oy + num()]];
    else if (up === 'C' || up === 'S' || up === 'Q' || up === 'T') {
      let c1, c2, e;
      if (up === 'C') { c1 = [ox + num(), oy + num()]; c2 = [ox + num(), oy + num()]; e = [ox + num(), oy + num()]; }
      else if (up === 'S') { c1 = lastCtrl ? [2 * x - lastCtrl[0], 2 * y - lastCtrl[1]] : [x, y]; c2 = [ox + num(), oy + num()]; e = [ox + num(), oy + num()]; }
      else if (up === 'Q') { const q = [ox + num(), oy + num()]; e = [ox + num(), oy + num()]; c1 = [x + (2 / 3) * (q[0] - x), y + (2 / 3) * (q[1] - y)]; c2 = [e[0] + (2 / 3) * (q[0] - e[0]), e[1] + (2 / 3) * (q[1] - e[1])]; }
      else { e = [ox + num(), oy + num()]; c1 = [x, y]; c2 = e; }
      pts = [];
      for (let s = 1; s <= 8; s++) {
        const t = s / 8, u = 1 - t;
        pts.push([u * u * u * x + 3 * u * u * t * c1[0] + 3 * u * t * t * c2[0] + t * t * t * e[0], u * u * u * y + 3 * u * u * t * c1[1] + 3 * u * t * t * c2[1] + t * t * t * e[1]]);
      }
      lastCtrl = c2;
      cur.push(...pts);
      [x, y] = e;
      continue;
    } else pts = arcPoints(x, y, num(), num(), num(), num(), num(), ox + num(), oy + num());
    lastCtrl = null;
    cur.push(...pts);
    [x, y] = pts[pts.length - 1];
  }
  return polys;
}

/** An elliptical arc (SVG endpoint form) sampled at 16 points after its start (SVG 1.1 F.6.5). */
function arcPoints(x1, y1, rx, ry, angleDeg, large, sweep, x2, y2) {
  rx = Math.abs(rx);
  ry = Math.abs(ry);
  if (rx === 0 || ry === 0) return [[x2, y2]];
  const phi = (angleDeg * Math.PI) / 180, cos = Math.cos(phi), sin = Math.sin(phi);
  const dx = (x1 - x2) / 2, dy = (y1 - y2) / 2;
  const xp = cos * dx + sin * dy, yp = -sin * dx + cos * dy;
  const lambda = (xp * xp) / (rx * rx) + (yp * yp) / (ry * ry);
  if (lambda > 1) { rx *= Math.sqrt(lambda); ry *= Math.sqrt(lambda); }
  const num2 = rx * rx * ry * ry - rx * rx * yp * yp - ry * ry * xp * xp;
  const coef = (large !== sweep ? 1 : -1) * Math.sqrt(Math.max(0, num2 / (rx * rx * yp * yp + ry * ry * xp * xp)));
  const cxp = (coef * rx * yp) / ry, cyp = (-coef * ry * xp) / rx;
  const cx = cos * cxp - sin * cyp + (x1 + x2) / 2, cy = sin * cxp + cos * cyp + (y1 + y2) / 2;
  const angle = (ux, uy) => Math.atan2(uy, ux);
  const t1 = angle((xp - cxp) / rx, (yp - cyp) / ry);
  let dt = angle((-xp - cxp) / rx, (-yp - cyp) / ry) - t1;
  if (sweep && dt < 0) dt += 2 * Math.PI;
  if (!sweep && dt > 0) dt -= 2 * Math.PI;
  const pts = [];
  for (let s = 1; s <= 16; s++) {
    const t = t1 + (dt * s) / 16;
    pts.push([cx + rx * Math.cos(t) * cos - ry * Math.sin(t) * sin, cy + rx * Math.cos(t) * sin + ry * Math.sin(t) * cos]);
  }
  return pts;
}

/** Area of a filled path (even-odd; the largest ring minus the others, else their sum). */
export function pathArea(d) {
  const areas = pathPolylines(d).map((p) => {
    let s = 0;
    for (let i = 0; i < p.length; i++) {
      const [x1, y1] = p[i];
      const [x2, y2] = p[(i + 1) % p.length];
      s += x1 * y2 - x2 * y1;
    }
    return Math.abs(s) / 2;
  }).sort((a, b) => b - a);
  if (areas.length === 0) return 0;
  const holes = areas.slice(1).reduce((s, a) => s + a, 0);
  return areas[0] - holes > 0 ? areas[0] - holes : areas.reduce((s, a) => s + a, 0);
}

const FILLED = /<(path|circle|ellipse|rect|polygon)\b([^>]*?)\/?>/gi;

function attr(attrs, name) {
  return attrs.match(new RegExp(`(?:^|\\s)${name}\\s*=\\s*["']([^"']*)["']`))?.[1];
}

/** Filled shapes of an SVG (those inside a fill="none" group or with fill="none" are left out): { tag, fill, area }. */
export function filledShapes(svg, pxPerUnit = 1) {
  // Offsets index `svg` itself (idRender rewrites the shapes in place): <defs> are skipped by depth.
  const body = svg;
  const shapes = [];
  let defsDepth = 0;
  const fillStack = ['#000'];
  for (const m of body.matchAll(/<(\/?)([a-zA-Z][\w:-]*)([^>]*?)(\/?)>/g)) {
    const [, closing, tag, attrs, selfClosing] = m;
    if (closing) { if (tag === 'g') fillStack.pop(); if (tag === 'defs') defsDepth--; continue; }
    if (tag === 'defs' && !selfClosing) defsDepth++;
    if (defsDepth > 0) continue;
    const fill = attr(attrs, 'fill') ?? attr(attrs, 'style')?.match(/fill:\s*([^;]+)/)?.[1] ?? fillStack[fillStack.length - 1];
    if (tag === 'g' && !selfClosing) { fillStack.push(fill); continue; }
    if (!/^(path|circle|ellipse|rect|polygon)$/.test(tag) || fill === 'none') continue;
    let area;
    if (tag === 'path') area = pathArea(attr(attrs, 'd') ?? '');
    else if (tag === 'circle') area = Math.PI * parseFloat(attr(attrs, 'r') ?? '0') ** 2;
    else if (tag === 'ellipse') area = Math.PI * parseFloat(attr(attrs, 'rx') ?? '0') * parseFloat(attr(attrs, 'ry') ?? '0');
    else if (tag === 'rect') area = parseFloat(attr(attrs, 'width') ?? '0') * parseFloat(attr(attrs, 'height') ?? '0');
    else area = pathArea(`M${attr(attrs, 'points') ?? ''}Z`);
    shapes.push({ tag, fill, area: area * pxPerUnit * pxPerUnit, start: m.index, end: m.index + m[0].length });
  }
  return shapes;
}

// ---- rendering -----------------------------------------------------------------------------

function render(svg, width) {
  const r = new Resvg(svg, { fitTo: { mode: 'width', value: width }, background: 'white' }).render();
  return { width: r.width, height: r.height, data: r.pixels };
}

/** Each filled shape in a colour of its own (index + 1), crisp edges, strokes and gap fillers dropped. */
function idRender(svg, shapes, width) {
  let out = '';
  let last = 0;
  const body = svg;
  shapes.forEach((s, k) => {
    const id = k + 1;
    const colour = `#${id.toString(16).padStart(6, '0')}`;
    let el = body.slice(s.start, s.end).replace(/\s(fill|fill-opacity|opacity|stroke|style)\s*=\s*["'][^"']*["']/g, '');
    el = el.replace(/^<(\w+)/, `<$1 fill="${colour}" stroke="none"`);
    out += body.slice(last, s.start) + el;
    last = s.end;
  });
  out += body.slice(last);
  // Strokes (gap fillers, outlines) and gradients off; crisp edges.
  out = out.replace(/<svg\b/, '<svg shape-rendering="crispEdges"').replace(/\sstroke="(?!none)[^"]*"/g, ' stroke="none"').replace(/<use\b[^>]*>/g, '');
  const r = new Resvg(out, { fitTo: { mode: 'width', value: width }, background: 'black', shapeRendering: 0 }).render();
  return { width: r.width, height: r.height, data: r.pixels };
}

function parseFill(fill) {
  const m = fill.match(/^#([0-9a-f]{3}|[0-9a-f]{6})$/i);
  if (!m) return null;
  const h = m[1].length === 3 ? m[1].split('').map((c) => c + c).join('') : m[1];
  return [parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16)];
}

/** Shapes whose flat fill differs from the mean input colour of their interior pixels. */
export function driftingShapes(input, ids, shapes) {
  const { width, height } = input;
  const sums = new Float64Array((shapes.length + 1) * 4);
  const idAt = (i) => (ids.data[i * 4] << 16) | (ids.data[i * 4 + 1] << 8) | ids.data[i * 4 + 2];
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const id = idAt(i);
      if (id === 0 || id > shapes.length) continue;
      if (idAt(i - 1) !== id || idAt(i + 1) !== id || idAt(i - width) !== id || idAt(i + width) !== id) continue;
      sums[id * 4] += input.data[i * 4];
      sums[id * 4 + 1] += input.data[i * 4 + 1];
      sums[id * 4 + 2] += input.data[i * 4 + 2];
      sums[id * 4 + 3]++;
    }
  }
  const drift = [];
  shapes.forEach((s, k) => {
    const id = k + 1;
    const n = sums[id * 4 + 3];
    const rgb = parseFill(s.fill);
    if (!rgb || n < DRIFT_MIN_AREA_PX) return;
    const mean = [sums[id * 4] / n, sums[id * 4 + 1] / n, sums[id * 4 + 2] / n];
    const a = srgbToLab(...mean);
    const o = srgbToLab(...rgb);
    const de = ciede2000(a[0], a[1], a[2], o[0], o[1], o[2]);
    if (de <= DRIFT_DELTA_E) return;
    const chroma = (l) => Math.hypot(l[1], l[2]);
    const hue = (l) => (Math.atan2(l[2], l[1]) * 180) / Math.PI;
    let dh = Math.abs(hue(o) - hue(a));
    if (dh > 180) dh = 360 - dh;
    drift.push({ fill: s.fill, mean: hex((Math.round(mean[0]) << 16) | (Math.round(mean[1]) << 8) | Math.round(mean[2])), px: n, de, dChroma: chroma(o) - chroma(a), dHue: dh });
  });
  return drift.sort((a, b) => b.px * b.de - a.px * a.de);
}

/** Every figure of one image: lost colours, drift, crumbs and shape counts. */
export function checkImage(input, rawSvg, vtracer) {
  const svg = rawSvg.replace(/<!--[\s\S]*?-->/g, '');
  const px = input.width / parseFloat(svg.match(/viewBox="[-\d.]+ [-\d.]+ ([\d.]+)/)?.[1] ?? String(input.width));
  const shapes = filledShapes(svg, px);
  const colours = dominantColours(input);
  const lost = lostColours(input, render(svg, input.width), colours);
  const drift = driftingShapes(input, idRender(svg, shapes, input.width), shapes);
  const vt = vtracer === undefined ? undefined : filledShapes(vtracer).length;
  return {
    colours: colours.length,
    lost,
    drift,
    shapes: shapes.length,
    under1: shapes.filter((s) => s.area < 1).length,
    under4: shapes.filter((s) => s.area < 4).length,
    vtracer: vt,
  };
}

function readPng(file) {
  const png = PNG.sync.read(readFileSync(file));
  return { width: png.width, height: png.height, data: png.data };
}

function images(kinds, only) {
  const out = [];
  for (const [set, dir] of [['corpus', arg('--corpus', '/work/shared/corpus')], ['validation', arg('--validation', '/work/main/bench/validation/out')]]) {
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).sort()) {
      if (!f.endsWith('.png')) continue;
      const kind = f.split('-')[0];
      if (!kinds.includes(kind)) continue;
      const id = basename(f, '.png');
      if (only && !only.some((o) => id.includes(o))) continue;
      out.push({ set, kind, id, file: join(dir, f) });
    }
  }
  return out;
}

async function main() {
  const kinds = arg('--kinds', 'clipart,icon,gradient,layered').split(',');
  const only = arg('--only', '')?.split(',').filter(Boolean);
  const svgDir = arg('--svg-dir', '/tmp/colours39-svg');
  const rows = [];
  const lines = ['| set | image | colours ≥0.5% | lost (ΔE00>5) | drifting shapes (ΔE00>5, ≥16 px) | shapes | <1 px² | <4 px² | VTracer | ratio |', '| --- | --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: |'];
  for (const im of images(kinds, only.length ? only : undefined)) {
    const svgFile = [join(svgDir, `${im.id}.svg`), join(svgDir, im.set, `${im.id}.svg`)].find(existsSync);
    if (!svgFile) continue;
    const input = readPng(im.file);
    const vt = String(await vectorize(readFileSync(im.file), CONFIG));
    const r = checkImage(input, readFileSync(svgFile, 'utf8'), vt);
    rows.push({ ...im, ...r });
    const lost = r.lost.map((l) => `${l.hex} ${(l.share * 100).toFixed(1)}%→${l.out} (${l.de.toFixed(1)})`).join('; ');
    const drift = r.drift.length ? `${r.drift.length}: worst ${r.drift[0].mean}→${r.drift[0].fill} ${r.drift[0].px}px ΔE ${r.drift[0].de.toFixed(1)} dC ${r.drift[0].dChroma.toFixed(0)} dH ${r.drift[0].dHue.toFixed(0)}°` : '';
    lines.push(`| ${im.set} | ${im.id} | ${r.colours} | ${lost} | ${drift} | ${r.shapes} | ${r.under1} | ${r.under4} | ${r.vtracer} | ${(r.shapes / r.vtracer).toFixed(2)} |`);
    process.stderr.write(`${lines[lines.length - 1]}\n`);
  }
  const sum = (f) => rows.reduce((s, r) => s + f(r), 0);
  lines.push('', `${rows.length} images: ${sum((r) => r.lost.length)} lost colours on ${rows.filter((r) => r.lost.length).length} images; ${sum((r) => r.drift.length)} drifting shapes on ${rows.filter((r) => r.drift.length).length}; shapes < 1 px²: ${sum((r) => r.under1)}, < 4 px²: ${sum((r) => r.under4)}; shapes ${sum((r) => r.shapes)} vs VTracer ${sum((r) => r.vtracer)}; images over 2× VTracer: ${rows.filter((r) => r.shapes > 2 * r.vtracer).map((r) => r.id).join(', ') || 'none'}`);
  const text = lines.join('\n');
  if (arg('--out')) writeFileSync(arg('--out'), `${text}\n`);
  console.log(text);
}

if (process.argv[1] && import.meta.url.endsWith(basename(process.argv[1]))) await main();
