#!/usr/bin/env node
/**
 * `npm run bench:sheets`: a contact sheet per image, to look at rather than to count (issue 39
 * item 5). Each sheet is a PNG with one column per picture — the input, Tracelab by default, with
 * `tracelab.gradients=true`, with `tracelab.strokes=auto` and `=centerline` (stroke kind only),
 * VTracer, and the artist's SVG where the image has one — each labelled with its SSIM against the
 * input, its gzip bytes and its path count, and under each a 3× zoom of its worst region (the
 * 48-px window where it differs most from the input) beside the input's same window.
 *
 * In: a corpus folder (TRACELAB_CORPUS, default bench/validation/out) and its manifest; options
 * `--kind K[,K]`, `--only ID[,ID]` (image ids or file names), `--out DIR`.
 * Out: DIR/<kind>/<image>.png (default bench/out/sheets, git-ignored) and DIR/<kind>/index.md (one
 * line per image and column with its figures).
 * Algorithm: Tracelab traces in this process through the CLI's own pipeline (as tracelab-facts.mjs
 * does), VTracer through its native binding with the bench's config; every SVG is rendered with
 * resvg at the input's size for the figures and the worst window (worstWindow: box sums of the
 * per-pixel difference); the sheet itself is an SVG of <image> elements (the traced SVGs embedded
 * as vectors, so the zoom shows the curves, not a blown-up bitmap; the input pixelated) and text,
 * rendered once with resvg.
 */
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH, '..');

/** Side of the window whose difference is shown zoomed, in input pixels, and its zoom. */
export const WORST_WINDOW_PX = 48;
export const ZOOM = 3;

/**
 * The `size`×`size` window (clamped to the image) with the largest sum of `diff` (one value per
 * pixel, row-major), by box sums over an integral image: { x, y, size, score }. Ties go to the
 * first window in raster order, so the choice is deterministic.
 */
export function worstWindow(diff, width, height, size) {
  const s = Math.max(1, Math.min(size, width, height));
  const iw = width + 1;
  const integral = new Float64Array(iw * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    for (let x = 0; x < width; x++) {
      row += diff[y * width + x];
      integral[(y + 1) * iw + x + 1] = integral[y * iw + x + 1] + row;
    }
  }
  let best = { x: 0, y: 0, size: s, score: -Infinity };
  for (let y = 0; y + s <= height; y++) {
    for (let x = 0; x + s <= width; x++) {
      const score = integral[(y + s) * iw + x + s] - integral[y * iw + x + s] - integral[(y + s) * iw + x] + integral[y * iw + x];
      if (score > best.score) best = { x, y, size: s, score };
    }
  }
  return best;
}

/** Per-pixel difference of two opaque RGBA images of one size: the sum of |ΔR| + |ΔG| + |ΔB|. */
export function pixelDifference(a, b) {
  const n = a.width * a.height;
  const diff = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const o = i * 4;
    diff[i] = Math.abs(a.data[o] - b.data[o]) + Math.abs(a.data[o + 1] - b.data[o + 1]) + Math.abs(a.data[o + 2] - b.data[o + 2]);
  }
  return diff;
}

/** The columns of a sheet for an image of `kind`: [label, params] for Tracelab, or a peer's name. */
export function sheetColumns(kind, hasArtist) {
  return [
    { label: 'Tracelab default', tracelab: [] },
    { label: 'tracelab.gradients=true', tracelab: ['tracelab.gradients=true'] },
    ...(kind === 'stroke' ? [
      { label: 'tracelab.strokes=auto', tracelab: ['tracelab.strokes=auto'] },
      { label: 'tracelab.strokes=centerline', tracelab: ['tracelab.strokes=centerline'] },
    ] : []),
    { label: 'VTracer', vtracer: true },
    ...(hasArtist ? [{ label: "artist's SVG", artist: true }] : []),
  ];
}

const escapeXml = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const dataUri = (mime, bytes) => `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`;
const kbText = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;

/**
 * The sheet's SVG. `input`: { width, height, png (file bytes) }; `cells`: one per column after the
 * input, { label, svg (text), ssim, gzip, paths, worst: {x, y, size} } or { label, error }.
 */
export function sheetSvg(title, input, cells) {
  const { width: w, height: h } = input;
  const scale = Math.min(1, 300 / Math.max(w, h));
  const [dw, dh] = [Math.round(w * scale), Math.round(h * scale)];
  const zoomPx = WORST_WINDOW_PX * ZOOM;
  const colW = Math.max(dw, 2 * zoomPx + 6) + 16;
  const top = 44;
  const viewY = top + 22;
  const figuresY = viewY + dh + 18;
  const cropY = figuresY + 24;
  const height = cropY + zoomPx + 12;
  const inputUri = dataUri('image/png', input.png);
  const parts = [];
  const text = (x, y, s, size = 13, weight = 'normal') => parts.push(`<text x="${x}" y="${y}" font-family="DejaVu Sans" font-size="${size}" font-weight="${weight}">${escapeXml(s)}</text>`);
  let clipId = 0;
  /** A window of an image drawn `ZOOM`× at (x, y): the pixels of a raster pixelated, a vector drawn at that scale. */
  const zoomed = (uri, win, x, y, pixelated) => {
    const id = `c${clipId++}`;
    const k = zoomPx / win.size;
    parts.push(`<clipPath id="${id}"><rect x="${x}" y="${y}" width="${zoomPx}" height="${zoomPx}"/></clipPath>`,
      `<g clip-path="url(#${id})"><image x="${x - win.x * k}" y="${y - win.y * k}" width="${w * k}" height="${h * k}" preserveAspectRatio="none"${pixelated ? ' image-rendering="optimizeSpeed"' : ''} href="${uri}"/></g>`,
      `<rect x="${x}" y="${y}" width="${zoomPx}" height="${zoomPx}" fill="none" stroke="#999" stroke-width="1"/>`);
  };
  text(8, 20, title, 15, 'bold');
  // The input column: the picture, then (under it) the legend of the zooms.
  text(8, top + 12, 'input', 13, 'bold');
  parts.push(`<image x="8" y="${viewY}" width="${dw}" height="${dh}" preserveAspectRatio="none" href="${inputUri}"/>`);
  text(8, figuresY, `${w}×${h} px`, 12);
  text(8, cropY - 6, `under each: its worst ${WORST_WINDOW_PX}-px window ×${ZOOM}`, 11);
  text(8, cropY + 10, 'left: input, right: that picture', 11);
  cells.forEach((cell, i) => {
    const x = 8 + colW * (i + 1);
    text(x, top + 12, cell.label, 13, 'bold');
    if (cell.error) {
      text(x, viewY + 20, `failed: ${cell.error}`.slice(0, 60), 11);
      return;
    }
    const uri = dataUri('image/svg+xml', cell.svg);
    parts.push(`<rect x="${x - 1}" y="${viewY - 1}" width="${dw + 2}" height="${dh + 2}" fill="none" stroke="#ddd"/>`,
      `<image x="${x}" y="${viewY}" width="${dw}" height="${dh}" preserveAspectRatio="none" href="${uri}"/>`);
    text(x, figuresY, `SSIM ${cell.ssim.toFixed(4)} · ${kbText(cell.gzip)} gz · ${cell.paths} paths`, 12);
    if (cell.worst.score === 0) {
      text(x, cropY - 6, 'no difference', 11);
      return;
    }
    parts.push(`<rect x="${x + cell.worst.x * scale}" y="${viewY + cell.worst.y * scale}" width="${cell.worst.size * scale}" height="${cell.worst.size * scale}" fill="none" stroke="#e00" stroke-width="1.5"/>`);
    text(x, cropY - 6, `worst at ${cell.worst.x},${cell.worst.y}`, 11);
    zoomed(inputUri, cell.worst, x, cropY, true);
    zoomed(uri, cell.worst, x + zoomPx + 6, cropY, false);
  });
  const width = 8 + colW * (cells.length + 1);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><rect width="100%" height="100%" fill="#fff"/>${parts.join('')}</svg>`;
}

function parseArgs(argv) {
  const opts = { kinds: null, only: null, out: join(BENCH, 'out', 'sheets') };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=');
    const value = () => inline ?? argv[++i];
    if (flag === '--kind') opts.kinds = value().split(',');
    else if (flag === '--only') opts.only = value().split(',');
    else if (flag === '--out') opts.out = resolve(value());
    else throw new Error(`bench:sheets: unknown option ${argv[i]} (--kind K[,K] --only ID[,ID] --out DIR)`);
  }
  return opts;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const corpus = resolve(process.env.TRACELAB_CORPUS ?? join(BENCH, 'validation', 'out'));
  const manifest = JSON.parse(readFileSync(join(corpus, 'manifest.json'), 'utf8'));
  const images = manifest.images.filter((im) => (!opts.kinds || opts.kinds.includes(im.category))
    && (!opts.only || opts.only.some((o) => o === im.id || o === im.file || o === basename(im.file, '.png'))));
  if (images.length === 0) throw new Error('bench:sheets: no image matches --kind/--only');
  const require = createRequire(join(BENCH, 'package.json'));
  const { Resvg } = require('@resvg/resvg-js');
  const { flattenOver, ssim } = await import('./metrics.mjs');
  const { svgStats } = await import('./svgstats.mjs');
  const { renderSvg } = await import('./run.mjs');
  const { readPng } = await import('./peers/_common.mjs');
  const { vtracerSvg } = await import('./peers/vtracer-native.mjs');
  const { tracelabFacts } = await import('./tracelab-facts.mjs');
  const tracers = new Map();
  const tracelab = async (params, file) => {
    const key = params.join(' ');
    if (!tracers.has(key)) tracers.set(key, await tracelabFacts(params));
    return (await tracers.get(key)(file)).svg.toString('utf8');
  };
  /** Figures per kind: the lines of DIR/<kind>/index.md. */
  const index = new Map();
  for (const im of images) {
    const started = Date.now();
    const file = join(corpus, im.file);
    const png = readFileSync(file);
    const input = flattenOver(readPng(file));
    const cells = [];
    for (const column of sheetColumns(im.category, Boolean(im.reference_svg))) {
      try {
        const svg = column.artist ? readFileSync(join(corpus, im.reference_svg), 'utf8')
          : column.vtracer ? await vtracerSvg(png) : await tracelab(column.tracelab, file);
        const rendered = flattenOver(renderSvg(Resvg, svg, input.width, input.height, Boolean(column.artist)).image);
        cells.push({
          label: column.label, svg, ssim: ssim(input, rendered), gzip: gzipSync(svg, { level: 9 }).length, paths: svgStats(svg).paths,
          worst: worstWindow(pixelDifference(input, rendered), input.width, input.height, WORST_WINDOW_PX),
        });
      } catch (e) {
        cells.push({ label: column.label, error: String(e.message ?? e).split('\n')[0] });
      }
    }
    const sheet = sheetSvg(`${im.category} / ${im.id} — ${im.note ?? ''}`, { width: input.width, height: input.height, png }, cells);
    const outFile = join(opts.out, im.category, `${basename(im.file, '.png')}.png`);
    mkdirSync(dirname(outFile), { recursive: true });
    writeFileSync(outFile, new Resvg(sheet, { font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' } }).render().asPng());
    if (!index.has(im.category)) index.set(im.category, []);
    for (const c of cells) index.get(im.category).push(`| ${im.id} | ${c.label} | ${c.error ? 'failed' : c.ssim.toFixed(4)} | ${c.error ? '' : c.gzip} | ${c.error ? '' : c.paths} |`);
    process.stderr.write(`bench:sheets: ${relative(process.cwd(), outFile)} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  }
  for (const [kind, lines] of index) {
    const head = [`# Contact sheets: ${kind}`, '', `Corpus \`${corpus}\`; \`node bench/sheets.mjs${process.argv.slice(2).map((a) => ` ${a}`).join('')}\`.`, '',
      '| image | column | SSIM | gzip | paths |', '| --- | --- | ---: | ---: | ---: |'];
    writeFileSync(join(opts.out, kind, 'index.md'), `${[...head, ...lines].join('\n')}\n`);
  }
  process.stderr.write(`bench:sheets: ${images.length} sheets; figures in ${relative(process.cwd(), opts.out)}/<kind>/index.md\n`);
}

// `node bench/sheets.mjs` writes the sheets; importing the file (tests) only loads the helpers above.
if (process.argv[1] && realpathSync(resolve(process.argv[1])) === realpathSync(fileURLToPath(import.meta.url))) await main();
