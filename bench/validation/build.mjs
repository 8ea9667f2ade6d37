/**
 * Builds the validation set: images of the corpus's six kinds, and of a seventh, `gradient` (icons
 * and clip art shaded with SVG gradients), from public sources the corpus does not use (or other
 * files of the same packages), so the engine can be tuned on the corpus and reported on images it
 * was never tuned on. With `--tune` it builds the tuning set instead: gradient art and smooth
 * photos from other packages and files than the validation set's, for tuning the gradients
 * extension without looking at the images it is reported on.
 *
 * In: Debian packages, fetched with `apt-get download` (not installed) into
 * node_modules/.cache/tracelab-validation and unpacked there with `dpkg-deb -x`.
 * Out: bench/validation/out/*.png (opaque RGB over white, like the corpus), *.ref.svg where the
 * source is an SVG, and manifest.json in the corpus's format, so `TRACELAB_CORPUS=bench/validation/out npm run bench` runs on it unchanged.
 * With --tune: the same format in bench/validation/tune/ (the validation set is picked too, in
 * memory only, so that no tuning image is one of its files).
 *
 * Every choice is deterministic: files are picked by fixed rules from sorted lists of one
 * package version, and the synthetic variants (scans, dithering, upscales, JPEG) use fixed
 * parameters and a seeded generator. Not part of CI (it downloads ~110 MB).
 *
 * Usage: node bench/validation/build.mjs           (or npm run bench:validation)
 *        node bench/validation/build.mjs --tune    (or npm run bench:tune)
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Resvg } from '@resvg/resvg-js';
import { decode as decodePng, encode as encodePng } from 'fast-png';
import jpeg from 'jpeg-js';
import { countGradients, pixelsPerUnit, strokeWidths } from '../svgstats.mjs';

const here = dirname(fileURLToPath(import.meta.url));
// Package downloads live with the other tool caches (not under bench/, where `node --test bench/`
// would walk them).
const cache = join(here, '..', '..', 'node_modules', '.cache', 'tracelab-validation');
const root = join(cache, 'x');
const out = join(here, 'out');
const tuneOut = join(here, 'tune');

const PACKAGES = {
  'openclipart-svg': 'Openclipart: public domain (Creative Commons PD dedication), see openclipart-svg copyright',
  'tango-icon-theme': 'Tango Desktop Project: public domain, see tango-icon-theme copyright',
  'papirus-icon-theme': 'Papirus: GPL-3, see papirus-icon-theme copyright',
  'python3-skimage': 'scikit-image data: see python3-skimage copyright (CC0 / public domain / per-image terms)',
  'crawl-tiles-data': 'Dungeon Crawl Stone Soup tiles: CC0 (tiles) / GPL-2+, see crawl-tiles-data copyright',
  'pingus-data': 'Pingus: GPL-3+, see pingus-data copyright',
  'fonts-dejavu-core': 'DejaVu fonts: Bitstream Vera licence (free), see fonts-dejavu-core copyright',
  'elementary-icon-theme': 'elementary icons: GPL-3.0-or-later (the 128 px folders used here), see elementary-icon-theme copyright',
  'mate-backgrounds': 'MATE backgrounds, nature photos: GPL-2+ (per-photo authors in AUTHORS), see mate-backgrounds copyright',
  'breeze-icon-theme': 'Breeze icons: LGPL-3+, see breeze-icon-theme copyright',
  'desktop-base': 'Debian desktop themes (emerald, lines, moonlight, softwaves by Juliette Taka): GPL-2+, see desktop-base copyright',
  heroicons: 'heroicons (npm, Tailwind Labs): MIT, see the package LICENSE',
  iconoir: 'Iconoir (npm, Luca Burgio): MIT, see the package LICENSE',
  '@iconify-json/fluent-emoji': 'Fluent Emoji, colour style (Microsoft; npm @iconify-json/fluent-emoji): MIT, see the package info.json',
  '@iconify-json/noto': 'Noto Emoji (Google; npm @iconify-json/noto): Apache-2.0, see the package info.json',
  'lomiri-wallpapers-16.04': 'Ubuntu community wallpapers (photos): CC-BY-4.0 / CC-BY-SA-4.0 / CC0-1.0 per photo, see lomiri-wallpapers-16.04 copyright',
  'lomiri-wallpapers-20.04': 'Ubuntu community wallpapers (photos): CC-BY-SA-3.0 per photo, see lomiri-wallpapers-20.04 copyright',
};
/**
 * npm packages of the stroke kind (icon sets drawn with stroke-width paths), fetched with
 * `npm pack` at a fixed version into the cache and unpacked there.
 */
const NPM_PACKAGES = { heroicons: '2.2.0', iconoir: '7.12.1', '@iconify-json/fluent-emoji': '1.2.7', '@iconify-json/noto': '1.2.9' };
/** Packages of the validation set, and those the tuning set adds (it picks the validation set too, to avoid its files). */
const REPORT_PACKAGES = [
  'openclipart-svg', 'tango-icon-theme', 'papirus-icon-theme', 'python3-skimage', 'crawl-tiles-data', 'pingus-data',
  'fonts-dejavu-core', 'elementary-icon-theme', 'mate-backgrounds', 'lomiri-wallpapers-16.04', 'lomiri-wallpapers-20.04',
];
const TUNE_PACKAGES = [...REPORT_PACKAGES, 'breeze-icon-theme', 'desktop-base'];
/** The corpus's Breeze icons (its icon kind): never picked for the tuning set. */
const CORPUS_BREEZE = new Set(['akregator.svg', 'application-x-clementine.svg', 'kajongg.svg', 'pythonbackend.svg']);

/** The corpus's own source files: never picked again. */
const CORPUS_FILES = new Set([
  'debian_nuskool_joel_leht_01.svg', 'lemon_whole_ganson.svg', 'uk_wales.svg', 'baseball_glove_ganson.svg',
  'rubik_s_cube_petri_lumme_01.svg', 'recycling_box_a.j._ashto_01.svg', 'dancer_sketch_erich_schu_01.svg',
  'france_brittany.svg', 'owl_on_branch_ganson.svg', 'astronaut.png', 'coffee.png', 'rocket.jpg',
  'main.png', 'floor.png', 'title_peileppe_bloax_eye.png', 'title_froggy_jiyva_felid.png', 'bridger_walk.png',
]);

function fetchPackages(names) {
  mkdirSync(root, { recursive: true });
  mkdirSync(cache, { recursive: true });
  for (const name of names) {
    let deb = readdirSync(cache).find((f) => f.startsWith(`${name}_`) && f.endsWith('.deb'));
    if (!deb) {
      console.log(`validation: apt-get download ${name}`);
      try {
        execFileSync('apt-get', ['download', name], { cwd: cache, stdio: 'inherit' });
      } catch {
        execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
        execFileSync('apt-get', ['download', name], { cwd: cache, stdio: 'inherit' });
      }
      deb = readdirSync(cache).find((f) => f.startsWith(`${name}_`) && f.endsWith('.deb'));
    }
    const stamp = join(root, `.${name}`);
    if (!existsSync(stamp)) {
      execFileSync('dpkg-deb', ['-x', join(cache, deb), root]);
      writeFileSync(stamp, deb);
    }
  }
}

/** The unpacked folder of an npm package of NPM_PACKAGES (`npm pack` once, then `tar -x`). */
function npmPackage(name) {
  const version = NPM_PACKAGES[name];
  const dir = join(cache, 'npm', `${name}-${version}`);
  if (!existsSync(join(dir, 'package'))) {
    mkdirSync(dir, { recursive: true });
    console.log(`validation: npm pack ${name}@${version}`);
    execFileSync('npm', ['pack', `${name}@${version}`, '--pack-destination', dir, '--silent'], { stdio: ['ignore', 'ignore', 'inherit'] });
    // npm names the tarball of a scoped package `scope-name-version.tgz`
    execFileSync('tar', ['-xzf', join(dir, `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`), '-C', dir]);
  }
  return join(dir, 'package');
}

function walk(dir) {
  const files = [];
  for (const entry of readdirSync(dir).sort()) {
    const p = join(dir, entry);
    if (statSync(p).isDirectory()) files.push(...walk(p));
    else files.push(p);
  }
  return files;
}

/** The SVG files of one folder that are files, not symbolic links (icon themes alias many names), sorted. */
function realSvgs(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).sort().map((f) => join(dir, f)).filter((p) => p.endsWith('.svg') && lstatSync(p).isFile());
}

const sha1 = (buf) => createHash('sha1').update(buf).digest('hex');

// ----------------------------------------------------------------------------------------------
// Pixels

/** RGBA image {width, height, data: Uint8Array}. */
function readPng(path) {
  const p = decodePng(readFileSync(path));
  const n = p.width * p.height;
  const data = new Uint8Array(n * 4);
  const shift = p.depth === 16 ? 8 : 0;
  const ch = p.channels;
  const palette = p.palette;
  for (let i = 0; i < n; i++) {
    if (palette) {
      const c = palette[p.data[i]];
      data.set([c[0], c[1], c[2], c.length > 3 ? c[3] : 255], i * 4);
      continue;
    }
    for (let k = 0; k < 3; k++) data[i * 4 + k] = p.data[i * ch + (ch >= 3 ? k : 0)] >> shift;
    data[i * 4 + 3] = ch === 4 || ch === 2 ? p.data[i * ch + ch - 1] >> shift : 255;
  }
  return { width: p.width, height: p.height, data };
}

function readJpeg(path) {
  const j = jpeg.decode(readFileSync(path), { useTArray: true, formatAsRGBA: true, maxMemoryUsageInMB: 2048 });
  return { width: j.width, height: j.height, data: new Uint8Array(j.data) };
}

function overWhite(img) {
  const data = new Uint8Array(img.data.length);
  for (let i = 0; i < img.data.length; i += 4) {
    const a = img.data[i + 3] / 255;
    for (let k = 0; k < 3; k++) data[i + k] = Math.round(img.data[i + k] * a + 255 * (1 - a));
    data[i + 3] = 255;
  }
  return { ...img, data };
}

function crop(img, x0, y0, w, h) {
  const data = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) data.set(img.data.subarray(((y0 + y) * img.width + x0) * 4, ((y0 + y) * img.width + x0 + w) * 4), y * w * 4);
  return { width: w, height: h, data };
}

/** Area-average shrink so the long side is at most `longSide`. */
function shrink(img, longSide) {
  const scale = longSide / Math.max(img.width, img.height);
  if (scale >= 1) return img;
  const w = Math.max(1, Math.round(img.width * scale));
  const h = Math.max(1, Math.round(img.height * scale));
  const data = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    const sy0 = Math.floor((y * img.height) / h);
    const sy1 = Math.max(sy0 + 1, Math.floor(((y + 1) * img.height) / h));
    for (let x = 0; x < w; x++) {
      const sx0 = Math.floor((x * img.width) / w);
      const sx1 = Math.max(sx0 + 1, Math.floor(((x + 1) * img.width) / w));
      const sum = [0, 0, 0, 0];
      for (let sy = sy0; sy < sy1; sy++) for (let sx = sx0; sx < sx1; sx++) for (let k = 0; k < 4; k++) sum[k] += img.data[(sy * img.width + sx) * 4 + k];
      const n = (sy1 - sy0) * (sx1 - sx0);
      for (let k = 0; k < 4; k++) data[(y * w + x) * 4 + k] = Math.round(sum[k] / n);
    }
  }
  return { width: w, height: h, data };
}

/** Nearest-neighbour upscale (a non-integer factor gives cells of two sizes). */
function upscale(img, factor) {
  const w = Math.round(img.width * factor);
  const h = Math.round(img.height * factor);
  const data = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const sx = Math.min(img.width - 1, Math.floor(x / factor));
      const sy = Math.min(img.height - 1, Math.floor(y / factor));
      data.set(img.data.subarray((sy * img.width + sx) * 4, (sy * img.width + sx) * 4 + 4), (y * w + x) * 4);
    }
  }
  return { width: w, height: h, data };
}

function jpegRoundTrip(img, quality) {
  const encoded = jpeg.encode({ width: img.width, height: img.height, data: Buffer.from(img.data) }, quality).data;
  const j = jpeg.decode(encoded, { useTArray: true, formatAsRGBA: true });
  return { width: j.width, height: j.height, data: new Uint8Array(j.data) };
}

/** Deterministic pseudo-random numbers. */
function seeded(seed) {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
}

/** A scanned-looking copy: turned 0.8°, bilinear, a 3×3 blur, paper tint, noise, JPEG q85. */
function scan(img, seed) {
  const { width: w, height: h } = img;
  const rnd = seeded(seed);
  const angle = (0.8 * Math.PI) / 180;
  const at = (x, y) => {
    x = Math.max(0, Math.min(w - 1, x));
    y = Math.max(0, Math.min(h - 1, y));
    const o = (y * w + x) * 4;
    return (img.data[o] + img.data[o + 1] + img.data[o + 2]) / 3;
  };
  const turned = new Float64Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const sx = (x - w / 2) * Math.cos(angle) - (y - h / 2) * Math.sin(angle) + w / 2;
      const sy = (x - w / 2) * Math.sin(angle) + (y - h / 2) * Math.cos(angle) + h / 2;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const fx = sx - x0;
      const fy = sy - y0;
      turned[y * w + x] = (1 - fx) * (1 - fy) * at(x0, y0) + fx * (1 - fy) * at(x0 + 1, y0) + (1 - fx) * fy * at(x0, y0 + 1) + fx * fy * at(x0 + 1, y0 + 1);
    }
  }
  const data = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let v = 0;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const weight = (dx ? 1 : 2) * (dy ? 1 : 2) / 16;
          v += weight * turned[Math.max(0, Math.min(h - 1, y + dy)) * w + Math.max(0, Math.min(w - 1, x + dx))];
        }
      }
      const noise = (rnd() + rnd() + rnd() - 1.5) * 6;
      const p = 28 + (v * (240 - 28)) / 255 + noise;
      data.set([p + 3, p, p - 8, 255].map((c) => Math.max(0, Math.min(255, Math.round(c)))), (y * w + x) * 4);
    }
  }
  return jpegRoundTrip({ width: w, height: h, data }, 85);
}

/** Floyd–Steinberg dithering to a palette of `k` colours chosen by median cut on the image. */
function dither(img, k) {
  const colors = medianCut(img, k);
  const { width: w, height: h } = img;
  const err = new Float64Array(w * h * 3);
  for (let i = 0; i < w * h; i++) for (let c = 0; c < 3; c++) err[i * 3 + c] = img.data[i * 4 + c];
  const data = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      let best = 0;
      let bestD = Infinity;
      colors.forEach((c, j) => {
        const d = (err[i * 3] - c[0]) ** 2 + (err[i * 3 + 1] - c[1]) ** 2 + (err[i * 3 + 2] - c[2]) ** 2;
        if (d < bestD) [best, bestD] = [j, d];
      });
      const c = colors[best];
      data.set([c[0], c[1], c[2], 255], i * 4);
      for (let ch = 0; ch < 3; ch++) {
        const e = err[i * 3 + ch] - c[ch];
        if (x + 1 < w) err[(i + 1) * 3 + ch] += (e * 7) / 16;
        if (y + 1 < h) {
          if (x > 0) err[(i + w - 1) * 3 + ch] += (e * 3) / 16;
          err[(i + w) * 3 + ch] += (e * 5) / 16;
          if (x + 1 < w) err[(i + w + 1) * 3 + ch] += e / 16;
        }
      }
    }
  }
  return { width: w, height: h, data };
}

function medianCut(img, k) {
  const pixels = [];
  for (let i = 0; i < img.data.length; i += 4) pixels.push([img.data[i], img.data[i + 1], img.data[i + 2]]);
  let boxes = [pixels];
  while (boxes.length < k) {
    boxes.sort((a, b) => b.length - a.length);
    const box = boxes.shift();
    const ranges = [0, 1, 2].map((c) => Math.max(...box.map((p) => p[c])) - Math.min(...box.map((p) => p[c])));
    const axis = ranges.indexOf(Math.max(...ranges));
    box.sort((a, b) => a[axis] - b[axis]);
    boxes.push(box.slice(0, box.length >> 1), box.slice(box.length >> 1));
  }
  return boxes.map((b) => [0, 1, 2].map((c) => Math.round(b.reduce((s, p) => s + p[c], 0) / b.length)));
}

function renderSvg(svgText, longSide, fontFiles = []) {
  const probe = new Resvg(svgText, { font: { loadSystemFonts: false, fontFiles } });
  const landscape = probe.width >= probe.height;
  const r = new Resvg(svgText, {
    fitTo: landscape ? { mode: 'width', value: longSide } : { mode: 'height', value: longSide },
    background: 'white',
    font: { loadSystemFonts: false, fontFiles },
  }).render();
  return overWhite({ width: r.width, height: r.height, data: new Uint8Array(r.pixels) });
}

// ----------------------------------------------------------------------------------------------
// Picking

/** Colours used by an SVG's fill/stroke attributes and styles, normalised to #rrggbb. */
function svgColors(text) {
  const named = { black: '#000000', white: '#ffffff' };
  const out = new Set();
  for (const m of text.matchAll(/(?:fill|stroke)\s*[:=]\s*"?\s*(#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3}\b|black|white)/g)) {
    let c = named[m[1].toLowerCase()] ?? m[1].toLowerCase();
    if (c.length === 4) c = `#${c[1]}${c[1]}${c[2]}${c[2]}${c[3]}${c[3]}`;
    out.add(c);
  }
  return out;
}

/** Every k-th of a sorted list, starting at `offset`, up to `count`. */
function every(list, count, offset = 0) {
  if (list.length <= count) return list;
  const step = list.length / count;
  return Array.from({ length: count }, (_, i) => list[Math.floor(offset + i * step) % list.length]);
}

/**
 * Like `every`, for SVG files: a file resvg cannot read (a few of the collection are malformed)
 * is replaced by the next one in the list. Returns [path, text, rendered image] triples.
 */
function everyRendered(list, count, offset, longSide) {
  const out = [];
  const step = list.length / count;
  for (let i = 0; i < count && i < list.length; i++) {
    for (let j = Math.floor(offset + i * step); j < list.length; j++) {
      const text = readFileSync(list[j], 'utf8');
      try {
        const img = renderSvg(text, longSide);
        if (out.some(([p]) => p === list[j])) continue;
        out.push([list[j], text, img]);
        break;
      } catch {
        // unreadable: take the next file
      }
    }
  }
  return out;
}

/**
 * Like `everyRendered`, but a file with the same bytes as the source of an image of one of `sets`
 * (or as an earlier pick of this call) is passed over too (collections hold copies of one file
 * under several names), and so is one whose render `accept` refuses (by default: one that is not
 * visibly shaded, see `shaded`).
 */
function everyNew(list, count, offset, longSide, sets, accept = shaded) {
  const out = [];
  const picked = new Set();
  const step = list.length / count;
  for (let i = 0; i < count && i < list.length; i++) {
    for (let j = Math.floor(offset + i * step); j < list.length; j++) {
      const bytes = readFileSync(list[j]);
      const key = sha1(bytes);
      if (picked.has(key) || sets.some((set) => set.used.has(key))) continue;
      const text = bytes.toString('utf8');
      try {
        const img = renderSvg(text, longSide);
        if (!accept(img)) continue;
        picked.add(key);
        out.push([list[j], text, img]);
        break;
      } catch {
        // unreadable: take the next file
      }
    }
  }
  return out;
}

/**
 * Gradient elements of an SVG fit for the gradient kind, 0 when it is not: at least two shapes
 * painted with `url(...)`, and no raster image, text, filter, pattern or mask (effects that are
 * not gradient shading).
 */
function gradientArt(text) {
  const body = text.replace(/<!--[\s\S]*?-->/g, '');
  if (/<image|<text|filter|<pattern|<mask/i.test(body)) return 0;
  const painted = (body.match(/(?:fill|stroke)\s*[:=]\s*["']?\s*url\(/g) ?? []).length;
  return painted >= 2 ? countGradients(body) : 0;
}

/**
 * Whether a render shows smooth shading: of its ink pixels (not near-white), at least a quarter
 * step to their right and lower neighbours by a little but not nothing (BT.601 luma steps adding
 * up to more than 0 and less than 3 levels). Flat art scores ≤ 0.03 and shaded icons 0.3–0.7;
 * gradients that are drawn but hardly seen (a page's faint sheen) score 0.1–0.16.
 */
function shaded(img) {
  const { width: w, height: h, data } = img;
  const luma = (i) => 0.299 * data[i * 4] + 0.587 * data[i * 4 + 1] + 0.114 * data[i * 4 + 2];
  let ink = 0;
  let soft = 0;
  for (let y = 0; y < h - 1; y++) {
    for (let x = 0; x < w - 1; x++) {
      const i = y * w + x;
      if (data[i * 4] > 250 && data[i * 4 + 1] > 250 && data[i * 4 + 2] > 250) continue;
      ink++;
      const step = Math.abs(luma(i + 1) - luma(i)) + Math.abs(luma(i + w) - luma(i));
      if (step > 0 && step < 3) soft++;
    }
  }
  return soft >= 0.25 * ink && ink > 0;
}

/** Distinct `stop-color` values of an SVG (attributes and styles), lower-cased. */
function stopColors(text) {
  return new Set([...text.matchAll(/stop-color\s*[:=]\s*["']?\s*(#[0-9a-fA-F]{3,6}\b|[a-zA-Z]+)/g)].map((m) => m[1].toLowerCase()));
}

/**
 * Openclipart lists. Flat art (bw, flat, twoColour): 4–120 kB, no gradients, text, raster images
 * or filters. Gradient art (see gradientArt): `gradient` 3–39 gradients in 4–150 kB (not from
 * computer/icons/, icon themes the gradient kind has from their own packages), `busy` 40 or
 * more in 4–400 kB, largest file first (scenes). (No lettering logo qualifies: the logos/
 * folder's one piece with gradients, velocette, defines them but paints flat yellow.)
 */
function openclipartLists() {
  const base = join(root, 'usr/share/openclipart/svg');
  const bw = [];
  const flat = [];
  const twoColour = [];
  const gradient = [];
  const busy = [];
  const outlined = [];
  const hairline = [];
  for (const p of walk(base)) {
    if (!p.endsWith('.svg') || CORPUS_FILES.has(basename(p))) continue;
    const size = statSync(p).size;
    if (size < 4000 || size > 400000) continue;
    const text = readFileSync(p, 'latin1');
    if (/Gradient|<image|<text|filter/i.test(text)) {
      const n = gradientArt(text);
      if (n >= 40) busy.push([p, size]);
      else if (n >= 3 && size <= 150000 && !p.startsWith(join(base, 'computer/icons/'))) gradient.push(p);
      continue;
    }
    if (size > 120000) continue;
    const colors = svgColors(text);
    const isBw = colors.has('#000000') && [...colors].every((c) => c === '#000000' || c === '#ffffff');
    if (isBw) bw.push(p);
    else if (colors.size >= 3 && colors.size <= 10) flat.push(p);
    if (!isBw && colors.size === 3 && colors.has('#000000') && colors.has('#ffffff')) twoColour.push(p);
    const width = outlineWidth(text);
    if (width > 0) {
      // Width in pixels at the kind's long side of 600 px.
      const px = width * pixelsPerUnit(text, 600) * Math.min(1, svgAspect(text));
      if (px >= OUTLINE_PX_MIN && px <= OUTLINE_PX_MAX) outlined.push(p);
      else if (px >= HAIRLINE_PX_MIN && px <= HAIRLINE_PX_MAX) hairline.push(p);
    }
  }
  busy.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return { base, bw, flat, twoColour, gradient, busy: busy.map(([p]) => p), outlined, hairline };
}

/** Outlines of the stroke kind's clip art: 1.5–12 px wide at long side 600; hairlines 0.25–1 px. */
const OUTLINE_PX_MIN = 1.5;
const OUTLINE_PX_MAX = 12;
const HAIRLINE_PX_MIN = 0.25;
const HAIRLINE_PX_MAX = 1;

/** Width / height of an SVG's viewBox (else its width and height attributes), 1 when unknown. */
function svgAspect(text) {
  const root = text.match(/<svg\b[^>]*>/)?.[0] ?? '';
  const vb = root.match(/viewBox\s*=\s*["']\s*[-\d.eE+]+[\s,]+[-\d.eE+]+[\s,]+([\d.eE+]+)[\s,]+([\d.eE+]+)/);
  const w = root.match(/\swidth\s*=\s*["']\s*([\d.eE+]+)/);
  const h = root.match(/\sheight\s*=\s*["']\s*([\d.eE+]+)/);
  const [x, y] = vb ? [parseFloat(vb[1]), parseFloat(vb[2])] : w && h ? [parseFloat(w[1]), parseFloat(h[1])] : [1, 1];
  return x > 0 && y > 0 ? x / y : 1;
}

/**
 * The width (user units) an SVG's outlines share, or 0: at least 3 stroked elements (svgstats
 * strokeWidths), 80 % of them of one width, half of them around a fill (outlines, not free
 * lines), and no transform anywhere (so the width written is the width drawn).
 */
function outlineWidth(text) {
  if (/\stransform\s*=/.test(text)) return 0;
  const strokes = strokeWidths(text);
  if (strokes.length < 3 || strokes.filter((s) => s.filled).length * 2 < strokes.length) return 0;
  return sharedWidth(strokes.map((s) => s.width), 0.8);
}

/** The width at least `share` of `widths` have (to 3 significant digits), or 0. */
function sharedWidth(widths, share) {
  const counts = new Map();
  for (const w of widths) counts.set(w.toPrecision(3), (counts.get(w.toPrecision(3)) ?? 0) + 1);
  const [width, n] = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0] ?? ['0', 0];
  return n >= share * widths.length ? parseFloat(width) : 0;
}

/**
 * The stroke kind: pictures an artist drew with strokes of one width, each rendered from the
 * artist's SVG (kept as .ref.svg) with the width in the manifest (`stroke_width` in the SVG's
 * units, `stroke_width_px` in the PNG's pixels). Icons: heroicons' outline set and Iconoir's
 * regular set (every stroke 1.5 units of a 24-unit box), at 256 px; openclipart pieces outlined
 * with one stroke width (outlined clip art) or with a hairline under a pixel, at long side 600;
 * text set in DejaVu with an outline stroke. `picks` chooses which files (the validation and
 * the tuning set take other ones); `avoid`: sets whose files are not taken again.
 */
function buildStrokes(set, oc, picks, avoid) {
  const add = (id, img, pkg, path, processing, note, text, width) => {
    set.add('stroke', id, img, pkg, path, processing, note, text);
    // The npm files are not under the Debian root: their bytes mark them used here.
    set.used.add(sha1(Buffer.from(text)));
    Object.assign(set.images[set.images.length - 1], { stroke_width: width, stroke_width_px: Number((width * pixelsPerUnit(text, img.width)).toFixed(3)) });
  };
  const any = () => true;
  const hero = npmPackage('heroicons');
  for (const [p, text, img] of everyNew(realSvgs(join(hero, '24/outline')), picks.icons, picks.heroOffset, 256, avoid, any)) {
    add(`heroicons-${idOf(p)}`, img, 'heroicons', `npm:heroicons@${NPM_PACKAGES.heroicons}/${relative(hero, p)}`, 'resvg, 256px, over white', 'line icon drawn with strokes (heroicons outline)', text, sharedWidth(strokeWidths(text).map((s) => s.width), 1));
  }
  const iconoir = npmPackage('iconoir');
  // Only icons whose every stroke has the set's width (a few are drawn at 1.2–1.5).
  const iconoirFiles = realSvgs(join(iconoir, 'icons/regular')).filter((p) => sharedWidth(strokeWidths(readFileSync(p, 'utf8')).map((s) => s.width), 1) === 1.5);
  for (const [p, text, img] of everyNew(iconoirFiles, picks.icons, picks.iconoirOffset, 256, avoid, any)) {
    add(`iconoir-${idOf(p)}`, img, 'iconoir', `npm:iconoir@${NPM_PACKAGES.iconoir}/${relative(iconoir, p)}`, 'resvg, 256px, over white', 'line icon drawn with strokes (Iconoir regular)', text, 1.5);
  }
  for (const [p, text, img] of everyNew(oc.outlined, picks.outlined, picks.clipOffset, 600, avoid, any)) {
    add(`outlined-${idOf(p)}`, img, 'openclipart-svg', sysPath(p), 'resvg, long side 600px, over white', 'clip art outlined with strokes of one width', text, outlineWidth(text));
  }
  for (const [p, text, img] of everyNew(oc.hairline, picks.hairline, picks.clipOffset, 600, avoid, any)) {
    add(`hairline-${idOf(p)}`, img, 'openclipart-svg', sysPath(p), 'resvg, long side 600px, over white', 'art outlined with a hairline thinner than a pixel', text, outlineWidth(text));
  }
  // Text: outlined lettering (a fill and an outline stroke) and hollow lettering (the outline only).
  const fonts = join(root, 'usr/share/fonts/truetype/dejavu');
  for (const { id, fill, width, size } of picks.text) {
    const words = ['Strokes', 'and outlines'];
    const lines = words.map((t, i) => `<text x="16" y="${16 + (i + 1) * size * 1.2}" font-family="DejaVu Sans" font-weight="bold" font-size="${size}" fill="${fill}" stroke="#1a1a1a" stroke-width="${width}" stroke-linejoin="round">${t}</text>`).join('');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size * 9}" height="${32 + words.length * size * 1.2}" viewBox="0 0 ${size * 9} ${32 + words.length * size * 1.2}">${lines}</svg>`;
    const img = renderSvg(svg, size * 9, [join(fonts, 'DejaVuSans-Bold.ttf')]);
    add(`text-${id}`, img, 'fonts-dejavu-core', '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf', 'SVG <text> with a stroke, rendered with resvg, over white', fill === 'none' ? 'hollow lettering (outline stroke only)' : 'lettering with an outline stroke', svg, width);
  }
}

/** Which stroke-kind files the validation set takes; the tuning set takes others (offsets). */
const STROKE_PICKS = {
  report: { icons: 6, heroOffset: 3, iconoirOffset: 5, outlined: 4, hairline: 2, clipOffset: 0, text: [{ id: 'outlined', fill: '#f2c230', width: 3, size: 64 }, { id: 'hollow', fill: 'none', width: 2, size: 64 }] },
  tune: { icons: 4, heroOffset: 30, iconoirOffset: 100, outlined: 3, hairline: 1, clipOffset: 2, text: [{ id: 'outlined', fill: '#4a90d9', width: 4, size: 56 }] },
};

/**
 * Share of neighbouring pixel pairs (right and below) whose BT.601 luma steps add up to < 2
 * levels: how much of a picture is smooth shading.
 */
function smoothShare(img) {
  const { width: w, height: h, data } = img;
  const luma = new Float64Array(w * h);
  for (let i = 0; i < w * h; i++) luma[i] = 0.299 * data[i * 4] + 0.587 * data[i * 4 + 1] + 0.114 * data[i * 4 + 2];
  let smooth = 0;
  for (let y = 0; y < h - 1; y++) {
    for (let x = 0; x < w - 1; x++) {
      const i = y * w + x;
      if (Math.abs(luma[i + 1] - luma[i]) + Math.abs(luma[i + w] - luma[i]) < 2) smooth++;
    }
  }
  return smooth / ((w - 1) * (h - 1));
}

/**
 * Smooth photos: mate-backgrounds' nature photos (JPEG), area-averaged to long side 600 and
 * ranked by smoothShare, smoothest first (ties by file name). The five smoothest; the validation
 * set takes the 1st, 3rd and 5th, the tuning set the 2nd and 4th. (gnome-backgrounds, the first
 * choice, ships no photos in Debian 12: only rendered patterns, as WebP and SVG.)
 */
function smoothPhotos() {
  const dir = join(root, 'usr/share/backgrounds/mate/nature');
  return readdirSync(dir).filter((f) => /\.jpe?g$/i.test(f)).sort()
    .map((f) => {
      const img = shrink(readJpeg(join(dir, f)), 600);
      return { path: join(dir, f), img, smooth: smoothShare(img) };
    })
    .sort((a, b) => b.smooth - a.smooth);
}

// ----------------------------------------------------------------------------------------------
// Layered art and smooth photos (issue 39)

/**
 * The icons of an Iconify JSON set (an npm package of NPM_PACKAGES) as standalone SVG documents:
 * [name, svg text] sorted by name; aliases (other names of one icon) are not listed. Each body is
 * wrapped in an `<svg>` with the icon's own box (its left/top/width/height, else the set's).
 */
function iconifySvgs(pkg) {
  const set = JSON.parse(readFileSync(join(npmPackage(pkg), 'icons.json'), 'utf8'));
  return Object.keys(set.icons).sort().map((name) => {
    const icon = set.icons[name];
    const [left, top] = [icon.left ?? set.left ?? 0, icon.top ?? set.top ?? 0];
    const [width, height] = [icon.width ?? set.width ?? 16, icon.height ?? set.height ?? 16];
    return [name, `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="${left} ${top} ${width} ${height}">${icon.body}</svg>`];
  });
}

/**
 * Gradient elements of an SVG fit for the layered kind, 0 when it is not: at least 3 gradients,
 * at least two shapes painted with `url(...)`, and something translucent over what lies beneath
 * (an `opacity`, `fill-opacity` or `stop-opacity` below 1: highlights and shadows painted as one
 * see-through shape); no raster image or text. Blur filters are allowed (Fluent's soft highlights).
 */
function layeredArt(text) {
  if (/<image|<text/i.test(text)) return 0;
  const painted = (text.match(/(?:fill|stroke)\s*[:=]\s*["']?\s*url\(/g) ?? []).length;
  const translucent = /(?:^|[\s;"'])(?:fill-|stop-)?opacity\s*[:=]\s*["']?\s*0?\.\d/.test(text);
  return painted >= 2 && translucent ? countGradients(text) : 0;
}

/**
 * The layered kind: emoji drawn as layers (a base shape, details over it, highlights and shadows
 * as translucent shapes over gradients), from Iconify JSON sets on npm, rendered at 256 px with the
 * artist's SVG beside each. `picks`: per set, how many and from which offset (the validation and
 * the tuning set take other files); files of `avoid`'s sets (by content) are passed over, and so is
 * a render that is not visibly shaded (see `shaded`).
 */
function buildLayered(set, picks, avoid) {
  for (const { pkg, short, count, offset, note } of picks) {
    const list = iconifySvgs(pkg).filter(([, text]) => layeredArt(text) >= 3);
    const step = list.length / count;
    for (let i = 0, taken = 0; taken < count && i < count; i++) {
      for (let j = Math.floor(offset + i * step); j < list.length; j++) {
        const [name, text] = list[j];
        const key = sha1(Buffer.from(text));
        if (avoid.some((s) => s.used.has(key))) continue;
        const img = renderSvg(text, 256);
        if (!shaded(img)) continue;
        set.add('layered', `${short}-${name}`.slice(0, 48), img, pkg, `npm:${pkg}@${NPM_PACKAGES[pkg]}/icons.json#${name}`,
          'Iconify body in an <svg> of its box, resvg, 256px, over white', note, text);
        set.used.add(key);
        Object.assign(set.images[set.images.length - 1], { gradients: countGradients(text), filters: /<filter\b/.test(text) });
        taken++;
        break;
      }
    }
  }
}

/** Which layered files each set takes: every k-th of the fit files, the tuning set from other offsets. */
const LAYERED_PICKS = {
  report: [
    { pkg: '@iconify-json/fluent-emoji', short: 'fluent', count: 7, offset: 11, note: 'emoji drawn in layers: gradients, translucent highlights and shadows, soft (blurred) light (Fluent colour)' },
    { pkg: '@iconify-json/noto', short: 'noto', count: 6, offset: 5, note: 'emoji drawn in layers: gradients and translucent shapes over a base shape (Noto)' },
  ],
  tune: [
    { pkg: '@iconify-json/fluent-emoji', short: 'fluent', count: 4, offset: 200, note: 'emoji drawn in layers: gradients, translucent highlights and shadows, soft (blurred) light (Fluent colour)' },
    { pkg: '@iconify-json/noto', short: 'noto', count: 3, offset: 90, note: 'emoji drawn in layers: gradients and translucent shapes over a base shape (Noto)' },
  ],
};

/** The wallpaper photos of the smooth_photo kind: [package, folder in its copyright file, files (null: every photo it lists)]. */
const WALLPAPER_PHOTOS = [
  ['lomiri-wallpapers-16.04', '16.04', null],
  // 20.04's other two (Fossa, Painting-Colors) are renders, not photos
  ['lomiri-wallpapers-20.04', '20.04', ['Infinite-Sea_by_Aury88.jpg', 'Kleiber_by_Lukas_Baubkus.jpg']],
];

/** `Files: <folder>/<name>` stanzas of a Debian copyright file → Map(name → "licence, copyright holder"). */
export function copyrightLicences(text, folder) {
  const out = new Map();
  for (const stanza of text.split(/\n\s*\n/)) {
    const file = stanza.match(/^Files:\s*(\S+)/m)?.[1];
    const licence = stanza.match(/^License:\s*(\S+)/m)?.[1];
    const holder = stanza.match(/^Copyright:\s*(.+)$/m)?.[1]?.trim();
    if (file?.startsWith(`${folder}/`) && licence) out.set(file.slice(folder.length + 1), `${licence}, © ${holder ?? '?'}`);
  }
  return out;
}

/**
 * The smooth_photo kind's pool: the photos of the Ubuntu community wallpapers
 * (lomiri-wallpapers-16.04 and -20.04, photos only) and `mateRest` (mate-backgrounds' nature photos
 * the photo kind does not take), area-averaged to long side 600 (kept in the cache: decoding 2–25
 * MP JPEGs takes a while), those with smoothShare ≥ SMOOTH_SHARE_MIN, smoothest first (ties by file
 * name): [{ path, img, smooth, pkg, license }].
 */
function rankedWallpaperPhotos(mateRest) {
  const shrunkDir = join(cache, 'shrunk-600');
  mkdirSync(shrunkDir, { recursive: true });
  const photos = mateRest.map((p) => ({ ...p, pkg: 'mate-backgrounds', license: PACKAGES['mate-backgrounds'] }));
  for (const [pkg, folder, only] of WALLPAPER_PHOTOS) {
    const licences = copyrightLicences(readFileSync(join(root, 'usr/share/doc', pkg, 'copyright'), 'utf8'), folder);
    for (const name of [...licences.keys()].filter((n) => /\.jpe?g$/i.test(n) && (!only || only.includes(n))).sort()) {
      const path = join(root, 'usr/share/backgrounds', name);
      const cached = join(shrunkDir, `${name}.png`);
      if (!existsSync(cached)) {
        const img = shrink(readJpeg(path), 600);
        writeFileSync(cached, encodePng({ width: img.width, height: img.height, data: img.data, channels: 4 }));
      }
      const img = readPng(cached);
      photos.push({ path, img, smooth: smoothShare(img), pkg, license: `${licences.get(name)}; ${PACKAGES[pkg]}` });
    }
  }
  const ranked = photos.sort((a, b) => b.smooth - a.smooth || (a.path < b.path ? -1 : 1));
  for (const p of ranked) console.log(`validation: smooth share ${p.smooth.toFixed(3)} ${basename(p.path)}${p.smooth < SMOOTH_SHARE_MIN ? ' (left out)' : ''}`);
  return ranked.filter((p) => p.smooth >= SMOOTH_SHARE_MIN);
}

/**
 * Share of smooth neighbour pairs (smoothShare) a photo needs for the smooth_photo kind: sky, water,
 * out-of-focus backgrounds score 0.3–0.97; foliage, rocks and mountains 0.01–0.22.
 */
const SMOOTH_SHARE_MIN = 0.25;

/**
 * The smooth photos each set takes from rankedWallpaperPhotos: the validation set three of every
 * four (ranks 1, 3, 4, 5, 7 …), the tuning set the fourth (ranks 2, 6, 10 …).
 */
export function smoothPhotoPicks(ranked, which) {
  return ranked.filter((_, i) => (which === 'tune' ? i % 4 === 1 : i % 4 !== 1));
}

function addSmoothPhoto(set, { path, img, pkg, license }) {
  set.add('smooth_photo', idOf(path), img, pkg, sysPath(path), 'area-averaged to long side 600 px, over white', 'smooth photo (sky, water, out-of-focus background, smooth surfaces)');
  set.images[set.images.length - 1].license = license;
}

// ----------------------------------------------------------------------------------------------

/** Path of an unpacked file as installed (/usr/...). */
const sysPath = (p) => `/${relative(root, p)}`;
const idOf = (p) => basename(p).replace(/\.(svg|png|jpg)$/, '').replace(/[^a-z0-9]+/gi, '-').toLowerCase().slice(0, 40);

/**
 * One image set being built: its manifest entries and the source files they were made from (by
 * content, so that other picks can avoid them). With `write` false nothing is written: the
 * tuning build picks the validation set in memory only.
 */
class ImageSet {
  constructor(dir, write) {
    this.dir = dir;
    this.write = write;
    this.images = [];
    this.used = new Set();
    if (write) {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
    }
  }

  add(category, id, img, source_package, source_path, processing, note, refSvgText) {
    const file = `${category}-${id}.png`;
    if (this.images.some((im) => im.file === file)) throw new Error(`validation: two images named ${file}`);
    const source = join(root, source_path);
    if (existsSync(source)) this.used.add(sha1(readFileSync(source)));
    const rgb = overWhite(img);
    if (this.write) writeFileSync(join(this.dir, file), encodePng({ width: rgb.width, height: rgb.height, data: rgb.data, channels: 4 }));
    const entry = { file, category, id, width: rgb.width, height: rgb.height, source_package, source_path, processing, license: PACKAGES[source_package], note };
    if (refSvgText) {
      const ref = `${category}-${id}.ref.svg`;
      if (this.write) writeFileSync(join(this.dir, ref), refSvgText);
      entry.reference_svg = ref;
    }
    this.images.push(entry);
  }

  writeManifest(description) {
    writeFileSync(join(this.dir, 'manifest.json'), JSON.stringify({ description, images: this.images }, null, 1));
    const counts = {};
    for (const im of this.images) counts[im.category] = (counts[im.category] ?? 0) + 1;
    console.log(`validation: ${this.images.length} images in ${relative(process.cwd(), this.dir)}`, counts);
  }
}

/** The validation set (report on it): the corpus's six kinds, smooth photos, the gradient kind and the stroke kind. */
function buildValidation(set, oc, photos, wallpaperPhotos) {
  // Clip art: 10 flat-colour pieces across the collection, plus two-colour logos with outlines.
  for (const [p, text, img] of everyRendered(oc.flat, 10, 3, 600)) {
    set.add('clipart', idOf(p), img, 'openclipart-svg', sysPath(p), 'resvg, long side 600px, over white', 'flat clip art', text);
  }
  for (const [p, text, img] of everyRendered(oc.twoColour, 2, 1, 500)) {
    set.add('clipart', `2c-${idOf(p)}`, img, 'openclipart-svg', sysPath(p), 'resvg, long side 500px, over white', 'one colour plus black outline on white', text);
  }
  // Line art: 8 black-and-white drawings, 2 of them also "scanned"; text in two DejaVu faces.
  everyRendered(oc.bw, 8, 5, 600).forEach(([p, text, img], i) => {
    set.add('lineart_bw', idOf(p), img, 'openclipart-svg', sysPath(p), 'resvg, long side 600px, over white', 'black and white drawing', text);
    if (i < 2) set.add('lineart_bw', `scan-${idOf(p)}`, scan(img, 11 + i), 'openclipart-svg', sysPath(p), 'resvg 600px, then turned 0.8°, blurred, paper tint, noise, JPEG q85', 'scanned-looking line art');
  });
  const fonts = join(root, 'usr/share/fonts/truetype/dejavu');
  const paragraph = [
    'Vector graphics describe pictures with points, lines',
    'and curves, so they stay sharp at any size. A tracer',
    'turns the pixels of a bitmap back into such shapes:',
    'edges become Bézier curves, flat areas become fills.',
  ];
  for (const [face, file, size] of [['sans', 'DejaVuSans.ttf', 22], ['serif', 'DejaVuSerif.ttf', 15]]) {
    const lines = paragraph.map((t, i) => `<text x="10" y="${30 + i * size * 1.5}" font-family="DejaVu ${face === 'sans' ? 'Sans' : 'Serif'}" font-size="${size}">${t}</text>`).join('');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size * 30}" height="${20 + paragraph.length * size * 1.5}">${lines}</svg>`;
    const img = renderSvg(svg, size * 30, [join(fonts, file)]);
    set.add('lineart_bw', `text-${face}-${size}`, img, 'fonts-dejavu-core', `/usr/share/fonts/truetype/dejavu/${file}`, 'SVG <text> rendered with resvg, over white', `paragraph text, ${size}px`);
    if (face === 'serif') set.add('lineart_bw', `scan-text-${face}`, scan(img, 21), 'fonts-dejavu-core', `/usr/share/fonts/truetype/dejavu/${file}`, 'text rendered, then turned 0.8°, blurred, paper tint, noise, JPEG q85', 'scanned paragraph text');
  }
  // Icons: Tango and Papirus application icons at 256 px.
  const tango = walk(join(root, 'usr/share/icons/Tango/scalable/apps')).filter((p) => p.endsWith('.svg'));
  for (const [p, text, img] of everyRendered(tango, 5, 2, 256)) {
    set.add('icon', `tango-${idOf(p)}`, img, 'tango-icon-theme', sysPath(p), 'resvg, 256px, over white', 'Tango application icon', text);
  }
  const papirus = walk(join(root, 'usr/share/icons/Papirus/64x64/apps')).filter((p) => p.endsWith('.svg') && statSync(p).size > 1500);
  for (const [p, text, img] of everyRendered(papirus, 5, 7, 256)) {
    set.add('icon', `papirus-${idOf(p)}`, img, 'papirus-icon-theme', sysPath(p), 'resvg, 256px, over white', 'Papirus application icon (flat style)', text);
  }
  // Pixel art: other crawl sheets and title art, pingus sprites, and the real-world variants.
  const tiles = join(root, 'usr/share/crawl/dat/tiles');
  const player = readPng(join(tiles, 'player.png'));
  set.add('pixel', 'crawl-player', crop(player, 0, 0, Math.min(256, player.width), Math.min(128, player.height)), 'crawl-tiles-data', '/usr/share/crawl/dat/tiles/player.png', 'crop 256×128 of the sheet, over white', 'sprite sheet with transparent margins');
  const feat = readPng(join(tiles, 'feat.png'));
  set.add('pixel', 'crawl-feat', crop(feat, 0, 0, Math.min(192, feat.width), Math.min(96, feat.height)), 'crawl-tiles-data', '/usr/share/crawl/dat/tiles/feat.png', 'crop 192×96 of the sheet, over white', 'dungeon features');
  const wall = readPng(join(tiles, 'wall.png'));
  set.add('pixel', 'crawl-wall', crop(wall, 0, 0, Math.min(128, wall.width), Math.min(64, wall.height)), 'crawl-tiles-data', '/usr/share/crawl/dat/tiles/wall.png', 'crop 128×64, over white', 'noise-textured wall tiles');
  const titles = readdirSync(tiles).filter((f) => f.startsWith('title_') && !CORPUS_FILES.has(f)).sort();
  for (const f of every(titles, 2, 4)) {
    const t = readPng(join(tiles, f));
    set.add('pixel', `crawl-${idOf(f).replace(/^title-/, 'title-')}`, shrink(t, 600) === t ? t : crop(t, 0, 0, Math.min(600, t.width), Math.min(600, t.height)), 'crawl-tiles-data', `/usr/share/crawl/dat/tiles/${f}`, 'as is (cropped to 600 px if larger), over white', 'title screen art');
  }
  const pingusDir = join(root, 'usr/share/games/pingus/data/images/pingus/player0');
  const sprites = readdirSync(pingusDir).filter((f) => f.endsWith('.png') && !CORPUS_FILES.has(f)).sort();
  const walker = readPng(join(pingusDir, every(sprites, 1, 3)[0]));
  set.add('pixel', 'pingus-sprite', walker, 'pingus-data', `/usr/share/games/pingus/data/images/pingus/player0/${every(sprites, 1, 3)[0]}`, 'as is, over white', 'sprite sheet');
  const sprite = overWhite(crop(player, 0, 0, 32, 32));
  set.add('pixel', 'upscale-x4', upscale(sprite, 4), 'crawl-tiles-data', '/usr/share/crawl/dat/tiles/player.png', 'first 32×32 tile, nearest-neighbour ×4', 'integer upscale');
  set.add('pixel', 'upscale-x2_5', upscale(overWhite(crop(feat, 32, 0, 32, 32)), 2.5), 'crawl-tiles-data', '/usr/share/crawl/dat/tiles/feat.png', '32×32 tile, nearest-neighbour ×2.5', 'non-integer upscale');
  set.add('pixel', 'upscale-x4-q75', jpegRoundTrip(upscale(overWhite(crop(wall, 32, 0, 32, 32)), 4), 75), 'crawl-tiles-data', '/usr/share/crawl/dat/tiles/wall.png', '32×32 tile, ×4, JPEG q75', "JPEG'd sprite");
  const skimage = join(root, 'usr/lib/python3/dist-packages/skimage/data');
  set.add('pixel', 'dither-chelsea', dither(shrink(readPng(join(skimage, 'chelsea.png')), 160), 8), 'python3-skimage', '/usr/lib/python3/dist-packages/skimage/data/chelsea.png', 'shrunk to 160 px, Floyd–Steinberg to 8 median-cut colours', 'dithered picture');
  // Photos: other scikit-image sample photos, long side 600.
  for (const f of ['chelsea.png', 'motorcycle_left.png', 'hubble_deep_field.jpg', 'ihc.png', 'camera.png', 'coins.png', 'brick.png', 'gravel.png']) {
    const p = join(skimage, f);
    const img = f.endsWith('.jpg') ? readJpeg(p) : readPng(p);
    set.add('photo', idOf(f), shrink(img, 600), 'python3-skimage', `/usr/lib/python3/dist-packages/skimage/data/${f}`, 'area-averaged to long side 600 px, over white', 'photograph');
  }
  // Smooth photos (sky, water, out-of-focus backgrounds): the 1st, 3rd and 5th of smoothPhotos.
  for (const { path, img } of [photos[0], photos[2], photos[4]]) {
    set.add('photo', `smooth-${idOf(path)}`, img, 'mate-backgrounds', sysPath(path), 'area-averaged to long side 600 px, over white', 'smooth photo');
  }
  // JPEG-damaged art: other clip art and icons at q50–q90.
  const jpegSources = [...everyRendered(oc.flat, 5, 11, 480), ...everyRendered(tango, 3, 5, 256)];
  const qualities = [50, 60, 75, 90, 60, 70, 80, 50];
  jpegSources.forEach(([p, , img], i) => {
    const q = qualities[i % qualities.length];
    const isIcon = p.includes('/icons/');
    set.add('jpeg', `${idOf(p)}-q${q}`, jpegRoundTrip(img, q), isIcon ? 'tango-icon-theme' : 'openclipart-svg', sysPath(p), `resvg, long side ${isIcon ? 256 : 480}px, JPEG q${q}, back to PNG`, 'JPEG-damaged art');
  });

  // Gradient art: icons and clip art whose shading is drawn with linear and radial gradients.
  // Tango icons from the other folders than scalable/apps (the icon and jpeg kinds' folder).
  const tangoBase = join(root, 'usr/share/icons/Tango/scalable');
  const tangoGradient = readdirSync(tangoBase).sort().filter((d) => d !== 'apps')
    .flatMap((d) => realSvgs(join(tangoBase, d)))
    .filter((p) => gradientArt(readFileSync(p, 'utf8')) >= 3);
  for (const [p, text, img] of everyNew(tangoGradient, 5, 4, 256, [set])) {
    set.add('gradient', `tango-${idOf(p)}`, img, 'tango-icon-theme', sysPath(p), 'resvg, 256px, over white', 'Tango icon shaded with gradients', text);
  }
  // elementary icons (128 px designs; elementary-xfce-icon-theme ships its colour icons as PNG only).
  const elementaryBase = join(root, 'usr/share/icons/elementary');
  const elementary = ['apps', 'categories', 'devices', 'mimes', 'places']
    .flatMap((d) => realSvgs(join(elementaryBase, d, '128')))
    .filter((p) => gradientArt(readFileSync(p, 'utf8')) >= 3);
  for (const [p, text, img] of everyNew(elementary, 5, 2, 256, [set])) {
    set.add('gradient', `elementary-${idOf(p)}`, img, 'elementary-icon-theme', sysPath(p), 'resvg, 256px, over white', 'elementary icon shaded with gradients', text);
  }
  // Openclipart: five pieces across the collection and the largest busy scene.
  for (const [p, text, img] of everyNew(oc.gradient, 5, 7, 600, [set])) {
    set.add('gradient', idOf(p), img, 'openclipart-svg', sysPath(p), 'resvg, long side 600px, over white', 'clip art drawn with gradients', text);
  }
  for (const [p, text, img] of everyNew(oc.busy, 1, 0, 600, [set])) {
    set.add('gradient', `scene-${idOf(p)}`, img, 'openclipart-svg', sysPath(p), 'resvg, long side 600px, over white', 'busy scene, dozens of gradients (the largest such file)', text);
  }
  buildStrokes(set, oc, STROKE_PICKS.report, [set]);
  buildLayered(set, LAYERED_PICKS.report, [set]);
  for (const photo of smoothPhotoPicks(wallpaperPhotos, 'report')) addSmoothPhoto(set, photo);
}

/**
 * The tuning set (tune the gradients extension on it): gradient art and smooth photos from other
 * packages, or other files, than the validation set's.
 */
function buildTuning(set, report, oc, photos, wallpaperPhotos) {
  const avoid = [report, set];
  // Breeze application icons with gradients and at least 5 stop colours, not the corpus's four.
  const breeze = realSvgs(join(root, 'usr/share/icons/breeze/apps/48'))
    .filter((p) => !CORPUS_BREEZE.has(basename(p)))
    .filter((p) => {
      const text = readFileSync(p, 'utf8');
      return gradientArt(text) >= 3 && stopColors(text).size >= 5;
    });
  for (const [p, text, img] of everyNew(breeze, 6, 3, 256, avoid)) {
    set.add('gradient', `breeze-${idOf(p)}`, img, 'breeze-icon-theme', sysPath(p), 'resvg, 256px, over white', 'Breeze application icon shaded with gradients', text);
  }
  // Debian wallpapers: each desktop-base theme's 1920×1080 SVG that is gradient art.
  const themes = join(root, 'usr/share/desktop-base');
  const walls = readdirSync(themes).sort()
    .map((t) => join(themes, t, 'wallpaper/contents/images/1920x1080.svg'))
    .filter((p) => existsSync(p) && gradientArt(readFileSync(p, 'utf8')) >= 3);
  for (const [p, text, img] of everyNew(walls, 3, 0, 600, avoid)) {
    const theme = relative(themes, p).split('/')[0].replace(/-theme$/, '');
    set.add('gradient', `debian-${theme}`, img, 'desktop-base', sysPath(p), 'resvg, long side 600px, over white', 'Debian wallpaper drawn with gradients', text);
  }
  // Openclipart: four other pieces, and the largest busy scene the validation set does not use.
  for (const [p, text, img] of everyNew(oc.gradient, 4, 19, 600, avoid)) {
    set.add('gradient', idOf(p), img, 'openclipart-svg', sysPath(p), 'resvg, long side 600px, over white', 'clip art drawn with gradients', text);
  }
  for (const [p, text, img] of everyNew(oc.busy, 1, 0, 600, avoid)) {
    set.add('gradient', `busy-${idOf(p)}`, img, 'openclipart-svg', sysPath(p), 'resvg, long side 600px, over white', 'busy piece, dozens of gradients (the largest such file left)', text);
  }
  for (const { path, img } of [photos[1], photos[3]]) {
    set.add('photo', `smooth-${idOf(path)}`, img, 'mate-backgrounds', sysPath(path), 'area-averaged to long side 600 px, over white', 'smooth photo');
  }
  buildStrokes(set, oc, STROKE_PICKS.tune, avoid);
  buildLayered(set, LAYERED_PICKS.tune, avoid);
  for (const photo of smoothPhotoPicks(wallpaperPhotos, 'tune')) addSmoothPhoto(set, photo);
}

function main() {
  const tune = process.argv.includes('--tune');
  fetchPackages(tune ? TUNE_PACKAGES : REPORT_PACKAGES);
  const oc = openclipartLists();
  // mate's five smoothest are the photo kind's; the smooth_photo kind may take the others
  const matePhotos = smoothPhotos();
  const photos = matePhotos.slice(0, 5);
  const wallpaperPhotos = rankedWallpaperPhotos(matePhotos.slice(5));
  const report = new ImageSet(out, !tune);
  buildValidation(report, oc, photos, wallpaperPhotos);
  if (!tune) {
    report.writeManifest(
      'Validation set for Tracelab (bench/validation/build.mjs): the corpus kinds from other files and packages than ../shared/corpus, and gradient art. Tune on the corpus (and bench/validation/tune), report on this set. Opaque 8-bit PNG over white; *.ref.svg is the source where it was an SVG.',
    );
    return;
  }
  const set = new ImageSet(tuneOut, true);
  buildTuning(set, report, oc, photos, wallpaperPhotos);
  set.writeManifest(
    'Tuning set for Tracelab (bench/validation/build.mjs --tune): gradient art and smooth photos from other packages or files than the validation set (bench/validation/out). Tune the gradients extension on this set, report on the validation set. Opaque 8-bit PNG over white; *.ref.svg is the source where it was an SVG.',
  );
}

// `node bench/validation/build.mjs` builds; importing the file (tests) only loads the helpers above.
if (process.argv[1] && realpathSync(resolve(process.argv[1])) === realpathSync(fileURLToPath(import.meta.url))) main();
